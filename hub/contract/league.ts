import { z } from 'zod';
import { VARIANT_IDS } from '../rules/catalogue.ts';

/** `billiards/league/state` (retained, issue 8): everything the displays show of the house league. */

const side = z.object({ score: z.number(), innings: z.number(), highRun: z.number() });
const fixture = z.object({ id: z.string(), season: z.string(), round: z.number().int(), date: z.string(), home: z.string(), away: z.string() });
export const leagueResultSchema = z.object({
  fixture: z.string(),
  /** 1 for the first, one more per correction; the highest is the one that counts. */
  version: z.number().int(),
  source: z.enum(['table', 'manual']),
  home: side,
  away: side,
  winner: z.enum(['home', 'away', 'draw']),
  by: z.string(),
  reason: z.string(),
  at: z.string(),
  table: z.string().nullable(),
});
export const fixtureViewSchema = fixture.extend({
  status: z.enum(['scheduled', 'playing', 'played']),
  table: z.string().nullable(),
  result: leagueResultSchema.nullable(),
});
const standingRow = z.object({
  rank: z.number().int(),
  player: z.string(),
  team: z.string().nullable(),
  played: z.number().int(),
  won: z.number().int(),
  drawn: z.number().int(),
  lost: z.number().int(),
  points: z.number(),
  score: z.number(),
  innings: z.number(),
  average: z.number(),
  highRun: z.number(),
});
const teamRow = z.object({ rank: z.number().int(), team: z.string(), players: z.number().int(), played: z.number().int(), points: z.number(), score: z.number(), innings: z.number(), average: z.number(), highRun: z.number() });
const rankingRow = z.object({ player: z.string(), matches: z.number().int(), average: z.number(), highRun: z.number() });
/** A season as configured (league/setup), with its defaults filled in. */
const season = z.object({
  id: z.string(),
  name: z.string(),
  discipline: z.enum(VARIANT_IDS),
  target: z.number().int(),
  inningsLimit: z.number().int().optional(),
  points: z.object({ win: z.number().int(), draw: z.number().int(), loss: z.number().int() }),
  handicap: z.object({ inningsPerMatch: z.number(), min: z.number().int(), max: z.number().int(), lastMatches: z.number().int() }).nullable(),
  players: z.array(z.object({ name: z.string(), team: z.string().optional(), averages: z.partialRecord(z.enum(VARIANT_IDS), z.number()).optional() })),
  teams: z.array(z.string()),
});

export const leagueStateSchema = z.object({
  seq: z.number().int(),
  updatedAt: z.string(),
  today: z.string(),
  seasons: z.array(
    season.extend({
      standings: z.array(standingRow),
      fixtureCount: z.number().int(),
      playedCount: z.number().int(),
      fixtures: z.array(fixtureViewSchema),
      byes: z.array(z.object({ round: z.number().int(), date: z.string(), player: z.string() })),
      teamStandings: z.array(teamRow),
    }),
  ),
  rankings: z.record(z.string(), z.object({ byAverage: z.array(rankingRow), byHighRun: z.array(rankingRow) })),
  todayFixtures: z.array(fixtureViewSchema),
  /** Players with a bye in a round played today (odd player counts). */
  todayByes: z.array(z.object({ season: z.string(), round: z.number().int(), player: z.string() })),
  recentResults: z.array(leagueResultSchema.extend({ home_player: z.string(), away_player: z.string(), season: z.string() })),
  live: z.array(z.object({ table: z.string(), fixture: z.string(), home: z.string(), away: z.string() })),
});

export type LeagueState = z.infer<typeof leagueStateSchema>;
export type FixtureView = z.infer<typeof fixtureViewSchema>;
