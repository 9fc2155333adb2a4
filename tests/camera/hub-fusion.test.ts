import { afterEach, describe, expect, it } from 'vitest';
import type { Shot } from '../../hub/rules/events.ts';
import type { TableService } from '../../hub/tables/table-service.ts';
import { click, linkUp, railHit, startTestHub, testConfig, type TestHub } from '../hub/support.ts';

/**
 * `scoring: camera+sensors` in the real hub: the camera's tracker shot and the sensors' shot
 * of one play meet, are fused, and are scored once (docs/camera.md).
 */
const config = (scoring: string) =>
  testConfig({
    tables: [{ id: 't1', source: { type: 'simulator' }, quietWindowMs: 500, scoring, camera: { file: 'unused.y4m', fps: 30, pairWaitMs: 3000 }, defaultMatch: { variant: 'three-cushion', players: ['Ana', 'Ben'], target: 5 } }],
  });

let t: TestHub | null = null;
afterEach(async () => {
  await t?.hub.stop();
  t = null;
});

/** White hits red, three rails, then yellow: a point for Ana. Sensor events at these ms after the strike. */
const PLAY: [number, ReturnType<typeof click>][] = [
  [120, click()],
  [480, railHit(2)],
  [900, railHit(1)],
  [1300, railHit(3)],
  [1710, click()],
];
/** The camera's view: contacts at the next frame (30 fps), `t` from the strike. */
const CAMERA: Shot = {
  events: [
    { kind: 'ball', balls: ['white', 'red'], t: 133 },
    { kind: 'cushion', rail: 'left', ball: 'white', t: 500 },
    { kind: 'cushion', rail: 'foot', ball: 'white', t: 933 },
    { kind: 'cushion', rail: 'right', ball: 'white', t: 1333 },
    { kind: 'ball', balls: ['white', 'yellow'], t: 1733 },
  ],
  positions: { white: [900, 700], yellow: [1000, 720], red: [2000, 300] },
};

function play(hub: TestHub): number {
  const table = hub.hub.tables.get('t1')!;
  hub.sources.get('t1')!.emit(linkUp(hub.clock.t));
  table.strike();
  const start = hub.clock.t;
  for (const [at, make] of PLAY) {
    hub.clock.t = start + at;
    hub.sources.get('t1')!.emit(make(hub.clock.t));
  }
  return start;
}

/** A camera+sensors test hub whose table t1 has its board's link up. */
async function linkedTable(): Promise<[TestHub, TableService]> {
  const hub = (t = await startTestHub({ config: config('camera+sensors') }));
  hub.sources.get('t1')!.emit(linkUp(hub.clock.t));
  return [hub, hub.hub.tables.get('t1')!];
}

