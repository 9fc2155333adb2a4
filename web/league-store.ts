import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { LeagueState } from '../hub/league/service.ts';

/**
 * The latest retained `<base>/league/state` (issue 8), parsed once at the edge: the fields
 * the pages read are checked, the rest passes through.
 */
const side = z.looseObject({ score: z.number(), innings: z.number(), highRun: z.number() });
const result = z.looseObject({ fixture: z.string(), version: z.number(), source: z.string(), home: side, away: side, winner: z.enum(['home', 'away', 'draw']), by: z.string(), reason: z.string(), at: z.string() });
const fixture = z.looseObject({ id: z.string(), season: z.string(), round: z.number(), date: z.string(), home: z.string(), away: z.string(), status: z.string(), table: z.string().nullable(), result: result.nullable() });
const row = z.looseObject({ rank: z.number(), player: z.string(), played: z.number(), won: z.number(), drawn: z.number(), lost: z.number(), points: z.number(), average: z.number(), highRun: z.number() });
const schema = z.looseObject({
  seq: z.number(),
  updatedAt: z.string(),
  today: z.string(),
  seasons: z.array(z.looseObject({ id: z.string(), name: z.string(), discipline: z.string(), standings: z.array(row), fixtures: z.array(fixture).default([]) })),
  rankings: z.record(z.string(), z.looseObject({ byAverage: z.array(z.unknown()), byHighRun: z.array(z.unknown()) })),
  todayFixtures: z.array(fixture),
  recentResults: z.array(z.unknown()),
  live: z.array(z.looseObject({ table: z.string(), fixture: z.string(), home: z.string(), away: z.string() })),
});

export class LeagueCache extends EventEmitter<{ change: [] }> {
  private latest: LeagueState | null = null;

  get state(): LeagueState | null {
    return this.latest;
  }

  ingest(payload: Buffer | string): boolean {
    const text = payload.toString();
    if (text === '') {
      this.latest = null;
      this.emit('change');
      return true;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return false;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return false;
    this.latest = parsed.data as unknown as LeagueState;
    this.emit('change');
    return true;
  }

  clear(): void {
    this.latest = null;
  }
}
