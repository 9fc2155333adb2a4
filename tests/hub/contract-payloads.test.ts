import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SimulatedTable } from '../../app/simulated-table.ts';
import { demoConfig } from '../../app/start-command.ts';
import {
  availabilitySchema,
  commandResponseSchema,
  hubStateSchema,
  leagueStateSchema,
  parseTopic,
  tableEventSchema,
  tableHealthSchema,
  tableStateSchema,
  type ParsedTopic,
} from '../../hub/contract/mqtt.ts';
import { Hub } from '../../hub/hub.ts';
import { hashPasswordSync } from '../../hub/ops/password.ts';
import { request, subscriber, VENUE_PASSWORD } from './support.ts';

/** The schema of what the hub publishes on a topic; requests are the client's own. */
function schemaOf(topic: ParsedTopic): z.ZodType | null {
  switch (topic.kind) {
    case 'bridge-state':
      return availabilitySchema;
    case 'hub-state':
      return hubStateSchema;
    case 'league-state':
      return leagueStateSchema;
    case 'response':
      return commandResponseSchema;
    case 'request':
      return null;
    case 'table':
      return { state: tableStateSchema, availability: availabilitySchema, events: tableEventSchema, health: tableHealthSchema, tracker: null }[topic.topic];
  }
}

const season = { id: 's1', name: 'Winter', discipline: 'three-cushion', target: 10, players: [{ name: 'Ana' }, { name: 'Ben' }, { name: 'Cid' }] };

describe('the contract: every payload the hub publishes validates against its schema', () => {
  it('a sensor-only simulated match through the real hub and its embedded broker, with league and table commands', async () => {
    const config = demoConfig(2, ['three-cushion', 'skittles-5'], hashPasswordSync(VENUE_PASSWORD));
    // Sensors only: the sensors decide and the referee answers prompts (options with likelihoods).
    for (const table of config.tables) table.scoring = 'sensors';
    const hub = new Hub({ config, dataDir: mkdtempSync(join(tmpdir(), 'contract-')), mqttPort: 0, sourceFor: (table) => new SimulatedTable(table, { seed: 5, speed: 40 }) });
    await hub.start();
    try {
      const sub = await subscriber(hub.mqttUrl, ['billiards/#']);
      const base = 'billiards';
      expect((await request(sub.client, base, 'league/setup', { season })).status).toBe('ok');
      expect((await request(sub.client, base, 'league/generate-fixtures', { season: 's1', startDate: '2026-01-01' })).status).toBe('ok');
      expect((await request(sub.client, base, 'league/start-fixture', { table: 'table-1', fixture: 's1-r1-1' })).status).toBe('ok');
      expect((await request(sub.client, base, 'match/start', { table: 'table-1', variant: 'nonsense', players: ['A', 'B'], target: 5 })).status).toBe('error');

      let prompts = 0;
      const deadline = Date.now() + 20_000;
      const done = () => [...hub.tables.values()].every((t) => t.state().shotCount >= 4);
      while (!done() && Date.now() < deadline) {
        for (const table of hub.tables.values()) {
          const state = table.state();
          const option = state.prompt?.options[0];
          if (!option) continue;
          prompts += 1;
          await request(sub.client, base, 'match/referee', { table: state.table, referee: { ruling: option.ruling, option: option.index } });
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const tables = await request(sub.client, base, 'hub/tables', {});
      expect(tables.status).toBe('ok');
      for (const state of tables.data) expect(tableStateSchema.parse(state)).toEqual(state);
      expect((await request(sub.client, base, 'match/export', { table: 'table-1', format: 'csv' })).status).toBe('ok');
      expect((await request(sub.client, base, 'league/export', { what: 'standings' })).status).toBe('ok');
      await new Promise((r) => setTimeout(r, 200));

      const seen = new Map<string, number>();
      for (const [topic, payloads] of sub.messages) {
        const parsed = parseTopic(base, topic);
        expect(parsed, topic).not.toBeNull();
        const schema = schemaOf(parsed!);
        if (!schema) continue;
        const kind = parsed!.kind === 'table' ? `table/${parsed!.topic}` : parsed!.kind;
        for (const payload of payloads) {
          const result = schema.safeParse(payload);
          expect(result.error?.issues, `${topic}: ${JSON.stringify(payload).slice(0, 300)}`).toBeUndefined();
          // Nothing the schema does not know is published (a field left out of the schema would be stripped here).
          expect(result.data, topic).toEqual(payload);
          seen.set(kind, (seen.get(kind) ?? 0) + 1);
        }
      }
      for (const kind of ['bridge-state', 'hub-state', 'league-state', 'response', 'table/state', 'table/availability', 'table/events', 'table/health']) expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
      const events = (sub.messages.get('billiards/tables/table-1/events') ?? []) as { type: string }[];
      expect(new Set(events.map((e) => e.type))).toEqual(new Set(['sensor', 'shot', 'match']));
      expect(prompts + [...hub.tables.values()].reduce((n, t) => n + t.state().shotCount, 0)).toBeGreaterThan(0);
      await sub.client.endAsync();
    } finally {
      await hub.stop();
    }
  }, 40_000);
});
