import { describe, expect, it } from 'vitest';
import type { TableEvent, TableState } from '../../hub/contract/mqtt.ts';
import { HubEventBus, type HubEventName } from '../../hub/events.ts';
import { busPublisher } from '../../hub/tables/bus-publisher.ts';

describe('the tables\' publisher in a running hub (hub/tables/bus-publisher.ts)', () => {
  it('publishes to MQTT first, then announces the facts: prompts, match end, shots, links, stored sensor events; health only on the bus', () => {
    const bus = new HubEventBus(() => undefined);
    const seen: string[] = [];
    const names: HubEventName[] = ['table-state', 'prompt-raised', 'prompt-answered', 'match-ended', 'match-started', 'shot-scored', 'table-link', 'sensor-event-stored', 'table-health-changed'];
    for (const name of names) bus.on(name, 'test', () => seen.push(name));
    const mqtt: string[] = [];
    const publisher = busPublisher({ state: (_t, s) => void mqtt.push(`state ${s.status}`), availability: () => void mqtt.push('availability'), event: (_t, e) => void mqtt.push(`event ${e.type}`) }, bus);
    const state = (status: TableState['status']) => ({ status }) as TableState;
    const at = '2026-11-30T00:00:00.000Z';
    publisher.state('t1', state('playing'));
    publisher.state('t1', state('playing'));
    publisher.state('t1', state('awaiting-referee'));
    publisher.state('t1', state('finished'));
    expect(seen.splice(0)).toEqual(['table-state', 'table-state', 'table-state', 'prompt-raised', 'table-state', 'prompt-answered', 'match-ended']);
    const events: TableEvent[] = [
      { type: 'match', table: 't1', at, action: 'started', detail: {} },
      { type: 'match', table: 't1', at, action: 'referee', detail: {} },
      { type: 'shot', table: 't1', at, result: null, events: [], prompt: false },
      { type: 'sensor', table: 't1', at, hubTime: 1, boardUs: null, seq: null, sensor: 'link', state: 'up' },
      { type: 'sensor', table: 't1', at, hubTime: 1, boardUs: 1000, seq: 1, sensor: 'click', amplitude: 90 },
    ];
    for (const e of events) publisher.event('t1', e);
    publisher.health('t1', { table: 't1', link: 'up', lastHeartbeatAt: null, framesDropped: 0, boardResets: 0, alerts: [] });
    expect(seen).toEqual(['match-started', 'shot-scored', 'table-link', 'sensor-event-stored', 'table-health-changed']);
    expect(mqtt).toEqual(['state playing', 'state playing', 'state awaiting-referee', 'state finished', 'event match', 'event match', 'event shot', 'event sensor', 'event sensor']);
  });
});
