import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { Hub } from '../../hub/hub.ts';
import { ManualSource } from '../../hub/sources/manual.ts';
import { systemClock } from '../../hub/tables/clock.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { VENUE_PASSWORD, click, feedShot, linkUp, railHit, request, startTestHub, subscriber, testConfig, type TestHub } from './support.ts';

const running: TestHub[] = [];
const clients: { endAsync: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.endAsync().catch(() => undefined);
  for (const t of running.splice(0)) await t.hub.stop();
});

async function hubWithSubscriber() {
  const t = await startTestHub();
  running.push(t);
  const sub = await subscriber(t.hub.mqttUrl, ['billiards/#']);
  clients.push(sub.client);
  return { t, sub };
}

// Three-cushion, Ana (white) breaks: a click (white meets an unknown ball), three rails, a click.
// Head, left, foot: 150 ms apart, a ball could not go from head to foot in one gap (hub/rules/bounds.ts).
const threeRailsAndTwoClicks = [click(), railHit(0), railHit(2), railHit(1), click()];

describe('hub: sensors to scored shots to MQTT (CONTRACT §3)', () => {
  it('publishes the retained table state, availability and bridge state', async () => {
    const { t, sub } = await hubWithSubscriber();
    const state = await sub.next('billiards/tables/t1/state');
    expect(state).toMatchObject({ table: 't1', variant: 'three-cushion', status: 'playing', turn: 'Ana', hub: 'club-a', shotCount: 0 });
    expect(await sub.next('billiards/bridge/state')).toEqual({ state: 'online' });
    expect(await sub.next('billiards/tables/t1/availability')).toEqual({ state: 'offline' });
    t.sources.get('t1')!.emit(linkUp(t.clock.t));
    expect(await sub.next('billiards/tables/t1/availability', (m) => m.state === 'online')).toEqual({ state: 'online' });
  });

  it('the embedded broker also speaks MQTT over WebSocket', async () => {
    const { t } = await hubWithSubscriber();
    expect(t.hub.mqttWsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const ws = await subscriber(t.hub.mqttWsUrl!, ['billiards/tables/+/state']);
    clients.push(ws.client);
    expect(await ws.next('billiards/tables/t1/state')).toMatchObject({ table: 't1' });
  });

  it('a serial unplug turns the table offline and scores nothing (no phantom points)', async () => {
    const { t, sub } = await hubWithSubscriber();
    const source = t.sources.get('t1')!;
    source.emit(linkUp(t.clock.t));
    await sub.next('billiards/tables/t1/availability', (m) => m.state === 'online');
    source.emit({ type: 'link', state: 'down', reason: 'disconnected: EIO', hubTime: (t.clock.t += 10) });
    expect(await sub.next('billiards/tables/t1/availability', (m) => m.state === 'offline' && sub.messages.get('billiards/tables/t1/availability')!.length > 2)).toEqual({ state: 'offline' });
    t.clock.t += 5_000;
    t.hub.tables.get('t1')!.tick(t.clock.t);
    expect(t.hub.tables.get('t1')!.state()).toMatchObject({ shotCount: 0, status: 'playing' });
    const health = await sub.next('billiards/tables/t1/health', (h) => h.link === 'down' && h.alerts.some((a: { kind: string }) => a.kind === 'link-down'));
    expect(health.table).toBe('t1');
  });

  it('while a board beats, its health is published every few seconds (heartbeat age true within 5 s)', async () => {
    const { t, sub } = await hubWithSubscriber();
    const source = t.sources.get('t1')!;
    source.emit(linkUp(t.clock.t));
    await sub.next('billiards/tables/t1/availability', (m) => m.state === 'online');
    const start = t.clock.t;
    // 20 s of heartbeats every 250 ms and no shot: the health must keep up.
    for (let i = 0; i < 80; i++) {
      t.clock.t += 250;
      source.emit({ type: 'heartbeat', loopMaxUs: 100, skittleMask: 0, driftPpm: 0, boardUs: t.clock.t * 1000, hubTime: t.clock.t, seq: i });
    }
    const end = t.clock.t;
    await sub.next('billiards/tables/t1/health', (h) => Date.parse(h.lastHeartbeatAt ?? '') >= end - 5000);
    const published = (sub.messages.get('billiards/tables/t1/health') ?? []) as { lastHeartbeatAt: string | null }[];
    const beats = published.flatMap((h) => (h.lastHeartbeatAt ? [Date.parse(h.lastHeartbeatAt)] : [])).filter((at) => at > start);
    // Every moment of those 20 s has a published heartbeat at most 5 s old, and not one message per beat.
    for (let now = start + 5000; now <= end; now += 250) expect(beats.some((at) => at <= now && now - at <= 5000), `at +${now - start} ms`).toBe(true);
    expect(beats.length).toBeLessThan(20);
  });

  it('cuts the sensor stream into a shot; an undetermined deciding fact waits for the referee', async () => {
    const { t, sub } = await hubWithSubscriber();
    feedShot(t, 't1', threeRailsAndTwoClicks);
    const state = await sub.next('billiards/tables/t1/state', (s) => s.status === 'awaiting-referee');
    expect(state.prompt.facts.length).toBeGreaterThan(0);
    const events = await sub.next('billiards/tables/t1/events', (e) => e.type === 'shot');
    expect(events).toMatchObject({ type: 'shot', prompt: true, result: null });
    const sensor = await sub.next('billiards/tables/t1/events', (e) => e.type === 'sensor' && e.sensor === 'rail-hit');
    expect(sensor).toMatchObject({ rail: 'head', channel: 0, amplitude: 120 });
    expect(typeof sensor.hubTime).toBe('number');
  });

  it('a shot arriving while a prompt is open waits, and is scored after the ruling', async () => {
    const { t, sub } = await hubWithSubscriber();
    feedShot(t, 't1', threeRailsAndTwoClicks);
    feedShot(t, 't1', [railHit(3)]);
    const waiting = await sub.next('billiards/tables/t1/state', (s) => s.pendingShots === 1);
    expect(waiting.status).toBe('awaiting-referee');
    const answer = await request(sub.client, 'billiards', 'match/referee', { table: 't1', referee: { ruling: 'score' } });
    expect(answer.status).toBe('ok');
    const after = await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 2);
    expect(after).toMatchObject({ pendingShots: 0, turn: 'Ben' });
    expect(after.players[0].score).toBe(1);
  });

  it('every change is in the store before it is published (durable before visible)', async () => {
    const { t, sub } = await hubWithSubscriber();
    const db = new Database(join(t.dataDir, 'hub.sqlite'), { readonly: true, fileMustExist: true });
    const storedShots: number[] = [];
    const check = (topic: string, payload: Buffer) => {
      if (topic !== 'billiards/tables/t1/state') return;
      const state = JSON.parse(payload.toString());
      const rows = (db.prepare("SELECT COUNT(*) AS n FROM log WHERE kind IN ('shot','queued')").get() as { n: number }).n;
      storedShots.push(rows - state.shotCount - state.pendingShots - (state.status === 'awaiting-referee' ? 1 : 0));
    };
    sub.client.on('message', check);
    for (let i = 0; i < 5; i++) feedShot(t, 't1', [railHit(0)]); // misses: the turn passes each time
    await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 5);
    sub.client.off('message', check);
    db.close();
    expect(storedShots.length).toBeGreaterThan(0);
    expect(storedShots.every((d) => d >= 0)).toBe(true);
  });

  it('a restart rebuilds every table from the log to the same state', async () => {
    const t = await startTestHub();
    feedShot(t, 't1', [railHit(0)]);
    feedShot(t, 't1', threeRailsAndTwoClicks);
    t.hub.tables.get('t1')!.input({ kind: 'referee', referee: { ruling: 'no-score' } });
    feedShot(t, 't1', [railHit(2), click()]);
    const before = t.hub.tables.get('t1')!.state();
    await t.hub.stop();
    const again = await startTestHub({ dataDir: t.dataDir });
    running.push(again);
    const after = again.hub.tables.get('t1')!.state();
    const { updatedAt: _a, lastShotEndedAt: _b, ...rest } = before;
    expect(after).toMatchObject(rest);
  });
});

