import { z } from 'zod';
import { shotSchema } from '../matchlog/schema.ts';
import type { Shot } from '../rules/events.ts';
import { describeIssues } from '../rules/result.ts';
import { err, ok, type Result } from '../rules/result.ts';

/**
 * An overhead tracker's messages on `billiards/tables/<table>/tracker`: a cue strike, all
 * balls at rest, or a whole shot with ball ids and resting positions. With a tracker the
 * ball ids are known, so the engine needs no referee (RULES §10).
 */
const schema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('strike') }),
  z.strictObject({ type: z.literal('rest') }),
  z.strictObject({ type: z.literal('shot'), shot: shotSchema }),
]);

export type TrackerMessage = { type: 'strike' } | { type: 'rest' } | { type: 'shot'; shot: Shot };

export function trackerMessage(payload: Buffer): Result<TrackerMessage> {
  let raw: unknown;
  try {
    raw = JSON.parse(payload.toString('utf8'));
  } catch {
    return err('tracker: not valid JSON');
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? ok(parsed.data as TrackerMessage) : err(describeIssues('tracker', parsed.error));
}
