import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';
import { StatusFrameFilter } from '../../hub/pipeline/status-frames.ts';
import { linkUp, railHit, startTestHub, subscriber, testConfig, type TestHub } from './support.ts';

const vibration = (level: number, at: number): SensorEvent => ({ type: 'vibration', level, boardUs: at * 1000, hubTime: at, seq: 0 });
const heartbeat = (skittleMask: number, at: number): SensorEvent => ({ type: 'heartbeat', loopMaxUs: 200 + (at % 7), skittleMask, driftPpm: 3, boardUs: at * 1000, hubTime: at, seq: 0 });

describe('status frames in the log (store.statusFrames)', () => {
  const changes = () => new StatusFrameFilter({ mode: 'changes', keepAliveMs: 60_000, restVibrationLevel: 12 });

  it("'all' keeps every frame", () => {
    const all = new StatusFrameFilter({ mode: 'all', keepAliveMs: 60_000, restVibrationLevel: 12 });
    expect(Array.from({ length: 50 }, (_, i) => all.keep(vibration(0, i * 100))).every(Boolean)).toBe(true);
  });

  it("'changes': at rest one vibration sample per keep-alive; every sample while the balls move; the first one back at rest", () => {
    const f = changes();
    const kept = (levels: number[], from: number) => levels.map((level, i) => f.keep(vibration(level, from + i * 100)));
    expect(kept([0, 3, 0, 5, 0], 0)).toEqual([true, false, false, false, false]);
    expect(kept([90, 80, 40, 8, 2, 0], 500)).toEqual([true, true, true, true, false, false]);
    // 60 s after the last stored sample at rest, one more.
    expect(f.keep(vibration(0, 1200 + 60_000))).toBe(true);
    expect(f.keep(vibration(0, 1300 + 60_000))).toBe(false);
  });

  it("'changes': a heartbeat when the skittle switches change, once per keep-alive, and afresh after the link comes up", () => {
    const f = changes();
    expect([0, 250, 500].map((at) => f.keep(heartbeat(0, at)))).toEqual([true, false, false]);
    expect(f.keep(heartbeat(0b100, 750))).toBe(true);
    expect(f.keep(heartbeat(0b100, 1000))).toBe(false);
    expect(f.keep(heartbeat(0b100, 750 + 60_000))).toBe(true);
    expect(f.keep({ type: 'link', state: 'up', reason: 'test', hubTime: 70_000 })).toBe(true);
    expect(f.keep(heartbeat(0b100, 70_100))).toBe(true);
  });

  it("property: 'changes' never drops a hit, a click, a skittle or a moving-bed sample, and leaves no gap at rest longer than the keep-alive", () => {
    const frame = fc.oneof(
      fc.record({ type: fc.constant('vibration' as const), level: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 13, max: 255 })) }),
      fc.record({ type: fc.constant('heartbeat' as const), skittleMask: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ type: fc.constant('rail-hit' as const), channel: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ type: fc.constant('skittle' as const), index: fc.integer({ min: 0, max: 4 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(frame, fc.integer({ min: 1, max: 20_000 })), { maxLength: 200 }), (frames) => {
        const f = changes();
        let at = 0;
        let lastRestKept = -Infinity;
        for (const [shape, gap] of frames) {
          at += gap;
          const stamp = { boardUs: at * 1000, hubTime: at, seq: 0 };
          const event: SensorEvent =
            shape.type === 'vibration' ? { ...stamp, type: 'vibration', level: shape.level }
            : shape.type === 'heartbeat' ? { ...stamp, type: 'heartbeat', loopMaxUs: 1, skittleMask: shape.skittleMask, driftPpm: 0 }
            : shape.type === 'rail-hit' ? { ...stamp, type: 'rail-hit', channel: shape.channel, amplitude: 100 }
            : { ...stamp, type: 'skittle', index: shape.index, state: 'down' };
          const kept = f.keep(event);
          if (event.type === 'rail-hit' || event.type === 'skittle' || (event.type === 'vibration' && event.level > 12)) expect(kept).toBe(true);
          if (event.type === 'vibration' && event.level <= 12) {
            if (at - lastRestKept >= 60_000) expect(kept).toBe(true);
            if (kept) lastRestKept = at;
          }
        }
      }),
    );
  });
});

describe("hub with store.statusFrames 'changes'", () => {
  const running: TestHub[] = [];
  afterEach(async () => {
    for (const t of running.splice(0)) await t.hub.stop();
  });

  it('stores and publishes the news only; the segmenter still ends the shot on the quiet bed', async () => {
    const t = await startTestHub({ config: testConfig({ store: { statusFrames: 'changes' } }) });
    running.push(t);
    const sub = await subscriber(t.hub.mqttUrl, ['billiards/tables/t1/events', 'billiards/tables/t1/state']);
    const source = t.sources.get('t1')!;
    source.emit(linkUp(t.clock.t));
    const feed = (event: (at: number) => SensorEvent, gap = 100) => source.emit(event((t.clock.t += gap)));
    for (let i = 0; i < 20; i++) feed((at) => vibration(0, at)); // at rest: 1 of 20
    for (let i = 0; i < 8; i++) feed((at) => heartbeat(0, at), 250); // alive: 1 of 8
    feed((at) => vibration(90, at));
    feed(railHit(0));
    feed((at) => vibration(60, at));
    feed(railHit(1));
    for (let i = 0; i < 10; i++) feed((at) => vibration(0, at)); // back at rest: the first one
    t.clock.t += 2_000;
    t.hub.tables.get('t1')!.tick(t.clock.t);
    await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 1);
    await sub.next('billiards/tables/t1/events', (e) => e.sensor === 'rail-hit' && e.channel === 1);
    const db = new Database(join(t.dataDir, 'hub.sqlite'), { readonly: true });
    const stored = (db.prepare("SELECT body FROM log WHERE kind = 'sensor'").all() as { body: string }[]).map((r) => JSON.parse(r.body) as SensorEvent);
    db.close();
    expect(stored.map((e) => (e.type === 'vibration' ? `v${e.level}` : e.type))).toEqual(['v0', 'heartbeat', 'v90', 'rail-hit', 'v60', 'rail-hit', 'v0']);
    await expect.poll(() => sub.messages.get('billiards/tables/t1/events')!.filter((e: any) => e.sensor === 'vibration').map((e: any) => e.level)).toEqual([0, 90, 60, 0]);
    // 19 + 9 samples at rest, 7 heartbeats.
    expect(t.hub.metrics()).toMatch(/^billiards_status_frames_skipped_total\{table="t1"\} 35$/m);
    // The link drops and comes back: the first status frames after it are stored again.
    source.emit({ type: 'link', state: 'down', reason: 'unplugged', hubTime: (t.clock.t += 100) });
    source.emit(linkUp((t.clock.t += 100)));
    feed((at) => heartbeat(0, at), 250);
    feed((at) => vibration(0, at));
    await expect.poll(() => sub.messages.get('billiards/tables/t1/events')!.filter((e: any) => e.sensor === 'vibration').length).toBe(5);
    await sub.client.endAsync();
  });
});
