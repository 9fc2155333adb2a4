import { z } from 'zod';
import { describeIssues } from '../hub/rules/result.ts';
import { LANGS } from './i18n.ts';

/**
 * What the panel needs of a client it is given: an mqtt.js MqttClient has it, and so has
 * the hub's in-process client of its embedded broker (how `npm start` runs the panel).
 */
export interface PanelMqttClient {
  readonly connected: boolean;
  on(event: 'message', listener: (topic: string, payload: Buffer) => void): unknown;
  on(event: 'connect', listener: () => void): unknown;
  off(event: 'message', listener: (topic: string, payload: Buffer) => void): unknown;
  off(event: 'connect', listener: () => void): unknown;
  subscribe(topics: Record<string, { qos: 0 | 1 }>, callback: (error: Error | null) => void): unknown;
  unsubscribeAsync(topics: string[]): Promise<unknown>;
  publishAsync(topic: string, payload: string, opts: { qos: 0 | 1 }): Promise<unknown>;
}

/** The options of `createWebPanel`, checked once at the edge; every error names the bad option. */
const mqttUrl = z.strictObject({
  url: z.string().regex(/^(mqtts?|wss?|tcp|ssl):\/\/\S+$/, 'a broker URL such as mqtt://127.0.0.1:1883'),
  username: z.string().min(1).optional(),
  password: z.string().optional(),
  clientId: z.string().min(1).max(100).optional(),
});
const PANEL_CLIENT_METHODS = ['on', 'off', 'subscribe', 'unsubscribeAsync', 'publishAsync'] as const;
const mqttClient = z.strictObject({
  client: z.custom<PanelMqttClient>(
    (v) => typeof v === 'object' && v !== null && PANEL_CLIENT_METHODS.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
    `an mqtt.js MqttClient (or a client with its ${PANEL_CLIENT_METHODS.join(', ')})`,
  ),
});

export const optionsSchema = z.strictObject({
  mqtt: z.union([mqttUrl, mqttClient], { error: `either { url, username?, password? } or { client } (an mqtt.js client, or one with ${PANEL_CLIENT_METHODS.join(', ')})` }),
  baseTopic: z.string().regex(/^[^#+\s]+[^#+\s/]$|^[^#+\s/]$/, 'an MQTT topic prefix without wildcards or a trailing /').default('billiards'),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8080),
  venue: z.strictObject({
    username: z.string().min(1).max(100),
    passwordHash: z.string().regex(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/, 'a hash made by hashPassword(): scrypt$N$r$p$salt$hash'),
  }),
  health: z.custom<() => { ok: boolean; [k: string]: unknown }>((v) => typeof v === 'function', 'a function returning { ok: boolean, … }').optional(),
  /** Replay clips of the hub's cameras (web/routes/clips.ts): list(table), file(table, id) and, optionally, tracks(table, id). */
  clips: z.custom<{ list: unknown; file: unknown; tracks?: unknown }>((v) => typeof v === 'object' && v !== null && typeof (v as { list?: unknown }).list === 'function' && typeof (v as { file?: unknown }).file === 'function', 'an object with list(table) and file(table, id)').optional(),
  /** The hub's cameras for the calibration page (web/routes/calibration.ts): calibration, snapshot, preview, findCorners, saveCalibration. */
  camera: z.custom<{ calibration: unknown }>((v) => typeof v === 'object' && v !== null && ['calibration', 'snapshot', 'preview', 'findCorners', 'saveCalibration'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function'), 'an object with calibration, snapshot, preview, findCorners and saveCalibration (the hub\'s TableCameras)').optional(),
  requestTimeoutMs: z.number().int().min(1).max(600_000).default(5000),
  clock: z.custom<() => number>((v) => typeof v === 'function', 'a function returning milliseconds since the epoch').default(() => Date.now),
  sessionTtlMs: z.number().int().min(1000).default(8 * 60 * 60 * 1000),
  /** Signs session ids so that logins outlive a restart (keep it secret and persistent: DATA_DIR/session.key); at least 32 bytes. */
  sessionKey: z.custom<Buffer>((v) => Buffer.isBuffer(v) && v.length >= 32, 'a Buffer of at least 32 random bytes').optional(),
  /** Where logged-out sessions are kept (DATA_DIR/sessions-ended), so a restart does not take them up again; with `sessionKey`. */
  sessionsEndedFile: z.string().min(1).optional(),
  loginAttemptsPerMinute: z.number().int().min(1).max(1000).default(5),
  /** The venue's language for every page; a browser's own choice (the switch, a cookie) overrides it. */
  language: z.enum(LANGS).default('en'),
  /** Take the client IP from X-Forwarded-For (only behind a trusted reverse proxy). */
  trustProxy: z.boolean().default(false),
  /** Serve HTTPS with this certificate and key (PEM text): the session cookie is then `Secure`. */
  tls: z.strictObject({ cert: z.string().includes('-----BEGIN', { message: 'a PEM certificate (chain)' }), key: z.string().includes('-----BEGIN', { message: 'a PEM private key' }) }).optional(),
});

export type WebPanelOptions = z.input<typeof optionsSchema>;
export type ResolvedOptions = z.output<typeof optionsSchema>;

export function parseOptions(input: unknown): ResolvedOptions {
  const parsed = optionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new TypeError(`createWebPanel: ${describeIssues('options', parsed.error, { first: true })}`);
}
