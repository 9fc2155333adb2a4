import { z } from 'zod';
import { FOUL_KINDS, RAILS, SKITTLES } from '../rules/ids.ts';

/** CONTRACT §1: the match log, one JSON object per line. Ball ids are checked by the engine per variant. */

const ballId = z.string().min(1).max(20);
const maybeBall = ballId.nullable().optional().transform((v) => v ?? null);
const time = z.number().nonnegative().optional();
/** Extension: the sensor's 8-bit peak for the contact (older logs have none). */
const amplitude = z.number().int().min(0).max(255).optional();

/** Extension (docs/contract.md): with an unknown id, what it may be — the camera's doing (hub/camera/track-fusion.ts). */
const candidateBalls = z.array(ballId).min(1).max(12).optional();
const candidatePairs = z.array(z.tuple([ballId, ballId])).min(1).max(66).optional();
/** Extension (docs/contract.md): the event may not have happened — a camera's near miss; the engine reads it both ways. */
const maybe = z.literal(true).optional();

export const eventSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ball'), balls: z.tuple([ballId.nullable(), ballId.nullable()]), t: time, amplitude, candidates: candidatePairs, maybe }),
  z.strictObject({ kind: z.literal('cushion'), rail: z.enum(RAILS), ball: maybeBall, t: time, amplitude, candidates: candidateBalls, maybe }),
  z.strictObject({ kind: z.literal('skittle'), skittle: z.enum(SKITTLES), by: maybeBall, t: time, candidates: candidateBalls, maybe }),
  z.strictObject({ kind: z.literal('pocket'), ball: maybeBall, t: time, maybe }),
  z.strictObject({ kind: z.literal('off-table'), ball: maybeBall, t: time, maybe }),
  z.strictObject({
    kind: z.literal('foul'),
    foul: z.enum(FOUL_KINDS),
    by: z.enum(['shooter', 'opponent']).optional().transform((v) => v ?? 'shooter'),
    ball: ballId.optional(),
    t: time,
  }),
]);

const point = z.tuple([z.number().min(-100).max(6000), z.number().min(-100).max(3000)]);

export const shotSchema = z.strictObject({
  events: z.array(eventSchema).max(500),
  declare: z.enum(['safety', 'carom']).optional(),
  frozen: z.union([z.strictObject({ cushion: z.enum(RAILS) }), z.strictObject({ ball: ballId })]).optional(),
  objectFrozen: z.record(ballId, z.enum(RAILS)).optional(),
  positions: z.record(ballId, point).optional(),
  /** Extension (docs/contract.md): how far each position may be off, mm (a camera's). */
  positionsErrorMm: z.number().min(0).max(100).optional(),
  /** Extension (docs/contract.md): balls seen set moving during the shot (a camera's). */
  moved: z.array(ballId).min(1).max(12).optional(),
  shooter: z.string().min(1).optional(),
});

export const refereeSchema = z.union([
  z.strictObject({ ruling: z.enum(['score', 'no-score', 'foul']), option: z.number().int().nonnegative().optional() }),
  z.strictObject({ action: z.literal('undo') }),
  z.strictObject({
    action: z.literal('adjust'),
    player: z.string().min(1),
    delta: z.number().int().refine((d) => d !== 0, 'must not be 0'),
    reason: z.string().trim().min(1, 'a reason is required'),
  }),
  z.strictObject({ action: z.literal('draw'), reason: z.string().optional() }),
  z.strictObject({ action: z.literal('forfeit'), player: z.string().min(1), reason: z.string().optional() }),
]);

export const matchSchema = z.strictObject({
  variant: z.string().min(1),
  players: z.array(z.string().trim().min(1).max(60)).min(2).max(3),
  target: z.number().int().positive().max(100_000),
  options: z.record(z.string(), z.unknown()).optional(),
});

export const lineSchema = z.union([
  z.strictObject({ match: matchSchema }),
  z.strictObject({ shot: shotSchema }),
  z.strictObject({ referee: refereeSchema }),
]);
