import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { chromium, type Browser } from 'playwright-core';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { seededRandom } from '../../hub/rules/random.ts';
import { VirtualBoard } from '../../hardware/simulator/virtual-board.ts';
import { startNodeFlags } from '../support/build.ts';
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
const PIN = process.env.BENCH_PIN === '1';
/** With BENCH_PIN=1: this process (every thread) on CPU 1; the subscriber and browsers it starts inherit it. */
export function pinBench(): void {
  if (!PIN) return;
  const r = spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`BENCH_PIN=1 needs taskset (util-linux) and two CPUs: ${r.stderr || r.error}`);
}
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
  /**
   * The hub's board-time mapping against the truth: a hit's hub time minus when it was sent
   * (on one clock, ±1 ms), median. Shot latency counts from the hub's
   * own quiet window, which starts at that mapped time (so an error here is not shot latency).
   */
  boardClockP50Ms: number;
  /**
   * Where an event's time goes: from when the board sent it to the hub's intake (its `at`, the
   * hub's wall clock to the millisecond: the serial line, the socket and the hub's turn to read
   * it) and from there to the subscriber (store, publish, broker, subscriber), each's p99; and of
   * the slowest 1 % of events, the median of each part (which of the two the tail is).
   */
  toIntakeP99Ms: number;
  afterIntakeP99Ms: number;
  slowestToIntakeMs: number;
  slowestAfterIntakeMs: number;
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

