import { afterEach, describe, expect, it } from 'vitest';
import type { SensorEvent } from '../../hub/pipeline/sensor-events.ts';
import { shed } from '../../hub/ops/shed.ts';
import { HOLD_ABOVE, InputHold, RESUME_AT } from '../../hub/ops/input-hold.ts';
import { startTestHub, subscriber, testConfig, type TestHub } from './support.ts';

/**
 * Issue 18: under a flood the hub sheds what can be shed (status frames the segmenter has
 * read) and never a hit, a click, a skittle or a shot; it counts what it shed in /metrics
 * and is back to storing and publishing everything once it has caught up.
 */
const running: TestHub[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.hub.stop();
});

const stamp = (at: number) => ({ boardUs: at * 1000, hubTime: at, seq: 0 });
const vibration = (at: number, level: number): SensorEvent => ({ type: 'vibration', level, ...stamp(at) });
const heartbeat = (at: number, skittleMask: number): SensorEvent => ({ type: 'heartbeat', loopMaxUs: 100, skittleMask, driftPpm: 0, ...stamp(at) });
const turn = () => new Promise((r) => setImmediate(r));

describe('overload: shed status frames, never what scores', () => {
  it('keeps every hit, click, skittle and shot through a flood, counts the status frames it shed, and recovers', async () => {
    // No match on the table: every shot the segmenter cuts is published as it is (none waits for a ruling).
    const t = await startTestHub({ config: testConfig({ tables: [{ id: 't1', source: { type: 'simulator' }, quietWindowMs: 500 }] }) });
    running.push(t);
    const sub = await subscriber(t.hub.mqttUrl, ['billiards/tables/t1/events']);
    const source = t.sources.get('t1')!;
    const table = t.hub.tables.get('t1')!;
    const shedBefore = shed.get('status-frame');

    // The flood: three shots' worth of frames in one turn of the event loop (as one big
    // read off a socket gives them), far more than one group commit is meant to hold.
    let hits = 0, clicks = 0, skittles = 0, statusFrames = 0;
    const SHOTS = 3;
    for (let s = 0; s < SHOTS; s += 1) {
      for (let i = 0; i < 2_000; i += 1) {
        t.clock.t += 1;
        source.emit(vibration(t.clock.t, 90));
        statusFrames += 1;
        if (i % 10 === 0) (source.emit(heartbeat(t.clock.t, 0)), (statusFrames += 1));
        if (i % 50 === 0) (source.emit({ type: 'rail-hit', channel: i % 4, amplitude: 120, ...stamp(t.clock.t) }), (hits += 1));
        if (i === 1_000) (source.emit({ type: 'click', amplitude: 90, ...stamp(t.clock.t) }), (clicks += 1));
        if (i === 1_500) (source.emit({ type: 'skittle', index: 0, state: s % 2 === 0 ? 'down' : 'up', ...stamp(t.clock.t) }), (skittles += 1));
      }
      t.clock.t += 2_000; // the quiet window passes: the shot ends
      table.tick(t.clock.t);
    }

    // Where the flood waits is in /metrics: the messages the broker has not delivered yet.
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(t.hub.metrics())?.[1]);
    expect(gauge('billiards_broker_backlog_messages')).toBeGreaterThan(0);

    const events = () => (sub.messages.get('billiards/tables/t1/events') ?? []) as { type: string; sensor?: string }[];
    const count = (sensor: string) => events().filter((e) => e.type === 'sensor' && e.sensor === sensor).length;
    await sub.next('billiards/tables/t1/events', () => count('rail-hit') === hits);
    await sub.next('billiards/tables/t1/events', () => events().filter((e) => e.type === 'shot').length === SHOTS);
    expect(count('rail-hit')).toBe(hits);
    expect(count('click')).toBe(clicks);
    expect(count('skittle')).toBe(skittles);
    expect(events().filter((e) => e.type === 'shot')).toHaveLength(SHOTS);

    const shedDuring = shed.get('status-frame') - shedBefore;
    expect(shedDuring).toBeGreaterThan(statusFrames / 2);
    // What was not shed went out: nothing vanished without being counted.
    expect(count('vibration') + shedDuring).toBeLessThanOrEqual(statusFrames);
    expect(t.hub.metrics()).toMatch(new RegExp(`billiards_shed_total\\{kind="status-frame"\\} ${shed.get('status-frame')}`));

    // After the flood, at the firmware's pace (a frame a turn): everything is stored and published again.
    const vibrationsBefore = count('vibration');
    for (let i = 0; i < 20; i += 1) {
      t.clock.t += 100;
      source.emit(vibration(t.clock.t, 90));
      await turn();
    }
    await sub.next('billiards/tables/t1/events', () => count('vibration') === vibrationsBefore + 20);
    expect(shed.get('status-frame') - shedBefore).toBe(shedDuring);
    expect([gauge('billiards_broker_backlog_messages'), gauge('billiards_store_queued_rows')]).toEqual([0, 0]);
    await sub.client.endAsync();
  });
});

