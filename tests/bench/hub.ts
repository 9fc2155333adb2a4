import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { VirtualBoard } from '../../hardware/simulator/virtual-board.ts';
import { REPO_ROOT } from '../support/paths.ts';

/**
 * The hub under load, measured from outside as an operator would see it.
 *
 * The hub is the compiled `npm start` (hub, embedded broker and web panel) in a process of
 * its own. Each of the 16 tables is a board behind a serial-to-network server (the `tcp`
 * source, as ser2net would serve it); this process plays all 16 boards with the real
 * protocol and is the MQTT subscriber, so both ends of every latency are on one clock and
 * none of this process's work is charged to the hub.
 *
 * A board sends what the firmware sends (PROTOCOL.md): a heartbeat every 250 ms, the bed
 * vibration every 100 ms, and impacts. Tables play shots: a burst of rail hits while the
 * bed vibrates, then rest. Each shot is cut by the hub's segmenter,
 * scored by the rules engine, stored and published as the table's new state.
 *
 * Figures: event latency (a rail hit's bytes written to the hub → the hit on
 * `tables/<t>/events` at a subscriber, `subscriber.mjs`, in a third process), shot latency
 * (the moment the quiet window ends → the new state on `tables/<t>/state`), and the hub
 * process's resident memory.
 */
export const TABLES = Number(process.env.BENCH_TABLES ?? 16);
const QUIET_WINDOW_MS = 300;
const MOTION_MS = 1500;
const REST_MS = 500; // a shot's cycle: 1.5 s of motion, then 0.5 s of rest (the quiet window inside it)
const VIBRATION_EVERY_MS = 100;
const WARMUP_MS = MOTION_MS + REST_MS;
/**
 * Matches end: every this many shots the venue starts a new match on a table (`match/start`
 * over MQTT, as the referee console does), so the hub holds a match's log, not a whole
 * day's. 30 of these 72-hit shots hold about as much as a long real match.
 */
const SHOTS_PER_MATCH = 30;
const VENUE_PASSWORD = 'bench-venue-password';

export interface HubFigure {
  /** Frames per second per table (all kinds) the boards were asked to send. */
  rate: number;
  seconds: number;
  hits: number;
  hitsReceived: number;
  /** All frames the 16 boards sent per second. */
  framesPerSecond: number;
  eventP50Ms: number;
  eventP99Ms: number;
  shots: number;
  shotsScored: number;
  shotP50Ms: number;
  shotP99Ms: number;
  /** Largest resident set of the hub process seen while under load, and its peak since start. */
  rssMb: number;
  hwmMb: number;
  /** What of the resident set is the JavaScript heap (used) and Node's external memory, at the end of the run (from /metrics). */
  heapMb: number;
  externalMb: number;
  /** The hub process's CPU over the measured window, in % of one core. */
  cpuPercent: number;
  /** What the hub shed under overload (billiards_shed_total), by kind. */
  shed: Record<string, number>;
  /** With cameras (benchHub's `cameras`): their figures over the measured window. */
  camera?: CameraFigure;
}

/** The tables' cameras over the measured window, from the hub's /metrics. */
export interface CameraFigure {
  frames: number;
  dropped: number;
  /** A frame's arrival in the camera worker → the detector done with it (queue included): bucket bounds (ms) of the quantile. */
  frameP50Ms: number;
  frameP99Ms: number;
  /** A frame's arrival → the tracker message it ended (strike, shot, rest), and how many messages. */
  messageP50Ms: number;
  messageP99Ms: number;
  messages: number;
}

/** Cameras on the first `tables` tables: each table's `camera` config block (a file played as a live camera). */
export interface BenchCameras {
  tables: number;
  camera: Record<string, unknown>;
}

type Buckets = Map<string, number>;

