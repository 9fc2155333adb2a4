import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Bridge, type BridgeEvent } from '../../firmware-bridge/bridge.ts';
import { VirtualTransport } from '../../firmware-bridge/transports/virtual.ts';
import { buildHub } from '../support/build.ts';
import { boardFrames, corrupt, fakeBoard, killAll, noise, PASSWORD_HASH, startHub, tempDir, until, writeConfig } from './ops-support.ts';

/**
 * Issue 13, finding 10b: a corrupt frame used to be counted twice (corrupt, and again as
 * the sequence gap it leaves), and every drop was a row in the store (850 rows in 10 s of
 * line noise). Each dropped frame is counted once; drops are stored as counters.
 */

/** N frames with the given ones corrupted and others left out, line noise between them. */
function stream(n: number, corrupted: Set<number>, missing: Set<number>): Buffer[] {
  const frames = boardFrames();
  const chunks = [frames.hello()];
  for (let i = 1; i <= n; i++) {
    const frame = frames.vibration(30 + (i % 50));
    if (missing.has(i)) continue;
    chunks.push(corrupted.has(i) ? corrupt(frame) : frame);
    if (i % 7 === 0) chunks.push(noise(23, i));
  }
  return chunks;
}

const CORRUPTED = new Set([5, 6, 40, 77, 78, 79, 120, 121, 150, 199]);
const MISSING = new Set([30, 31, 100, 160]);

describe('dropped frames are counted once each', () => {
  it.each([
    ['one chunk per frame', 1],
    ['everything in one chunk', Infinity],
    ['chunks of 13 frames', 13],
  ])('the bridge: corrupt frames as corrupt, missing ones as sequence gaps, nothing twice (%s)', async (_name, perChunk) => {
    const transport = new VirtualTransport();
    const bridge = new Bridge({ transport, clock: () => performance.now(), silenceMs: 0 });
    const drops: BridgeEvent[] = [];
    bridge.on('dropped', (e: BridgeEvent) => drops.push(e));
    await bridge.start();
    const chunks = stream(200, CORRUPTED, MISSING);
    for (let i = 0; i < chunks.length; i += Number.isFinite(perChunk) ? perChunk : chunks.length) transport.toHub(Buffer.concat(chunks.slice(i, i + (Number.isFinite(perChunk) ? perChunk : chunks.length))));
    await bridge.stop();
    const dropped = bridge.stats().dropped;
    expect(dropped.corrupt).toBe(CORRUPTED.size);
    expect(dropped['seq-gap']).toBe(MISSING.size);
    expect(drops.reduce((n, e) => n + (e.type === 'dropped' ? e.count : 0), 0)).toBe(CORRUPTED.size + MISSING.size);
  });
});

describe('line noise on a board behind a serial server, through the real hub process', () => {
  beforeAll(() => buildHub(), 330_000);
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    killAll();
    for (const c of cleanup.splice(0)) await c();
  });
  afterAll(() => killAll());

  it('counts each dropped frame once, and stores the drops as counters, not rows', async () => {
    const board = await fakeBoard();
    cleanup.push(board.close);
    const dir = tempDir('drops');
    const config = writeConfig(dir, { hub: { id: 'club-n' }, venue: { passwordHash: PASSWORD_HASH }, tables: [{ id: 't1', source: { type: 'tcp', host: '127.0.0.1', port: board.port } }] });
    const hub = await startHub({ CONFIG: config, DATA_DIR: dir });
    const socket = await board.connected;
    const chunks = stream(200, CORRUPTED, MISSING);
    for (let i = 0; i < chunks.length; i += 5) {
      socket.write(Buffer.concat(chunks.slice(i, i + 5)));
      await new Promise((r) => setTimeout(r, 2));
    }
    const expected = CORRUPTED.size + MISSING.size;
    const metric = (text: string) => Number(/billiards_frames_dropped_total\{table="t1"\} (\d+)/.exec(text)?.[1] ?? NaN);
    const dropped = async () => metric(await (await fetch(`${hub.webUrl}/metrics`)).text());
    const counted = await until('the drops to be counted', async () => ((await dropped()) >= expected ? dropped() : null));
    expect(counted).toBe(expected);
    // Nothing more comes: not counted a second time under another cause.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await dropped()).toBe(expected);
    expect(await hub.stop()).toBe(0);

    const db = new Database(join(dir, 'hub.sqlite'), { readonly: true });
    try {
      const counters = Object.fromEntries((db.prepare("SELECT source, count FROM drops WHERE table_id = 't1'").all() as { source: string; count: number }[]).map((r) => [r.source, r.count]));
      expect(counters).toEqual({ corrupt: CORRUPTED.size, 'seq-gap': MISSING.size });
      const dropRows = db.prepare(`SELECT COUNT(*) AS n FROM log WHERE body LIKE '%"type":"dropped"%'`).get() as { n: number };
      expect(dropRows.n).toBe(0);
      // The frames that did arrive are in the log, as before.
      const sensorRows = db.prepare(`SELECT COUNT(*) AS n FROM log WHERE kind = 'sensor' AND body LIKE '%"type":"vibration"%'`).get() as { n: number };
      expect(sensorRows.n).toBe(200 - expected);
    } finally {
      db.close();
    }
  }, 90_000);
});