describe("overload: backpressure on the boards' links", () => {
  it('holds every link while the hub is more than HOLD_ABOVE behind, reads them again once it caught up, and loses nothing', async () => {
    const t = await startTestHub({ config: testConfig({ tables: [{ id: 't1', source: { type: 'simulator' }, quietWindowMs: 500 }, { id: 't2', source: { type: 'simulator' } }] }) });
    running.push(t);
    const sub = await subscriber(t.hub.mqttUrl, ['billiards/tables/t1/events']);
    const source = t.sources.get('t1')!;
    // More hits in one turn than the hub may hold behind it: they are never shed, so they queue.
    const HITS = HOLD_ABOVE + 5_000;
    for (let i = 0; i < HITS; i += 1) {
      t.clock.t += 1;
      source.emit({ type: 'rail-hit', channel: i % 4, amplitude: 120, ...stamp(t.clock.t) });
    }
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(t.hub.metrics())?.[1]);
    await expect.poll(() => source.holds, { timeout: 5_000 }).toEqual([true]);
    expect(t.sources.get('t2')!.holds).toEqual([true]);
    expect(gauge('billiards_board_input_held')).toBe(1);
    const hits = () => ((sub.messages.get('billiards/tables/t1/events') ?? []) as { sensor?: string }[]).filter((e) => e.sensor === 'rail-hit').length;
    await expect.poll(hits, { timeout: 30_000 }).toBe(HITS);
    await expect.poll(() => source.holds, { timeout: 5_000 }).toEqual([true, false]);
    expect(t.sources.get('t2')!.holds).toEqual([true, false]);
    expect([gauge('billiards_board_input_held'), gauge('billiards_board_input_holds_total')]).toEqual([0, 1]);
    expect(gauge('billiards_board_input_held_seconds_total')).toBeGreaterThan(0);
    await sub.client.endAsync();
  }, 60_000);
});

describe('InputHold: hysteresis', () => {
  it('holds past HOLD_ABOVE, releases at RESUME_AT, and says so only when that changes', () => {
    const hold = new InputHold();
    expect(hold.update(HOLD_ABOVE, 0)).toBeNull();
    expect(hold.update(HOLD_ABOVE + 1, 10)).toBe(true);
    expect(hold.update(HOLD_ABOVE * 2, 20)).toBeNull();
    expect(hold.update(RESUME_AT + 1, 30)).toBeNull();
    expect(hold.isHeld).toBe(true);
    expect(hold.update(RESUME_AT, 1_510)).toBe(false);
    expect(hold.update(HOLD_ABOVE, 1_600)).toBeNull();
    expect(hold.render(2_000)).toMatch(/^billiards_board_input_held_seconds_total 1\.5$/m);
    expect(hold.render(2_000)).toMatch(/^billiards_board_input_holds_total 1$/m);
  });
});

describe('overload: the event loop delay in /metrics', () => {
  it('shows a turn that held the hub up, and the next scrape counts from the last one', async () => {
    const t = await startTestHub({ config: testConfig({ tables: [{ id: 't1', source: { type: 'simulator' } }] }) });
    running.push(t);
    const lagMax = (text: string) => Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1]);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await sleep(50);
    t.hub.metrics(); // from here (a reset forgets the last tick: the next one starts the count)
    await sleep(30);
    // A turn of 200 ms (a scoring or a collection that long would hold every event behind it).
    const until = performance.now() + 200;
    while (performance.now() < until);
    await sleep(50);
    const first = t.hub.metrics();
    expect(first).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m);
    expect(lagMax(first)).toBeGreaterThanOrEqual(0.15);
    await sleep(50);
    expect(lagMax(t.hub.metrics())).toBeLessThan(0.15);
  });
});