/** A histogram's cumulative bucket counts from /metrics text (le → count). */
function buckets(text: string, name: string): Buckets {
  return new Map([...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm'))].map((m) => [m[1]!, Number(m[2])]));
}

/** The bucket bound (ms) within which a quantile of the observations between two scrapes falls. */
function bucketQuantile(before: Buckets, after: Buckets, q: number): number {
  const total = (after.get('+Inf') ?? 0) - (before.get('+Inf') ?? 0);
  if (total <= 0) return NaN;
  for (const [le, count] of after) if (count - (before.get(le) ?? 0) >= q * total) return le === '+Inf' ? Infinity : Number(le);
  return Infinity;
}

const sumOf = (text: string, name: string) => [...text.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);

function cameraFigure(before: string, after: string): CameraFigure {
  const frame = ['billiards_camera_frame_latency_ms', 'billiards_camera_message_latency_ms'].map((n) => [buckets(before, n), buckets(after, n)] as const);
  return {
    frames: sumOf(after, 'billiards_camera_frames_total') - sumOf(before, 'billiards_camera_frames_total'),
    dropped: sumOf(after, 'billiards_camera_frames_dropped_total') - sumOf(before, 'billiards_camera_frames_dropped_total'),
    frameP50Ms: bucketQuantile(frame[0]![0], frame[0]![1], 0.5),
    frameP99Ms: bucketQuantile(frame[0]![0], frame[0]![1], 0.99),
    messageP50Ms: bucketQuantile(frame[1]![0], frame[1]![1], 0.5),
    messageP99Ms: bucketQuantile(frame[1]![0], frame[1]![1], 0.99),
    messages: (frame[1]![1].get('+Inf') ?? 0) - (frame[1]![0].get('+Inf') ?? 0),
  };
}

/** Reads the hub's memory gauges from its /metrics. */
async function scrapeMetrics(url: string): Promise<{ heapMb: number; externalMb: number; shed: Record<string, number> }> {
  const text = await (await fetch(url)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  const shed = Object.fromEntries([...text.matchAll(/^billiards_shed_total\{kind="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
  return { heapMb: round2(value('nodejs_heap_size_used_bytes') / 2 ** 20), externalMb: round2(value('nodejs_external_memory_bytes') / 2 ** 20), shed };
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these. */
const CLOCK_TICKS = 100;

/** User plus system CPU time of a process so far, in clock ticks. */
function cpuTicks(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
  return Number(after[11]) + Number(after[12]);
}

/** The system-wide monotonic clock in ms: the subscriber process stamps with the same one. */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** One table's board behind its serial server: the board's bytes go to whichever hub connects. */
class ServedBoard {
  readonly board: VirtualBoard;
  private socket: Socket | null = null;
  private lastUs = 0;
  constructor(
    readonly id: string,
    readonly server: Server,
  ) {
    // A strictly increasing board clock: every hit has its own timestamp, the key that matches it at the subscriber.
    this.board = new VirtualBoard(() => (this.lastUs = Math.max(this.lastUs + 1, Math.floor(performance.now() * 1000))));
    server.on('connection', (socket) => void this.attach(socket));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  private async attach(socket: Socket): Promise<void> {
    socket.setNoDelay(true);
    // The hub going away at the end of a run resets the link: a closed link, not a failure.
    socket.on('error', () => undefined);
    this.socket = socket;
    const link = await this.board.transport.connect();
    link.on('data', (d: Buffer) => socket.write(d));
    socket.on('data', (d) => void link.write(d));
    socket.on('close', () => {
      this.socket = null;
      void link.close();
    });
    this.board.powerUp();
  }

  close(): void {
    this.board.powerDown();
    this.socket?.destroy();
    this.server.close();
  }
}

async function serveBoards(tables: number): Promise<ServedBoard[]> {
  const boards: ServedBoard[] = [];
  for (let i = 0; i < tables; i++) {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    boards.push(new ServedBoard(`b${i + 1}`, server));
  }
  return boards;
}

/** The node flags `npm start` runs the hub with, read from package.json so both stay the same. */
function startNodeFlags(): string[] {
  const script = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /node((?: --\S+)*) dist\/app\/main\.js start/.exec(script);
  if (!m) throw new Error(`package.json's start script does not run dist/app/main.js: ${script}`);
  return m[1]!.trim().split(' ').filter(Boolean);
}

function startHub(configPath: string, dataDir: string): Promise<{ child: ChildProcess; mqttUrl: string; metricsUrl: string }> {
  // BENCH_HUB_MAIN: another build's main.js (a worktree of an older commit, say), for A/B comparisons.
  const main = process.env.BENCH_HUB_MAIN ?? join(REPO_ROOT, 'dist/app/main.js');
  if (!existsSync(main)) throw new Error(`the compiled hub is missing (${main}): run \`npm run build\` first (npm run bench does)`);
  // The node flags of `npm start`, and BENCH_HUB_NODE_ARGS for more ("--cpu-prof", say).
  const nodeArgs = [...startNodeFlags(), ...(process.env.BENCH_HUB_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = spawn(process.execPath, [...nodeArgs, main, 'start'], {
    cwd: join(main, '../../../..'),
    env: { ...process.env, CONFIG: configPath, DATA_DIR: dataDir, PORT: '0', MQTT_PORT: '0', MQTT_WS_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the hub did not start: ${out}`)), 30_000);
    child.stderr!.on("data", (d: Buffer) => { out += d.toString(); if (process.env.BENCH_HUB_STDOUT) appendFileSync(process.env.BENCH_HUB_STDOUT, d); });
    const copy = process.env.BENCH_HUB_STDOUT; // a file for the hub's output (with --trace-gc, say)
    child.stdout!.on('data', (d: Buffer) => {
      if (copy) appendFileSync(copy, d);
      out += d.toString();
      const m = /MQTT broker:\s+(mqtt:\/\/\S+)/.exec(out);
      const metrics = /Metrics:\s+(http:\/\/\S+)/.exec(out);
      if (m && metrics && out.includes('is running')) {
        clearTimeout(timer);
        resolve({ child, mqttUrl: m[1]!, metricsUrl: metrics[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`the hub exited (${code}): ${out}`)));
  });
}

/**
 * Runs 16 tables at `framesPerTable` frames per second each (heartbeats and vibration
 * included) for `seconds`, and measures the hub from outside.
 */
export async function benchHub(framesPerTable: number, seconds: number, tables = TABLES, cameras?: BenchCameras): Promise<HubFigure> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hub-'));
  const boards = await serveBoards(tables);
  const configPath = join(dataDir, 'hub.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      hub: { id: 'bench' },
      venue: { username: 'bench', passwordHash: hashPasswordSync(VENUE_PASSWORD) },
      tables: boards.map((b, i) => ({
        id: b.id,
        source: { type: 'tcp', host: '127.0.0.1', port: b.port },
        scoring: 'sensors',
        quietWindowMs: QUIET_WINDOW_MS,
        // No refractory gaps in the board's detector: the load is what this bench sets.
        defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 1000 },
        ...(cameras && i < cameras.tables ? { camera: cameras.camera } : {}),
      })),
    }),
  );
  const { child, mqttUrl, metricsUrl } = await startHub(configPath, dataDir);
  const subscriber = fork(join(REPO_ROOT, 'tests/bench/subscriber.mjs'), [mqttUrl], { execArgv: [] });
  const venue = await mqtt.connectAsync(mqttUrl, { reconnectPeriod: 0, username: 'bench', password: VENUE_PASSWORD });
  try {
    await new Promise((resolve, reject) => (subscriber.once('message', resolve), subscriber.once('exit', () => reject(new Error('the subscriber exited')))));
    const deadline = Date.now() + 10_000;
    while (!boards.every((b) => b.connected)) {
      if (Date.now() > deadline) throw new Error('not every table connected to its board');
      await new Promise((r) => setTimeout(r, 20));
    }

    let started = 0;
    let measureFrom = Infinity; // on the monotonic clock, as every stamp below
    const hitSentAt = new Map<string, number>();
    /** Per table: when each ended shot's quiet window ran out, in order. */
    const shotDueAt = new Map<string, number[]>();
    await new Promise((r) => setTimeout(r, 500)); // retained states in, boards' hellos through

    // The hits of one shot cycle: the cycle's frames minus the board's own status frames.
    const cycleMs = MOTION_MS + REST_MS;
    const statusPerCycle = cycleMs / VIBRATION_EVERY_MS + cycleMs / 250;
    const hitsPerShot = Math.max(1, Math.round((framesPerTable * cycleMs) / 1000 - statusPerCycle));
    const hitEveryMs = MOTION_MS / hitsPerShot;

    let hits = 0;
    let frames = 0;
    let shots = 0;
    started = performance.now();
    // The first cycle warms up (JIT, caches, the SQLite page cache): a hub runs for hours,
    // its steady state is what is measured. Everything counted is sent after it.
    measureFrom = monotonicMs() + WARMUP_MS;
    const inWindow = () => monotonicMs() >= measureFrom;
    const rssSamples: number[] = [];
    let cpuFrom: { ticks: number; at: number } | null = null;
    let metricsAtStart: Promise<string> | null = null;
    const sampler = setInterval(() => {
      if (!inWindow()) return;
      if (cameras) metricsAtStart ??= fetch(metricsUrl).then((r) => r.text());
      rssSamples.push(procStatusMb(child.pid!, 'VmRSS'));
      cpuFrom ??= { ticks: cpuTicks(child.pid!), at: monotonicMs() };
    }, 200);
    // Each board on its own timer, sending each frame at its own time (as 16 independent
    // boards would), not in steps shared by all tables.
    let running = true;
    const timers = new Set<NodeJS.Timeout>();
    const random = seededRandom(20261130);
    boards.forEach((b) => {
      // Tables are not in step: each starts at its own random point of the cycle (a fixed
      // seed: every run plays the same), so their frames interleave as independent boards' do.
      const phase = random() * cycleMs;
      let cycle = Math.floor(phase / cycleMs);
      let nextVibration = phase;
      let nextHit = Math.ceil((phase % cycleMs) / hitEveryMs); // joining mid-shot: no backlog of hits
      let inShot = false;
      let lastActiveAt = 0;
      const queue: number[] = [];
      shotDueAt.set(b.id, queue);
      let shotsInMatch = 0;
      const step = () => {
        const t = performance.now() - started + phase;
        const c = Math.floor(t / cycleMs);
        if (c !== cycle) {
          cycle = c;
          nextHit = 0;
          // A new shot begins; the last one ended long ago. The venue starts a new match now
          // and then, and this shot is the new match's first.
          if (++shotsInMatch > SHOTS_PER_MATCH) {
            shotsInMatch = 1;
            const start = { transaction: `${b.id}-${c}`, table: b.id, variant: 'three-cushion', players: ['Ana', 'Ben'], target: 1000 };
            void venue.publishAsync('billiards/request/match/start', JSON.stringify(start), { qos: 1 });
          }
        }
        const inCycle = t - c * cycleMs;
        const moving = inCycle < MOTION_MS;
        if (moving) inShot = true;
        else if (inShot) {
          // The balls came to rest: the hub may end the shot once its quiet window has passed.
          inShot = false;
          queue.push(lastActiveAt + QUIET_WINDOW_MS);
          if (lastActiveAt + QUIET_WINDOW_MS >= measureFrom) shots += 1;
        }
        while (nextVibration <= t) {
          b.board.vibration(moving ? 90 : 0);
          if (moving) lastActiveAt = monotonicMs();
          if (inWindow()) frames += 1;
          nextVibration += VIBRATION_EVERY_MS;
        }
        while (moving && nextHit < hitsPerShot && nextHit * hitEveryMs <= inCycle) {
          // Rail hits only: with no ball contact only the cue ball moved, so the sensors decide
          // every shot (a miss) and no prompt stops the table's scoring.
          const now = monotonicMs();
          hitSentAt.set(`${b.id}:${b.board.impact(nextHit % 4, 120)}`, now);
          lastActiveAt = now;
          if (now >= measureFrom) (hits += 1), (frames += 1);
          nextHit += 1;
        }
        if (!running) return;
        const cycleStart = c * cycleMs;
        const nextHitAt = moving && nextHit < hitsPerShot ? cycleStart + nextHit * hitEveryMs : Infinity;
        const motionEnds = moving ? cycleStart + MOTION_MS : Infinity;
        const next = Math.min(nextVibration, nextHitAt, motionEnds, cycleStart + cycleMs);
        const timer = setTimeout(() => (timers.delete(timer), step()), Math.max(0, next - t));
        timers.add(timer);
      };
      step();
    });
    await new Promise((r) => setTimeout(r, WARMUP_MS + seconds * 1000));
    running = false;
    timers.forEach((t) => clearTimeout(t));
    const elapsed = (monotonicMs() - measureFrom) / 1000;
    const cpu = cpuFrom as { ticks: number; at: number } | null;
    const cpuPercent = cpu ? Math.round(((cpuTicks(child.pid!) - cpu.ticks) / CLOCK_TICKS / ((monotonicMs() - cpu.at) / 1000)) * 100) : NaN;
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS + 700)); // the last shots end and arrive
    clearInterval(sampler);
    const hwmMb = procStatusMb(child.pid!, 'VmHWM');
    const scraped = await scrapeMetrics(metricsUrl);
    const camera = cameras && metricsAtStart ? cameraFigure(await metricsAtStart, await (await fetch(metricsUrl)).text()) : undefined;
    frames += Math.round(elapsed * 4 * tables); // heartbeats

    const report = new Promise<{ hits: [string, number, number][]; states: [string, number, number][] }>((resolve) => subscriber.once('message', resolve as never));
    subscriber.send('report');
    const received = await report;
    const eventLatencies: number[] = [];
    for (const [table, boardUs, at] of received.hits) {
      const sent = hitSentAt.get(`${table}:${boardUs}`);
      if (sent !== undefined && sent >= measureFrom) eventLatencies.push(at - sent);
    }
    const shotLatencies: number[] = [];
    const shotCount = new Map<string, number>();
    for (const [table, count, at] of received.states) {
      // A new match's state (shot count back to 0) is no shot; its first shot is.
      const before = shotCount.get(table);
      shotCount.set(table, count);
      if (before === undefined || count <= before) continue;
      const due = shotDueAt.get(table)?.shift();
      if (due !== undefined && due >= measureFrom) shotLatencies.push(at - due);
    }
    return {
      rate: framesPerTable,
      seconds,
      hits,
      hitsReceived: eventLatencies.length,
      framesPerSecond: Math.round(frames / elapsed),
      eventP50Ms: round2(quantile(eventLatencies, 0.5)),
      eventP99Ms: round2(quantile(eventLatencies, 0.99)),
      shots,
      shotsScored: shotLatencies.length,
      shotP50Ms: round2(quantile(shotLatencies, 0.5)),
      shotP99Ms: round2(quantile(shotLatencies, 0.99)),
      rssMb: Math.round(Math.max(...rssSamples)),
      hwmMb: Math.round(hwmMb),
      cpuPercent,
      ...scraped,
      ...(camera ? { camera } : {}),
    };
  } finally {
    await venue.endAsync(true).catch(() => undefined);
    subscriber.kill();
    child.kill('SIGTERM');
    await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    boards.forEach((b) => b.close());
    rmSync(dataDir, { recursive: true, force: true });
  }
}