describe('hub: /metrics (Prometheus text format)', () => {
  it('counts events and shots per table, times each sensor event from the board to its publish, and reports memory', async () => {
    const { t, sub } = await hubWithSubscriber();
    t.sources.get('t1')!.emit(linkUp(t.clock.t));
    // A shot with no ball contact: the sensors decide it (a miss), no referee needed.
    feedShot(t, 't1', [railHit(0), railHit(1), railHit(2)]);
    await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 1);
    await expect.poll(() => sub.messages.get('billiards/tables/t1/events')?.filter((e: any) => e.sensor === 'rail-hit').length).toBe(3);
    const text = t.hub.metrics();
    // Every line is a comment or `name{labels} value`.
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{(\w+="[^"]*",?)+\})? -?\d+(\.\d+)?(e[+-]?\d+)?)$/);
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}+]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('billiards_sensor_events_total{table="t1"}')).toBe(4);
    expect(value('billiards_shots_total{table="t1"}')).toBe(1);
    expect(value('billiards_table_link_up{table="t1"}')).toBe(1);
    // The three rail hits (the link event is stored and published at once, not through the stream).
    expect(value('billiards_event_latency_ms_count')).toBe(3);
    expect(value('billiards_event_latency_ms_bucket{le="+Inf"}')).toBe(3);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(10e6);
    expect(value('nodejs_heap_size_used_bytes')).toBeGreaterThan(1e6);
  });
});

describe('hub: Home Assistant discovery', () => {
  it('announces each table\'s sensors when discovery is on', async () => {
    const { testConfig } = await import('./support.ts');
    const t = await startTestHub({ config: testConfig({ homeAssistant: { discovery: true } }) });
    running.push(t);
    const sub = await subscriber(t.hub.mqttUrl, ['homeassistant/#']);
    clients.push(sub.client);
    const config = await sub.next('homeassistant/sensor/billiards_club_a_t1_score/config');
    expect(config).toMatchObject({ state_topic: 'billiards/tables/t1/state', availability_topic: 'billiards/tables/t1/availability', unique_id: 'billiards_club_a_t1_score' });
  });
});