/** An event's latency in two parts (SegmentFigure's toIntake… and afterIntake… fields). */
function splitOf(parts: readonly [number, number][]): Pick<SegmentFigure, 'toIntakeP99Ms' | 'afterIntakeP99Ms' | 'slowestToIntakeMs' | 'slowestAfterIntakeMs'> {
  const p99 = quantile(parts.map((p) => p[0]), 0.99);
  const slowest = parts.filter((p) => p[0] >= p99);
  return {
    toIntakeP99Ms: round2(quantile(parts.map((p) => p[1]), 0.99)),
    afterIntakeP99Ms: round2(quantile(parts.map((p) => p[0] - p[1]), 0.99)),
    slowestToIntakeMs: round2(quantile(slowest.map((p) => p[1]), 0.5)),
    slowestAfterIntakeMs: round2(quantile(slowest.map((p) => p[0] - p[1]), 0.5)),
  };
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
  /** Seconds between the cameras' starting points in their file (`fileStartSeconds`: camera k starts at k × this); 0: all in step. */
  staggerSeconds?: number;
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

/** Reads the hub's memory gauges, shed counts and event loop delay from its /metrics. */
async function scrapeMetrics(url: string): Promise<{ heapMb: number; externalMb: number; shed: Record<string, number>; loopP99Ms: number; loopMaxMs: number }> {
  // A hub far behind may not answer in time: its figures are unknown then, not a failed bench.
  const text = await fetch(url, { signal: AbortSignal.timeout(10_000) }).then((r) => r.text()).catch(() => '');
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  const shed = Object.fromEntries([...text.matchAll(/^billiards_shed_total\{kind="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
  // The event loop's delay since the previous scrape (the hub resets it on each).
  const loop = (name: string) => round2(value(`nodejs_eventloop_lag_${name}_seconds`) * 1000);
  return { heapMb: round2(value('nodejs_heap_size_used_bytes') / 2 ** 20), externalMb: round2(value('nodejs_external_memory_bytes') / 2 ** 20), shed, loopP99Ms: loop('p99'), loopMaxMs: loop('max') };
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

  /** The board time the last frame was stamped with. */
  get lastBoardUs(): number {
    return this.lastUs;
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


function startHub(configPath: string, dataDir: string): Promise<{ child: ChildProcess; mqttUrl: string; metricsUrl: string; webUrl: string }> {
  // The launcher the systemd unit runs (app/launch.cjs: the bundled build, `npm start` without
  // its build check). BENCH_HUB_MAIN: another checkout's launcher, or an older build's
  // dist/app/main.js (a worktree of an older commit, say), for A/B comparisons.
  const main = process.env.BENCH_HUB_MAIN ?? join(REPO_ROOT, 'app/launch.cjs');
  if (!existsSync(main)) throw new Error(`the compiled hub is missing (${main}): run \`npm run build\` first (npm run bench does)`);
  // The node flags of `npm start`, and BENCH_HUB_NODE_ARGS for more ("--cpu-prof", say).
  const nodeArgs = [...startNodeFlags(), ...(process.env.BENCH_HUB_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  // BENCH_PIN=1: the hub alone on CPU 0 (all its threads), this process and what it starts on
  // CPU 1 (pinBench), so that the latency is the hub's and not the load generator's turn.
  const [command, args] = PIN ? ['taskset', ['-c', '0', process.execPath, ...nodeArgs, main, 'start']] : [process.execPath, [...nodeArgs, main, 'start']];
  const child = spawn(command as string, args as string[], {
    cwd: REPO_ROOT,
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
        resolve({ child, mqttUrl: m[1]!, metricsUrl: metrics[1]!, webUrl: metrics[1]!.replace(/\/metrics$/, '') });
      }
    });
    child.once('exit', (code) => reject(new Error(`the hub exited (${code}): ${out}`)));
  });
}

/** One stretch of a run: every table at `rate` frames per second for `seconds`. */
export interface Segment {
  label: string;
  rate: number;
  seconds: number;
}

export interface SegmentFigure extends HubFigure {
  label: string;
  /** Hits received by the end of the segment plus 1 s (the rest came later, or never). */
  hitsOnTime: number;
  /** Of the hub's main thread's time in the segment, the share it waited for a CPU (/proc/<pid>/schedstat): the machine's, not the hub's, doing. */
  runQueueWaitPercent: number;
  /** The machine's 1-minute load average at the end of the segment. */
  loadAverage: number;
  /** Live pages (a Chromium page per 8 tables, each on one table's SSE stream): rail hits sent on their tables / seen on the page, and the latency from the board to the page. */
  pageHits: number;
  pageHitsReceived: number;
  pageP50Ms: number;
  pageP99Ms: number;
  /**
   * The hub's CPU time per frame over the whole run (all segments and the drain after them,
   * µs): its cost of a frame whatever the machine's load, and so the rate one free core
   * would hold (1e6 / this) — a derived figure, not a measured rate.
   */
  cpuUsPerFrame: number;
  /** Of it, the hub's main thread alone (/proc/<pid>/schedstat): the one thread every frame passes through (the store's writer, the checkpointer and the collector's helpers run beside it). */
  mainThreadUsPerFrame: number;
  /** The hub's event loop delay over the segment (its /metrics, scraped at the segment's ends), p99 and longest, ms: how long its own turns held events up. */
  loopP99Ms: number;
  loopMaxMs: number;
  /** The bench subscriber's own event loop delay over the whole run, p99 and longest, ms: a receipt it stamped late counts as the hub's latency. */
  subscriberLoopP99Ms: number;
  subscriberLoopMaxMs: number;
  /** After the segment before it (a flood): seconds from this segment's start until the last hit later than RECOVERED_MS arrived (0: none was late; Infinity: some never arrived). */
  recoveryS: number;
}

/** A state may arrive this much before the bench's reckoning of its shot's window end (the hub-clock estimate's error) and still be paired with that shot. */
const SHOT_PAIRING_SLACK_MS = 20;

/** A hit's latency at most this is back to normal (the flood goal's p99). */
export const RECOVERED_MS = 50;
/** After the last segment: how long the bench waits for what the hub still owes before counting it lost. */
const DRAIN_MS = Number(process.env.BENCH_DRAIN_MS ?? 15_000);
const CHROMIUM = '/usr/bin/chromium';
const TABLES_PER_PAGE = 8;

/** Nanoseconds the process's main thread ran and waited for a CPU so far (/proc/<pid>/schedstat). */
function schedstat(pid: number): { runNs: number; waitNs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  return { runNs: run!, waitNs: wait! };
}

/** A Chromium page per 8 tables, each following its first table's scoreboard stream (`/events/<t>?view=scoreboard`) and stamping every rail hit it shows. */
async function openPages(browser: Browser, webUrl: string, tables: string[]): Promise<{ table: string; collect: () => Promise<[number, number][]> }[]> {
  const pages = [];
  for (let i = 0; i < tables.length; i += TABLES_PER_PAGE) {
    const table = tables[i]!;
    // A context each: its own connection pool, as separate screens would have.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${webUrl}/healthz`);
    await page.evaluate((t) => {
      const w = window as unknown as { hits: [number, number][] };
      w.hits = [];
      const stream = new EventSource(`/events/${t}?view=scoreboard`);
      stream.addEventListener('table-event', (e) => {
        const m = JSON.parse((e as MessageEvent).data) as { type: string; sensor?: string; boardUs?: number };
        if (m.type === 'sensor' && m.sensor === 'rail-hit') w.hits.push([m.boardUs!, performance.timeOrigin + performance.now()]);
      });
      return new Promise<void>((resolve) => stream.addEventListener('hello', () => resolve()));
    }, table);
    pages.push({ table, collect: () => page.evaluate(() => (window as unknown as { hits: [number, number][] }).hits) });
  }
  return pages;
}

/**
 * Runs `tables` tables through `segments` (each table at the segment's rate, heartbeats and
 * vibration included) on one hub, and measures each segment from outside. With `pages`, a
 * Chromium page per 8 tables follows the live view over SSE throughout.
 */
export async function benchVenue(options: { tables: number; segments: Segment[]; pages?: boolean; cameras?: BenchCameras }): Promise<SegmentFigure[]> {
  const { tables, segments, cameras } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hub-'));
  const boards = await serveBoards(tables);
  const configPath = join(dataDir, 'hub.json');
  // BENCH_GROUP_COMMIT_MS: the store's group commit window (config store.groupCommitMs);
  // BENCH_WRITER_THREAD=0 / 1: its group commits on the hub thread or, in a flood, a thread of their own (store.writerThread).
  const storeConfig = {
    ...(process.env.BENCH_GROUP_COMMIT_MS ? { groupCommitMs: Number(process.env.BENCH_GROUP_COMMIT_MS) } : {}),
    ...(process.env.BENCH_WRITER_THREAD ? { writerThread: process.env.BENCH_WRITER_THREAD !== '0' } : {}),
  };
  writeFileSync(
    configPath,
    JSON.stringify({
      hub: { id: 'bench' },
      venue: { username: 'bench', passwordHash: hashPasswordSync(VENUE_PASSWORD) },
      ...(Object.keys(storeConfig).length > 0 ? { store: storeConfig } : {}),
      tables: boards.map((b, i) => ({
        id: b.id,
        source: { type: 'tcp', host: '127.0.0.1', port: b.port },
        scoring: 'sensors',
        quietWindowMs: QUIET_WINDOW_MS,
        // No refractory gaps in the board's detector: the load is what this bench sets.
        defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 1000 },
        ...(cameras && i < cameras.tables ? { camera: { ...cameras.camera, ...(cameras.staggerSeconds ? { fileStartSeconds: i * cameras.staggerSeconds } : {}) } } : {}),
      })),
    }),
  );
  const { child, mqttUrl, metricsUrl, webUrl } = await startHub(configPath, dataDir);
  const subscriber = fork(join(REPO_ROOT, 'tests/bench/subscriber.mjs'), [mqttUrl], { execArgv: [] });
  const venue = await mqtt.connectAsync(mqttUrl, { reconnectPeriod: 0, username: 'bench', password: VENUE_PASSWORD });
  let browser: Browser | null = null;
  const ask = <T>(what: string) =>
    new Promise<T>((resolve) => {
      subscriber.once('message', resolve as never);
      subscriber.send(what);
    });
  try {
    await new Promise((resolve, reject) => (subscriber.once('message', resolve), subscriber.once('exit', () => reject(new Error('the subscriber exited')))));
    const deadline = Date.now() + 10_000;
    while (!boards.every((b) => b.connected)) {
      if (Date.now() > deadline) throw new Error('not every table connected to its board');
      await new Promise((r) => setTimeout(r, 20));
    }
    const pages = options.pages
      ? await openPages((browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] })), webUrl, boards.map((b) => b.id))
      : [];
    await new Promise((r) => setTimeout(r, 500)); // retained states in, boards' hellos through

    const cycleMs = MOTION_MS + REST_MS;
    const statusPerCycle = cycleMs / VIBRATION_EVERY_MS + cycleMs / 250;
    // The hits of one shot cycle at a rate: the cycle's frames minus the board's own status frames.
    const hitsPerShotAt = (rate: number) => Math.max(1, Math.round((rate * cycleMs) / 1000 - statusPerCycle));

    const started = performance.now();
    // The first cycle warms up (JIT, caches, the SQLite page cache) at the first segment's
    // rate: a hub runs for hours, its steady state is what is measured.
    const measureFrom = monotonicMs() + WARMUP_MS;
    const segStart = segments.map((_, i) => measureFrom + segments.slice(0, i).reduce((a, s) => a + s.seconds * 1000, 0));
    const endAt = measureFrom + segments.reduce((a, s) => a + s.seconds * 1000, 0);
    /** The segment a moment (monotonic ms) falls in: -1 for the warm-up. */
    const segmentAt = (t: number) => {
      if (t < measureFrom) return -1;
      for (let i = segments.length - 1; i >= 0; i--) if (t >= segStart[i]!) return i;
      return -1;
    };
    const rateAt = (t: number) => segments[Math.max(0, segmentAt(t))]!.rate;

    let allHits = 0; // the warm-up's too: the subscriber counts every hit
    const hitIndex = new Map<string, number>();
    const hitSent: { mono: number; wall: number; seg: number; table: string }[] = [];
    const frames = segments.map(() => 0);
    const shotsEnded = segments.map(() => 0);
    /** Per table, each shot's end as the bench played it: when its last active frame was sent, and that frame's board time. */
    const shotDueAt = new Map<string, { mono: number; boardUs: number }[]>();
    const samples: { at: number; rss: number; ticks: number; runNs: number; waitNs: number }[] = [];
    const sample = () => samples.push({ at: monotonicMs(), rss: procStatusMb(child.pid!, 'VmRSS'), ticks: cpuTicks(child.pid!), ...schedstat(child.pid!) });
    const sampler = setInterval(sample, 200);
    // With cameras: /metrics at the end of the warm-up, to take their figures over the measured window.
    const cameraMetricsAtStart = cameras ? new Promise<string>((resolve) => setTimeout(() => resolve(fetch(metricsUrl).then((r) => r.text())), Math.max(0, measureFrom - monotonicMs()))) : null;
    // /metrics at each segment's start and at the end (what was shed, the loop delay); the load average at each end.
    const scrapesAt: ReturnType<typeof scrapeMetrics>[] = [];
    const loadAt: number[] = [];
    const boundaryTimers = segments.map((_, i) => setTimeout(() => scrapesAt.push(scrapeMetrics(metricsUrl)), segStart[i]! - monotonicMs()));

    let running = true;
    const timers = new Set<NodeJS.Timeout>();
    const random = seededRandom(20261130);
    boards.forEach((b) => {
      // Tables are not in step: each starts at its own random point of the cycle (a fixed
      // seed: every run plays the same), so their frames interleave as independent boards' do.
      const phase = random() * cycleMs;
      let cycle = Math.floor(phase / cycleMs);
      let nextVibration = phase;
      let hitsPerShot = hitsPerShotAt(segments[0]!.rate);
      let hitEveryMs = MOTION_MS / hitsPerShot;
      let nextHit = Math.ceil((phase % cycleMs) / hitEveryMs); // joining mid-shot: no backlog of hits
      let inShot = false;
      let lastActiveAt = 0;
      let lastActiveUs = 0;
      const queue: { mono: number; boardUs: number }[] = [];
      shotDueAt.set(b.id, queue);
      let shotsInMatch = 0;
      const step = () => {
        const t = performance.now() - started + phase;
        const c = Math.floor(t / cycleMs);
        if (c !== cycle) {
          cycle = c;
          nextHit = 0;
          // A new shot at the rate of the moment.
          hitsPerShot = hitsPerShotAt(rateAt(monotonicMs()));
          hitEveryMs = MOTION_MS / hitsPerShot;
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
          const due = lastActiveAt + QUIET_WINDOW_MS;
          queue.push({ mono: due, boardUs: lastActiveUs });
          const seg = segmentAt(due);
          if (seg >= 0 && due < endAt) shotsEnded[seg]! += 1;
        }
        while (nextVibration <= t) {
          b.board.vibration(moving ? 90 : 0);
          const now = monotonicMs();
          if (moving) (lastActiveAt = now), (lastActiveUs = b.lastBoardUs);
          const seg = segmentAt(now);
          if (seg >= 0 && now < endAt) frames[seg]! += 1;
          nextVibration += VIBRATION_EVERY_MS;
        }
        while (moving && nextHit < hitsPerShot && nextHit * hitEveryMs <= inCycle) {
          // Rail hits only: with no ball contact only the cue ball moved, so the sensors decide
          // every shot (a miss) and no prompt stops the table's scoring.
          const now = monotonicMs();
          const boardUs = b.board.impact(nextHit % 4, 120);
          allHits += 1;
          const seg = segmentAt(now);
          if (seg >= 0 && now < endAt) {
            hitIndex.set(`${b.id}:${boardUs}`, hitSent.length);
            hitSent.push({ mono: now, wall: performance.timeOrigin + performance.now(), seg, table: b.id });
            frames[seg]! += 1;
          }
          lastActiveAt = now;
          lastActiveUs = boardUs;
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
    for (let i = 0; i < segments.length; i++) {
      await new Promise((r) => setTimeout(r, Math.max(0, (i + 1 < segments.length ? segStart[i + 1]! : endAt) - monotonicMs())));
      loadAt.push(loadavg()[0]!);
    }
    running = false;
    timers.forEach((t) => clearTimeout(t));
    boundaryTimers.forEach((t) => clearTimeout(t));
    scrapesAt.push(scrapeMetrics(metricsUrl));
    sample();
    // What the hub still owes: wait until every hit arrived (or DRAIN_MS), then the last shots end.
    const drainUntil = monotonicMs() + DRAIN_MS;
    while (monotonicMs() < drainUntil && (await ask<number>('count')) < allHits) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS + 700));
    clearInterval(sampler);
    sample();
    const allFrames = frames.reduce((a, f) => a + f, 0) + ((endAt - measureFrom) / 1000) * 4 * tables;
    const fromSample = samples.find((x) => x.at >= measureFrom - 100) ?? samples[0]!;
    // Only when the hub caught up: else the frames it still owed would be counted as done.
    const caughtUp = (await ask<number>('count')) >= allHits;
    const cpuUsPerFrame = caughtUp ? round2(((samples[samples.length - 1]!.ticks - fromSample.ticks) / CLOCK_TICKS / allFrames) * 1e6) : NaN;
    const mainThreadUsPerFrame = caughtUp ? round2((samples[samples.length - 1]!.runNs - fromSample.runNs) / 1000 / allFrames) : NaN;
    const hwmMb = procStatusMb(child.pid!, 'VmHWM');
    const scraped = await scrapeMetrics(metricsUrl);
    const camera = cameraMetricsAtStart ? cameraFigure(await cameraMetricsAtStart, await (await fetch(metricsUrl)).text()) : undefined;
    const boundaryScrapes = await Promise.all(scrapesAt);
    const onPages = await Promise.all(pages.map(async (p) => ({ table: p.table, hits: await p.collect() })));

    const received = await ask<{ hits: [string, number, number, number, number][]; states: [string, number, number][]; loopP99Ms: number; loopMaxMs: number }>('report');
    const eventLatency = segments.map(() => [] as number[]);
    const onTime = segments.map(() => 0);
    const arrivedAt = new Map<number, number>(); // hit index → latency
    // The hub's clock (its performance.timeOrigin + performance.now(), a wall clock that never
    // steps) on this process's monotonic one: the same wall clock read here (±1 ms, as the
    // pages' latency). Not from the hits: the hub's board-time mapping moves over a run.
    const hubToMono = monotonicMs() - (performance.timeOrigin + performance.now());
    /** Per table, the hub's reading of each hit's board time: [boardUs, hubTime], by board time. */
    const hubTimes = new Map<string, [number, number][]>();
    for (const [table, boardUs, , hubTime] of received.hits) {
      let list = hubTimes.get(table);
      if (!list) hubTimes.set(table, (list = []));
      list.push([boardUs, hubTime]);
    }
    for (const list of hubTimes.values()) list.sort((a, b) => a[0] - b[0]);
    /**
     * When the hub's quiet window for a shot ran out, on this process's clock: the hub maps
     * board time to its own (PROTOCOL.md: a fitted offset and drift), and that mapping, not
     * this process's send time, is where its window starts. Read from the shot's last hit
     * as the hub published it, moved on by the board time to the shot's last active frame.
     */
    const hubDue = (table: string, shot: { mono: number; boardUs: number }): number => {
      const list = hubTimes.get(table) ?? [];
      let lo = 0;
      let hi = list.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid]![0] <= shot.boardUs) (found = mid), (lo = mid + 1);
        else hi = mid - 1;
      }
      if (found < 0) return shot.mono;
      const [hitUs, hitHubTime] = list[found]!;
      return hitHubTime + (shot.boardUs - hitUs) / 1000 + QUIET_WINDOW_MS + hubToMono;
    };
    const clockError = segments.map(() => [] as number[]);
    /** Per segment, each event's [total, to the hub's intake] (ms). */
    const parts = segments.map(() => [] as [number, number][]);
    for (const [table, boardUs, at, hubTime, intakeWall] of received.hits) {
      const i = hitIndex.get(`${table}:${boardUs}`);
      if (i === undefined) continue;
      const hit = hitSent[i]!;
      eventLatency[hit.seg]!.push(at - hit.mono);
      parts[hit.seg]!.push([at - hit.mono, intakeWall - hit.wall]);
      // How far the hub's board-time mapping placed the hit from when it was sent.
      clockError[hit.seg]!.push(hubTime + hubToMono - hit.mono);
      arrivedAt.set(i, at - hit.mono);
      const segEnd = hit.seg + 1 < segments.length ? segStart[hit.seg + 1]! : endAt;
      if (at <= segEnd + 1000) onTime[hit.seg]! += 1;
    }
    const shotLatency = segments.map(() => [] as number[]);
    const shotCount = new Map<string, number>();
    // Each table's shots in the order played, with when the hub's quiet window ran out.
    const dues = new Map([...shotDueAt].map(([table, shots]) => [table, shots.map((shot) => ({ shot, at: hubDue(table, shot), used: false }))]));
    const next = new Map<string, number>();
    for (const [table, count, at] of received.states) {
      // A new match's state (shot count back to 0) is no shot; its first shot is.
      const before = shotCount.get(table);
      shotCount.set(table, count);
      if (before === undefined || count <= before) continue;
      // The shot a state is for: the last one whose window had run out when it arrived. Not
      // the next in line: on a starved machine the load generator can pause mid-shot (the
      // hub then cuts two shots) or the hub late (it then cuts one), and a count would pair
      // every later state with the wrong shot. A state with no such shot is not counted.
      const list = dues.get(table) ?? [];
      let i = next.get(table) ?? -1;
      while (i + 1 < list.length && list[i + 1]!.at <= at + SHOT_PAIRING_SLACK_MS) i += 1;
      next.set(table, i);
      const due = list[i];
      if (!due || due.used) continue;
      due.used = true;
      const seg = segmentAt(due.shot.mono);
      if (seg >= 0 && due.shot.mono < endAt) shotLatency[seg]!.push(at - due.at);
    }
    const pageHits = segments.map(() => 0);
    const pageLatency = segments.map(() => [] as number[]);
    const followed = new Set(onPages.map((p) => p.table));
    for (const hit of hitSent) if (followed.has(hit.table)) pageHits[hit.seg]! += 1;
    for (const page of onPages) {
      for (const [boardUs, wall] of page.hits) {
        const i = hitIndex.get(`${page.table}:${boardUs}`);
        if (i !== undefined) pageLatency[hitSent[i]!.seg]!.push(wall - hitSent[i]!.wall);
      }
    }
    return segments.map((segment, s) => {
      const from = segStart[s]!;
      const to = s + 1 < segments.length ? segStart[s + 1]! : endAt;
      const inSeg = samples.filter((x) => x.at >= from - 100 && x.at <= to + 100);
      const first = inSeg[0];
      const last = inSeg[inSeg.length - 1];
      const spanS = first && last ? (last.at - first.at) / 1000 : 0;
      let hits = 0;
      let recoveryS = 0;
      for (let i = 0; i < hitSent.length; i++) {
        const h = hitSent[i]!;
        if (h.seg !== s) continue;
        hits += 1;
        const latency = arrivedAt.get(i);
        if (latency === undefined) recoveryS = Infinity;
        else if (latency > RECOVERED_MS) recoveryS = Math.max(recoveryS, (h.mono + latency - from) / 1000);
      }
      const before = boundaryScrapes[s]?.shed ?? {};
      const after = boundaryScrapes[s + 1]?.shed ?? scraped.shed;
      const shed = Object.fromEntries(Object.keys(after).map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]));
      return {
        label: segment.label,
        rate: segment.rate,
        seconds: segment.seconds,
        hits,
        hitsReceived: eventLatency[s]!.length,
        hitsOnTime: onTime[s]!,
        framesPerSecond: Math.round((frames[s]! + segment.seconds * 4 * tables) / segment.seconds), // + heartbeats
        eventP50Ms: round2(quantile(eventLatency[s]!, 0.5)),
        eventP99Ms: round2(quantile(eventLatency[s]!, 0.99)),
        shots: shotsEnded[s]!,
        shotsScored: shotLatency[s]!.length,
        shotP50Ms: round2(quantile(shotLatency[s]!, 0.5)),
        shotP99Ms: round2(quantile(shotLatency[s]!, 0.99)),
        boardClockP50Ms: round2(quantile(clockError[s]!, 0.5)),
        ...splitOf(parts[s]!),
        rssMb: Math.round(Math.max(...inSeg.map((x) => x.rss))),
        hwmMb: Math.round(hwmMb),
        cpuPercent: first && last && spanS > 0 ? Math.round(((last.ticks - first.ticks) / CLOCK_TICKS / spanS) * 100) : NaN,
        runQueueWaitPercent: first && last && last.runNs + last.waitNs > first.runNs + first.waitNs ? Math.round(((last.waitNs - first.waitNs) / (last.at - first.at) / 1e6) * 100) : NaN,
        loadAverage: round2(loadAt[s] ?? NaN),
        pageHits: pageHits[s]!,
        pageHitsReceived: pageLatency[s]!.length,
        pageP50Ms: round2(quantile(pageLatency[s]!, 0.5)),
        pageP99Ms: round2(quantile(pageLatency[s]!, 0.99)),
        cpuUsPerFrame,
        mainThreadUsPerFrame,
        recoveryS: Number.isFinite(recoveryS) ? round2(recoveryS) : Infinity,
        heapMb: scraped.heapMb,
        externalMb: scraped.externalMb,
        shed,
        loopP99Ms: boundaryScrapes[s + 1]?.loopP99Ms ?? NaN,
        loopMaxMs: boundaryScrapes[s + 1]?.loopMaxMs ?? NaN,
        subscriberLoopP99Ms: round2(received.loopP99Ms),
        subscriberLoopMaxMs: round2(received.loopMaxMs),
        ...(camera ? { camera } : {}),
      };
    });
  } finally {
    await browser?.close().catch(() => undefined);
    await venue.endAsync(true).catch(() => undefined);
    subscriber.kill();
    child.kill('SIGTERM');
    await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    boards.forEach((b) => b.close());
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs `tables` tables at `framesPerTable` frames per second each (heartbeats and vibration
 * included) for `seconds`, and measures the hub from outside (`npm run bench`).
 */
export async function benchHub(framesPerTable: number, seconds: number, tables = TABLES, cameras?: BenchCameras): Promise<HubFigure> {
  const [figure] = await benchVenue({ tables, segments: [{ label: `${framesPerTable}/s`, rate: framesPerTable, seconds }], ...(cameras ? { cameras } : {}) });
  return figure!;
}
