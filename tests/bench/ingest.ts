import { fork } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * `npm run bench:ingest`: the hub's own cost of a sensor frame, in process (issue 18). The
 * venue bench (`bench:scale`) measures the whole compiled hub from outside, but its CPU per
 * frame moves with the machine's load (a starved hub batches more per turn and pays less per
 * frame); this one fixes the batching and leaves the network out:
 *
 * - a hub with 64 tables (the test hub: embedded broker, store, rules, manual sources);
 * - frames fed at BENCH_INGEST_RATE frames/s (3,200: 64 tables at the firmware's rate; on a
 *   1 ms timer, as boards' frames come in) or, with 0, BENCH_INGEST_PER_TURN (4) per turn as
 *   fast as the hub goes; round robin over the tables, a vibration frame to four rail hits;
 *   every 2,000 frames every table's shot ends;
 * - one MQTT subscriber to every table's events and states in a process of its own
 *   (`subscriber.mjs`, the venue bench's), which the hub writes to over TCP;
 * - BENCH_INGEST_PANEL: `none`, `panel` (the web panel on the in-process client, as
 *   `npm start` runs it) or `sse` (and a live scoreboard stream per 8 tables, read in this
 *   process: its reading is charged too).
 *
 * Reports the process's CPU time (user + system) per frame over BENCH_INGEST_FRAMES
 * frames (32,000: 10 s at 3,200/s) after 2 s of warm-up, for BENCH_RUNS runs (3) and their median. BENCH_INGEST_ROOT:
 * another checkout's sources (an older commit's, for an A/B comparison).
 */
const ROOT = process.env.BENCH_INGEST_ROOT ?? REPO_ROOT;
const TABLES = 64;
const PER_TURN = Number(process.env.BENCH_INGEST_PER_TURN ?? 4);
/** Frames per second in all (64 tables at the firmware's 50/s: 3,200); 0: PER_TURN a turn, as fast as the hub goes. */
const RATE = Number(process.env.BENCH_INGEST_RATE ?? 3200);
const FRAMES = Number(process.env.BENCH_INGEST_FRAMES ?? 32_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PANEL = process.env.BENCH_INGEST_PANEL ?? 'panel';
const SHOT_EVERY = 2_000;
if (!['none', 'panel', 'sse'].includes(PANEL)) throw new Error(`BENCH_INGEST_PANEL must be none, panel or sse, not '${PANEL}'`);

type Support = typeof import('../hub/support.ts');
type Web = typeof import('../../web/index.ts');
type Password = typeof import('../../hub/ops/password.ts');

async function run(): Promise<{ usPerFrame: number; userUs: number; systemUs: number }> {
  const { startTestHub, testConfig, VENUE_PASSWORD } = (await import(join(ROOT, 'tests/hub/support.ts'))) as Support;
  const tables = Array.from({ length: TABLES }, (_, i) => ({ id: `b${i + 1}`, source: { type: 'simulator' }, quietWindowMs: 300, defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 1000 } }));
  const groupCommit = process.env.BENCH_INGEST_GROUP_COMMIT_MS; // the store's window (config store.groupCommitMs), when set
  const t = await startTestHub({ config: testConfig({ tables, ...(groupCommit ? { store: { groupCommitMs: Number(groupCommit) } } : {}) }) });
  let panel: Awaited<ReturnType<Web['createWebPanel']>> | null = null;
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  if (PANEL !== 'none') {
    const { createWebPanel } = (await import(join(ROOT, 'web/index.ts'))) as Web;
    const { hashPasswordSync } = (await import(join(ROOT, 'hub/ops/password.ts'))) as Password;
    panel = createWebPanel({ mqtt: t.hub.panelMqtt('bench-web') as never, port: 0, venue: { username: 'bench', passwordHash: hashPasswordSync('bench-password') } });
    const { url } = await panel.start();
    for (let i = 1; PANEL === 'sse' && i <= TABLES; i += 8) {
      const reader = (await fetch(`${url}/events/b${i}?view=scoreboard`)).body!.getReader();
      readers.push(reader);
      void (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done);
      })();
    }
  }
  const url = new URL(t.hub.mqttUrl);
  url.username = 'referee';
  url.password = VENUE_PASSWORD;
  const subscriber = fork(join(REPO_ROOT, 'tests/bench/subscriber.mjs'), [url.href], { execArgv: [] });
  await new Promise((resolve, reject) => (subscriber.once('message', resolve), subscriber.once('exit', () => reject(new Error('the subscriber exited')))));
  const hitsReceived = () => new Promise<number>((resolve) => (subscriber.once('message', resolve as never), subscriber.send('count')));
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  let sent = 0;
  let hits = 0;
  const feed = async (frames: number) => {
    const started = performance.now();
    const fed = sent;
    for (let left = frames; left > 0; ) {
      // Paced: the frames due by now (a venue's boards send on their own clocks); else PER_TURN a turn.
      const due = RATE > 0 ? Math.min(left, Math.floor(((performance.now() - started) * RATE) / 1000) - (sent - fed)) : PER_TURN;
      for (let k = 0; k < due && left > 0; k++, left--, sent++) {
        t.clock.t += 0.3;
        const stamp = { boardUs: Math.round(t.clock.t * 1000), hubTime: t.clock.t, seq: sent & 0xff };
        const source = t.sources.get(`b${(sent % TABLES) + 1}`)!;
        if (sent % 5 === 0) source.emit({ type: 'vibration', level: 90, ...stamp });
        else (source.emit({ type: 'rail-hit', channel: sent % 4, amplitude: 120, ...stamp }), (hits += 1));
        if ((sent + 1) % SHOT_EVERY === 0) {
          t.clock.t += 400; // every table's quiet window passes: its shot ends, is scored, stored and published
          for (const table of t.hub.tables.values()) table.tick(t.clock.t);
        }
      }
      await (RATE > 0 ? new Promise((resolve) => setTimeout(resolve, 1)) : turn());
    }
  };
  try {
    await feed(6_400); // warm-up: JIT, caches, the SQLite page cache
    while ((await hitsReceived()) < hits) await new Promise((r) => setTimeout(r, 20));
    const from = process.cpuUsage();
    await feed(FRAMES);
    while ((await hitsReceived()) < hits) await new Promise((r) => setTimeout(r, 5));
    const cpu = process.cpuUsage(from);
    return { usPerFrame: (cpu.user + cpu.system) / FRAMES, userUs: cpu.user / FRAMES, systemUs: cpu.system / FRAMES };
  } finally {
    subscriber.kill();
    for (const reader of readers) await reader.cancel().catch(() => undefined);
    await panel?.stop();
    await t.hub.stop();
  }
}

const results = [];
for (let i = 0; i < RUNS; i++) {
  const r = await run();
  results.push(r);
  console.log(`run ${i + 1}: ${r.usPerFrame.toFixed(1)} µs CPU per frame (user ${r.userUs.toFixed(1)}, system ${r.systemUs.toFixed(1)})`);
}
const median = results.map((r) => r.usPerFrame).sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
console.log(`hub ingest, ${TABLES} tables, ${RATE > 0 ? `${RATE} frames/s` : `${PER_TURN} frames per turn`}, panel: ${PANEL}, sources: ${ROOT}: median ${median.toFixed(1)} µs CPU per frame (1e6 / it ≈ ${Math.round(1e6 / median)} frames/s on one free core, network reads and the frame decoder left out)`);
process.exit(0);