describe('hub: commands (CONTRACT §3 request/response)', () => {
  it('bad JSON, unknown commands, bad fields and a password in the request get errors and change nothing', async () => {
    const { t, sub } = await hubWithSubscriber();
    const before = JSON.stringify(t.hub.tables.get('t1')!.state());
    expect(await request(sub.client, 'billiards', 'match/referee', { __raw: '{not json' })).toEqual({ transaction: null, status: 'error', error: 'payload: not valid JSON' });
    expect((await request(sub.client, 'billiards', 'match/explode', {})).error).toMatch(/unknown command 'match\/explode'/);
    expect((await request(sub.client, 'billiards', 'match/referee', { table: 't1', referee: { ruling: 'maybe' } })).error).toMatch(/^referee/);
    expect((await request(sub.client, 'billiards', 'match/referee', { password: 'nope', table: 't1', referee: { action: 'undo' } })).error).toMatch(/^password: requests no longer carry a password/);
    expect((await request(sub.client, 'billiards', 'match/referee', { table: 'zz', referee: { action: 'undo' } })).error).toMatch(/no table 'zz'/);
    expect((await request(sub.client, 'billiards', 'match/referee', { table: 't1', referee: { action: 'undo' } })).error).toMatch(/nothing to undo/);
    expect(JSON.stringify(t.hub.tables.get('t1')!.state())).toBe(before);
  });

  it('starts a match, takes a manual shot, exports the log and the innings CSV', async () => {
    const { sub } = await hubWithSubscriber();
    const started = await request(sub.client, 'billiards', 'match/start', { table: 't1', variant: 'carom', players: ['Cid', 'Dan'], target: 3 });
    expect(started).toMatchObject({ status: 'ok', data: { variant: 'carom', turn: 'Cid' } });
    const shot = await request(sub.client, 'billiards', 'match/shot', { table: 't1', shot: { events: [{ kind: 'ball', balls: ['white', 'red'] }, { kind: 'ball', balls: ['white', 'yellow'] }] } });
    expect(shot.data.players[0].score).toBe(1);
    const log = await request(sub.client, 'billiards', 'match/export', { table: 't1', format: 'jsonl' });
    expect(log.data.content.trim().split('\n').map((l: string) => Object.keys(JSON.parse(l))[0])).toEqual(['match', 'shot']);
    const csv = await request(sub.client, 'billiards', 'match/export', { table: 't1', format: 'csv' });
    expect(csv.data.content).toBe('inning,player,shots,points,fouls,score_after,note\n1,Cid,1,1,0,1,\n');
  });

  it('only a logged-in referee may send requests: an anonymous display is refused by the broker', async () => {
    const { t } = await hubWithSubscriber();
    const display = await mqtt.connectAsync(t.hub.mqttUrl, { reconnectPeriod: 0 });
    clients.push({ endAsync: () => display.endAsync(true) }); // its publish is never acknowledged
    const closed = new Promise((resolve) => display.once('close', () => resolve(null)));
    display.publish('billiards/request/match/referee', JSON.stringify({ transaction: 'x', table: 't1', referee: { action: 'undo' } }), { qos: 1 });
    await closed; // aedes drops a client that publishes where it may not
    await expect(mqtt.connectAsync(t.hub.mqttUrl, { reconnectPeriod: 0, username: 'referee', password: 'wrong' })).rejects.toThrow(/Bad username or password|bad user/i);
  });

  it('G-6: a shot ends when its quiet window runs out, on its own timer, not at the next sweep', async () => {
    const source = new ManualSource();
    // The sweep is a minute away: only the shot's own timer can end the shot in this test.
    const hub = new Hub({ config: testConfig(), dataDir: mkdtempSync(join(tmpdir(), 'hub-timer-')), mqttPort: 0, clock: systemClock, tickMs: 60_000, sourceFor: () => source });
    await hub.start();
    running.push({ hub } as TestHub);
    const sub = await subscriber(hub.mqttUrl, ['billiards/tables/t1/state']);
    clients.push(sub.client);
    const quietMs = testConfig().tables[0]!.quietWindowMs;
    let lastHit = 0;
    for (let i = 0; i < 4; i++) {
      // Each hit inside the window keeps the shot open.
      lastHit = systemClock.now();
      source.emit({ type: 'rail-hit', channel: i, amplitude: 120, boardUs: i, seq: i, hubTime: lastHit });
      await new Promise((r) => setTimeout(r, quietMs / 3));
    }
    const scored = await sub.next('billiards/tables/t1/state', (s) => s.shotCount === 1);
    expect(systemClock.now()).toBeGreaterThanOrEqual(lastHit + quietMs);
    expect(scored.shots[0]).toMatchObject({ points: 0, turnPasses: true });
  });
});
