import { afterEach, describe, expect, it } from 'vitest';
import { HubEventBus } from '../../hub/events.ts';
import { DEFAULT_EXTENSIONS, type Extension, type ExtensionFactory } from '../../hub/extensions/index.ts';
import type { TableState } from '../../hub/contract/mqtt.ts';
import { click, feedShot, linkUp, railHit, startTestHub, type TestHub } from './support.ts';

type Logged = { level: string; message: string; fields?: Record<string, unknown> };

const running: TestHub[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.hub.stop();
});

describe('the hub event bus (hub/events.ts)', () => {
  it('a throwing listener is caught, logged once with its owner, counted, and the others still receive every event', () => {
    const logged: Logged[] = [];
    const bus = new HubEventBus((level, message, fields) => logged.push({ level, message, ...(fields ? { fields } : {}) }));
    const seen: string[] = [];
    bus.on('table-link', 'before', ({ table }) => seen.push(`before ${table}`));
    bus.on('table-link', 'broken', () => {
      throw new Error('boom');
    });
    bus.on('table-link', 'after', ({ table, state }) => seen.push(`after ${table} ${state}`));
    expect(() => bus.emit('table-link', { table: 't1', state: 'up' })).not.toThrow();
    bus.emit('table-link', { table: 't2', state: 'down' });
    expect(seen).toEqual(['before t1', 'after t1 up', 'before t2', 'after t2 down']);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'error', fields: { extension: 'broken', event: 'table-link', error: 'boom' } });
    expect(bus.failureCounts()).toEqual([{ owner: 'broken', event: 'table-link', count: 2 }]);
    expect(bus.renderMetrics()).toContain('billiards_extension_failures_total{extension="broken",event="table-link"} 2');
  });

  it('off(owner) removes that owner\'s listeners, and an unsubscribe removes one', () => {
    const bus = new HubEventBus(() => undefined);
    const seen: number[] = [];
    const stop = bus.on('publish-acked', 'a', ({ ms }) => seen.push(ms));
    bus.on('publish-acked', 'b', ({ ms }) => seen.push(-ms));
    bus.emit('publish-acked', { ms: 1 });
    stop();
    bus.emit('publish-acked', { ms: 2 });
    bus.off('b');
    bus.emit('publish-acked', { ms: 3 });
    expect(seen).toEqual([1, -1, -2]);
    expect(bus.has('publish-acked')).toBe(false);
  });
});

/** An extension that throws on every table state, and one that records what it sees. */
const throwingOnState: ExtensionFactory = (hub) => ({
  name: 'throws-on-state',
  start: () => void hub.events.on('table-state', 'throws-on-state', () => {
    throw new Error('listener broke');
  }),
  stop: () => undefined,
});

describe('a hub with a failing extension', () => {
  it('a listener that throws on every state stops neither the hub nor the other extensions (league, metrics, health)', async () => {
    const logged: Logged[] = [];
    const states: TableState[] = [];
    const prompts: string[] = [];
    const recorder: ExtensionFactory = (hub): Extension => ({
      name: 'recorder',
      start: () => {
        hub.events.on('table-state', 'recorder', ({ state }) => states.push(state));
        hub.events.on('prompt-raised', 'recorder', ({ table }) => prompts.push(table));
      },
      stop: () => undefined,
    });
    const t = await startTestHub({ extensions: [throwingOnState, ...DEFAULT_EXTENSIONS, recorder], log: (level, message, fields) => logged.push({ level, message, ...(fields ? { fields } : {}) }) });
    running.push(t);
    t.sources.get('t1')!.emit(linkUp(t.clock.t));
    feedShot(t, 't1', [click(), railHit(0), railHit(2), railHit(1), click()]);
    const table = t.hub.tables.get('t1')!;
    // The shot (three rails, two clicks, no ball ids) asks the referee: the table moved on all the same.
    expect(table.state().status).toBe('awaiting-referee');
    expect(states.at(-1)?.status).toBe('awaiting-referee'); // the recorder, subscribed after the broken one, saw it
    expect(prompts).toEqual(['t1']);
    expect(t.hub.league).not.toBeNull();
    expect(t.hub.health().ok).toBe(true);
    const metrics = t.hub.metrics();
    expect(metrics).toMatch(/billiards_extension_failures_total\{extension="throws-on-state",event="table-state"\} [2-9]/);
    expect(metrics).toContain('billiards_prompts_total{table="t1"} 1');
    t.hub['log'].flush();
    expect(logged.filter((l) => l.fields?.extension === 'throws-on-state')).toHaveLength(1);
  });

  it('an extension that fails to start is logged and left out; the hub and the other extensions run, and stop in reverse order', async () => {
    const logged: Logged[] = [];
    const order: string[] = [];
    const tracked = (name: string, failStart = false): ExtensionFactory => (hub) => ({
      name,
      start: () => {
        order.push(`start ${name}`);
        hub.events.on('match-started', name, () => undefined);
        if (failStart) throw new Error('no camera here');
      },
      stop: () => void order.push(`stop ${name}`),
    });
    const t = await startTestHub({ extensions: [tracked('first'), tracked('broken', true), ...DEFAULT_EXTENSIONS, tracked('last')], log: (level, message, fields) => logged.push({ level, message, ...(fields ? { fields } : {}) }) });
    t.hub['log'].flush();
    expect(logged.find((l) => l.fields?.extension === 'broken')).toMatchObject({ level: 'error', message: expect.stringContaining('failed to start'), fields: { error: 'no camera here' } });
    // The hub plays on: the table's default match, the league, /metrics.
    const table = t.hub.tables.get('t1')!;
    expect(table.state().status).toBe('playing');
    expect(t.hub.league).not.toBeNull();
    expect(t.hub.metrics()).toContain('billiards_sensor_events_total');
    expect(t.hub.health().ok).toBe(true);
    await t.hub.stop();
    // 'broken' was stopped at once (its listener removed); the rest in reverse start order.
    expect(order).toEqual(['start first', 'start broken', 'stop broken', 'start last', 'stop last', 'stop first']);
  });
});
