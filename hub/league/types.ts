import { z } from 'zod';
import { VARIANT_IDS } from '../rules/catalogue.ts';

/** The house league's values (issue 8). Pure data: no I/O, no clock. */

const name = z.string().trim().min(1).max(60);
const id = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'an id: letters, digits, - and _ (at most 40)');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');

export const pointsSchemeSchema = z.strictObject({
  win: z.number().int().min(0).max(100),
  draw: z.number().int().min(0).max(100),
  loss: z.number().int().min(0).max(100),
});
export type PointsScheme = z.infer<typeof pointsSchemeSchema>;

/** target = clamp(round(average × inningsPerMatch), min, max), the average over the player's last `lastMatches` results. */
export const handicapSchema = z
  .strictObject({
    inningsPerMatch: z.number().positive().max(1000),
    min: z.number().int().positive().max(100_000),
    max: z.number().int().positive().max(100_000),
    lastMatches: z.number().int().positive().max(100),
  })
  .refine((h) => h.min <= h.max, { message: 'min must not exceed max', path: ['min'] });
export type HandicapFormula = z.infer<typeof handicapSchema>;

export const playerSchema = z.strictObject({
  name,
  team: name.optional(),
  /** Declared averages per discipline (variant id), used for handicaps until results exist. */
  averages: z.partialRecord(z.enum(VARIANT_IDS), z.number().nonnegative().max(1000)).optional(),
});
export type LeaguePlayer = z.infer<typeof playerSchema>;

export const seasonSchema = z
  .strictObject({
    id,
    name,
    discipline: z.enum(VARIANT_IDS),
    /** The match target without handicap. */
    target: z.number().int().positive().max(100_000),
    inningsLimit: z.number().int().positive().max(1000).optional(),
    points: pointsSchemeSchema.default({ win: 2, draw: 1, loss: 0 }),
    handicap: handicapSchema.nullable().default(null),
    players: z.array(playerSchema).min(2).max(64),
    teams: z.array(name).max(32).default([]),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.players.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: ['players', i, 'name'], message: `'${p.name}' appears twice` });
      seen.add(p.name);
      if (p.team !== undefined && !s.teams.includes(p.team)) ctx.addIssue({ code: 'custom', path: ['players', i, 'team'], message: `'${p.team}' is not one of the season's teams` });
    });
  });
export type Season = z.infer<typeof seasonSchema>;

export const generateSchema = z.strictObject({
  season: id,
  startDate: day,
  daysBetweenRounds: z.number().int().min(0).max(60).default(7),
  /** Twice round: everyone meets everyone at home and away. */
  double: z.boolean().default(false),
});

export const sideSchema = z.strictObject({
  score: z.number().int().min(0).max(100_000),
  innings: z.number().int().min(0).max(10_000),
  highRun: z.number().int().min(0).max(100_000),
});
export type Side = z.infer<typeof sideSchema>;

export const manualResultSchema = z.strictObject({
  fixture: id,
  home: sideSchema,
  away: sideSchema,
  /** Who won; a draw when equal scores and nobody is named. */
  winner: z.enum(['home', 'away', 'draw']),
  by: name,
  reason: z.string().trim().min(1, 'a reason is required').max(500),
});

export interface Fixture {
  id: string;
  season: string;
  round: number;
  date: string;
  home: string;
  away: string;
}

export interface LeagueResult {
  fixture: string;
  /** 1 for the first, one more per correction; the highest is the one that counts. */
  version: number;
  source: 'table' | 'manual';
  home: Side;
  away: Side;
  winner: 'home' | 'away' | 'draw';
  by: string;
  reason: string;
  at: string;
  table: string | null;
}

export interface StandingRow {
  rank: number;
  player: string;
  team: string | null;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  points: number;
  score: number;
  innings: number;
  average: number;
  highRun: number;
}

export const avg = (score: number, innings: number): number => (innings > 0 ? Math.round((score / innings) * 1000) / 1000 : 0);