describe('camera+sensors scoring in the hub (issue 16)', () => {
  it('the fused shot is scored with no prompt, whichever reading comes first', async () => {
    t = await startTestHub({ config: config('camera+sensors') });
    const table = t.hub.tables.get('t1')!;
    play(t);
    t.clock.t += 2000;
    table.tick(t.clock.t); // the sensors' shot ends: it waits for the camera's
    expect(table.state().shotCount).toBe(0);
    expect(table.trackerShot(CAMERA).ok).toBe(true);
    const state = table.state();
    expect(state.status).toBe('playing');
    expect(state.players[0]).toMatchObject({ name: 'Ana', score: 1 });
    expect(table.pairing!.counts).toMatchObject({ fused: 1, identified: 5, unknown: 0 });

    // Second shot: the camera's reading first, then the sensors' (Ana again: she scored).
    play(t);
    expect(table.trackerShot(CAMERA).ok).toBe(true);
    t.clock.t += 2000;
    table.tick(t.clock.t);
    expect(table.state().players[0]).toMatchObject({ score: 2 });
    expect(table.state().shotCount).toBe(2);
    expect(table.pairing!.counts.fused).toBe(2);
  });

  it('with the sensors alone (no camera shot in time) the same play asks the referee', async () => {
    t = await startTestHub({ config: config('camera+sensors') });
    const table = t.hub.tables.get('t1')!;
    play(t);
    t.clock.t += 2000;
    table.tick(t.clock.t);
    t.clock.t += 3000;
    table.tick(t.clock.t);
    expect(table.state().status).toBe('awaiting-referee');
    expect(table.pairing!.counts.sensorsAlone).toBe(1);
    // The camera's reading, too late: kept for the record, never scored a second time.
    expect(table.trackerShot(CAMERA).ok).toBe(true);
    expect(table.counters.shots).toBe(1);
    expect(table.pairing!.counts.late).toBe(1);
  });

  it('a contact the camera lost stays unknown; the others take the camera’s ids', async () => {
    t = await startTestHub({ config: config('camera+sensors') });
    const table = t.hub.tables.get('t1')!;
    play(t);
    t.clock.t += 2000;
    table.tick(t.clock.t);
    // The camera lost the first click: the first contact stays unknown, so the engine must ask or infer.
    table.trackerShot({ ...CAMERA, events: CAMERA.events.slice(1) });
    expect(table.pairing!.counts).toMatchObject({ fused: 1, identified: 4, unknown: 1 });
  });

  it('a camera strike it takes back (no ball left its place) with sensors that heard nothing scores nothing — before or after the sensors’ shot ended', async () => {
    const [h, table] = await linkedTable();
    // The camera's rest came within the segmenter's quiet window: the shot it began is dropped.
    table.strike();
    h.clock.t += 300;
    table.trackerRest(h.clock.t);
    expect(table.shotEndDue).toBeNull();
    expect(table.pairing!.waiting).toBe(false);
    // The camera's rest came after the segmenter ended the (empty) shot: the waiting reading is dropped.
    table.strike();
    h.clock.t += 1000;
    table.tick(h.clock.t);
    expect(table.pairing!.waiting).toBe(true);
    table.trackerRest(h.clock.t);
    expect(table.pairing!.waiting).toBe(false);
    h.clock.t += 5000;
    table.tick(h.clock.t);
    expect(table.state()).toMatchObject({ status: 'playing', shotCount: 0 });
    expect(table.counters).toMatchObject({ shots: 0, strikesWithdrawn: 2 });
    expect(table.pairing!.counts).toMatchObject({ withdrawn: 1, sensorsAlone: 0, fused: 0 });
  });

  it('the same from a tracker on MQTT: strike, then rest with no shot — nothing scored, counted in /metrics', async () => {
    const [h, table] = await linkedTable();
    const send = (m: object) => h.hub.events.emit('tracker-message', { table: 't1', payload: Buffer.from(JSON.stringify(m)) });
    send({ type: 'strike' });
    expect(table.shotEndDue).not.toBeNull();
    h.clock.t += 600;
    send({ type: 'rest' });
    h.clock.t += 6000;
    table.tick(h.clock.t);
    expect(table.state()).toMatchObject({ status: 'playing', shotCount: 0 });
    expect(h.hub.metrics()).toContain('billiards_strikes_withdrawn_total{table="t1"} 1');
    // A strike with its shot is scored as before.
    play(h);
    send({ type: 'shot', shot: CAMERA });
    send({ type: 'rest' });
    h.clock.t += 2000;
    table.tick(h.clock.t);
    expect(table.state().players[0]).toMatchObject({ score: 1 });
    expect(table.counters.strikesWithdrawn).toBe(1);
  });

  it('a camera strike taken back while the sensors heard a click is no reason to drop the shot: the sensors’ reading is scored alone (the engine asks)', async () => {
    const [h, table] = await linkedTable();
    table.strike();
    h.clock.t += 120;
    h.sources.get('t1')!.emit(click()(h.clock.t));
    h.clock.t += 300;
    table.trackerRest(h.clock.t);
    h.clock.t += 5000;
    table.tick(h.clock.t);
    expect(table.pairing!.counts).toMatchObject({ withdrawn: 0, sensorsAlone: 1 });
    expect(table.counters.shots).toBe(1);
  });

  it('scoring: camera scores the tracker shot directly and keeps the sensors’ shot unscored', async () => {
    t = await startTestHub({ config: config('camera') });
    const table = t.hub.tables.get('t1')!;
    play(t);
    t.clock.t += 2000;
    table.tick(t.clock.t);
    expect(table.counters.unscoredShots).toBe(1);
    expect(table.trackerShot(CAMERA).ok).toBe(true);
    expect(table.state().players[0]).toMatchObject({ score: 1 });
    expect(table.pairing).toBeNull();
  });
});
