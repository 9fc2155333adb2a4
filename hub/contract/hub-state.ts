import { z } from 'zod';

/**
 * `billiards/hubs/<hub>/state` (extension, retained): each hub says it is online and which
 * tables it owns; the offline message (clean stop) may leave the tables out.
 */
export const hubStateSchema = z.object({ state: z.enum(['online', 'offline']), tables: z.array(z.string()).optional() });
export type HubState = z.infer<typeof hubStateSchema>;

/** `billiards/response/<command>`: the answer to one request, matched by its transaction. */
export const commandResponseSchema = z.object({
  transaction: z.string().nullable(),
  status: z.enum(['ok', 'error']),
  data: z.unknown().optional(),
  error: z.string().optional(),
});
export type CommandResponse = z.infer<typeof commandResponseSchema>;
