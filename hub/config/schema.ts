import { z } from 'zod';
import { matchSchema } from '../matchlog/schema.ts';
import { RAILS, SKITTLES } from '../rules/ids.ts';
import { passwordHashProblem } from '../ops/password.ts';

/**
 * The hub's one configuration file (JSON), validated whole before anything starts. Every
 * error names the field: `tables[1].rails.7: …`.
 */
const id = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, - and _ only (at most 40)');
/** A stored password hash: the example's placeholders and clear-text passwords are refused by name. */
const passwordHash = z.string().superRefine((value, ctx) => {
  const problem = passwordHashProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const hex4 = z.string().regex(/^[0-9a-fA-F]{4}$/, 'four hex digits, as `lsusb` shows them');

export const sourceSchema = z.discriminatedUnion('type', [
  /** A board on a serial port, by path or found by its USB ids (auto-detect). */
  z.strictObject({
    type: z.literal('serial'),
    path: z.string().min(1).optional(),
    match: z.strictObject({ vendorId: hex4, productId: hex4, serialNumber: z.string().min(1).optional() }).optional(),
    baudRate: z.number().int().positive().default(115200),
  }).refine((s) => s.path !== undefined || s.match !== undefined, 'give a path or a USB match'),
  /** A board running StandardFirmata, read through johnny-five. */
  z.strictObject({ type: z.literal('firmata'), path: z.string().min(1), baudRate: z.number().int().positive().default(57600) }),
  /** A board behind a serial-to-network server (ser2net raw mode, ESP-Link): `baudRate` is its serial side. */
  z.strictObject({ type: z.literal('tcp'), host: z.string().min(1), port: z.number().int().min(1).max(65535), baudRate: z.number().int().positive().default(115200) }),
  /** No hardware: a simulated table. */
  z.strictObject({ type: z.literal('simulator'), seed: z.number().int().default(1), speed: z.number().positive().max(100).default(1) }),
]);

export const tableSchema = z.strictObject({
  id,
  name: z.string().min(1).max(80).optional(),
  source: sourceSchema,
  /** Piezo channel → rail (two channels may share a long rail). */
  rails: z.record(z.string().regex(/^[0-5]$/, 'a piezo channel 0–5'), z.enum(RAILS)).default({ '0': 'head', '1': 'foot', '2': 'left', '3': 'right' }),
  /** Tilt switch index → skittle. */
  skittles: z.record(z.string().regex(/^[0-6]$/, 'a skittle switch 0–6'), z.enum(SKITTLES)).default({}),
  thresholds: z.array(z.strictObject({ channel: z.number().int().min(0).max(6), threshold: z.number().int().min(0).max(255), refractoryMs: z.number().int().min(0).max(7000) })).default([]),
  /** A shot ends after this long with no hit and the bed quiet. */
  quietWindowMs: z.number().int().min(100).max(20_000).default(1500),
  /** Bed-vibration level at or below which the balls are taken to be at rest. */
  restVibrationLevel: z.number().int().min(0).max(255).default(12),
  /** Hits on one rail closer than this are one contact (two sensors on a long rail). */
  railMergeMs: z.number().min(0).max(200).default(15),
  defaultMatch: matchSchema.optional(),
  /** Who scores: the sensors' shots (unknown facts go to the referee), or an overhead tracker's shots with ball ids. */
  scoring: z.enum(['sensors', 'tracker']).default('sensors'),
});

export const configSchema = z.strictObject({
  hub: z.strictObject({ id: id.default('hub'), baseTopic: z.string().regex(/^[A-Za-z0-9_/-]{1,60}$/).default('billiards') }).default({ id: 'hub', baseTopic: 'billiards' }),
  /** The venue's credentials: commands that change a match need them (CONTRACT §3). */
  venue: z.strictObject({ username: z.string().min(1).default('referee'), passwordHash }).optional(),
  broker: z
    .strictObject({
      /** Clients of the embedded broker and what they may do; none: anonymous read-only access is refused too. */
      users: z.array(z.strictObject({ username: z.string().min(1), passwordHash, publish: z.array(z.string()).default([]), subscribe: z.array(z.string()).default(['#']) })).default([]),
      allowAnonymousRead: z.boolean().default(true),
      /** Where the embedded broker listens (MQTT_HOST overrides): 127.0.0.1, or 0.0.0.0 / a LAN address for scoreboards on the venue network. */
      host: z.string().min(1).optional(),
    })
    .default({ users: [], allowAnonymousRead: true }),
  /** The event log: which status frames it keeps (hub/pipeline/status-frames.ts). */
  store: z
    .strictObject({
      statusFrames: z.enum(['all', 'changes']).default('all'),
      keepAliveMs: z.number().int().min(1000).max(3_600_000).default(60_000),
    })
    .default({ statusFrames: 'all', keepAliveMs: 60_000 }),
  tables: z.array(tableSchema).max(64).default([]),
  homeAssistant: z.strictObject({ discovery: z.boolean().default(false), prefix: z.string().default('homeassistant') }).default({ discovery: false, prefix: 'homeassistant' }),
});

export type HubConfig = z.infer<typeof configSchema>;
export type TableConfig = z.infer<typeof tableSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
