import { z } from 'zod';
import type { CameraHealth } from '../camera/camera-health.ts';
import type { MatchView } from '../rules/view.ts';
import { matchSchema, refereeSchema, shotSchema } from '../matchlog/schema.ts';
import { FOUL_KINDS } from '../rules/ids.ts';
import { generateSchema, manualResultSchema, seasonSchema } from '../league/types.ts';

/**
 * The one typed map of MQTT topics and payloads (CONTRACT §3), shared by the hub and the
 * web panel. Everything under the base topic, `billiards` unless configured.
 */
export const DEFAULT_BASE_TOPIC = 'billiards';

export const topics = (base = DEFAULT_BASE_TOPIC) => ({
  bridgeState: `${base}/bridge/state`,
  /** Extension: one retained state per hub, so several hubs on one broker each have their own. */
  hubState: (hub: string) => `${base}/hubs/${hub}/state`,
  tableState: (table: string) => `${base}/tables/${table}/state`,
  tableAvailability: (table: string) => `${base}/tables/${table}/availability`,
  tableEvents: (table: string) => `${base}/tables/${table}/events`,
  /** Extension: link health of a table's board (heartbeat age, dropped frames, alerts). */
  tableHealth: (table: string) => `${base}/tables/${table}/health`,
  /** Extension: an overhead tracker's facts for a table (ball ids, positions). */
  tableTracker: (table: string) => `${base}/tables/${table}/tracker`,
  request: (command: string) => `${base}/request/${command}`,
  response: (command: string) => `${base}/response/${command}`,
  allTableStates: `${base}/tables/+/state`,
  allTableAvailability: `${base}/tables/+/availability`,
  allTableEvents: `${base}/tables/+/events`,
  allTableHealth: `${base}/tables/+/health`,
  /** Command names may have levels of their own (`match/start`). */
  allRequests: `${base}/request/#`,
  /** Extension (issue 8): the house league's retained state (LeagueState in hub/league/service.ts). */
  leagueState: `${base}/league/state`,
});

/** `billiards/tables/<table>/state`: the replay object plus the table's bookkeeping. */
export interface TableState extends Omit<MatchView, 'status' | 'variant'> {
  /** `idle`: the table has no match yet (extension). */
  status: MatchView['status'] | 'idle';
  variant: MatchView['variant'] | null;
  table: string;
  /** Increases by one on every change of this table's state. */
  seq: number;
  updatedAt: string;
  /** All shots of the match; `shots` holds only the most recent 20. */
  shotCount: number;
  /** Extension: the hub that owns the table, and whether its sensors are simulated. */
  hub: string;
  simulated: boolean;
  /** Extension: when the last shot ended (ISO 8601), for the shot clock. */
  lastShotEndedAt: string | null;
  /** Extension: shots from the sensors waiting for the referee's ruling on an earlier one. */
  pendingShots: number;
  /** Extension: fouls and a declaration the referee entered for the next shot (`match/next-shot`). */
  nextShot: { declare: 'safety' | 'carom' | null; fouls: { foul: string; by: 'shooter' | 'opponent' }[] } | null;
  /** Extension: the setup of the match being played. */
  match: { variant: string; players: string[]; target: number; options: Record<string, unknown> } | null;
  /** Extension: the table's display name (config `name`); displays say "Table <id>" in their language without it. */
  name?: string;
  /** Extension: when the match being played started (ISO 8601), for the match clock. */
  matchStartedAt?: string;
  /** Extension: the referee's score adjustments of this match, with their reasons and the shot they followed. */
  adjustments?: { player: string; delta: number; reason: string; afterShot: number }[];
}

export interface Availability {
  state: 'online' | 'offline';
}

export interface TableHealth {
  table: string;
  link: 'up' | 'down';
  lastHeartbeatAt: string | null;
  framesDropped: number;
  boardResets: number;
  /** Extension (issue 20): the board's boot id and which of the hub's settings it has acknowledged since that boot. */
  board?: { bootId: number | null; confirmed: number; pending: number; rejected: number; unsupported: number; unconfirmed: string[] };
  alerts: { kind: 'stuck-skittle' | 'silent-rail' | 'prompt-waiting' | 'link-down'; detail: string; since: string }[];
  /** Extension (issue 16): the table's overhead camera, when it has one. */
  camera?: CameraHealth;
}

/** `billiards/tables/<table>/events`: each timestamped sensor event and each shot result. */
export type TableEvent =
  | {
      type: 'sensor';
      table: string;
      at: string;
      /** Hub monotonic time (ms) and the board's own time and frame sequence. */
      hubTime: number;
      boardUs: number | null;
      seq: number | null;
      sensor: 'rail-hit' | 'click' | 'vibration' | 'skittle' | 'link';
      rail?: string;
      channel?: number;
      skittle?: string;
      state?: string;
      amplitude?: number;
      level?: number;
    }
  | { type: 'shot'; table: string; at: string; result: MatchView['shots'][number] | null; events: unknown[]; prompt: boolean }
  | { type: 'match'; table: string; at: string; action: 'started' | 'referee'; detail: unknown };

/**
 * Requests (CONTRACT §3): `{"transaction": "…", …}`. No password travels in a request: who
 * may send one is decided by the broker at CONNECT and per topic (docs/security.md).
 */
const base = { transaction: z.string().min(1).max(100) };
const auth = base;
const table = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a table id: letters, digits, - and _ (at most 40)');

export const commandSchemas = {
  'match/start': z.strictObject({ ...auth, table, ...matchSchema.shape }),
  'match/shot': z.strictObject({ ...auth, table, shot: shotSchema }),
  'match/referee': z.strictObject({ ...auth, table, referee: refereeSchema }),
  /** Extension (web panel): fouls and a declaration for the next shot the table cuts; an empty one clears them. */
  'match/next-shot': z.strictObject({
    ...auth,
    table,
    declare: z.enum(['safety', 'carom']).nullable(),
    fouls: z.array(z.strictObject({ foul: z.enum(FOUL_KINDS), by: z.enum(['shooter', 'opponent']) })).max(9),
  }),
  'match/export': z.strictObject({ ...base, table, format: z.enum(['jsonl', 'csv']) }),
  'table/thresholds': z.strictObject({
    ...auth,
    table,
    channels: z.array(z.strictObject({ channel: z.number().int().min(0).max(6), threshold: z.number().int().min(0).max(255), refractoryMs: z.number().int().min(0).max(7000) })).min(1).max(7),
  }),
  'hub/tables': z.strictObject({ ...base }),
  /** Extension (issue 8): the house league. */
  'league/setup': z.strictObject({ ...auth, season: seasonSchema }),
  'league/generate-fixtures': z.strictObject({ ...auth, ...generateSchema.shape }),
  'league/start-fixture': z.strictObject({ ...auth, table, fixture: z.string().min(1).max(100) }),
  'league/result': z.strictObject({ ...auth, ...manualResultSchema.shape }),
  'league/export': z.strictObject({ ...base, what: z.enum(['standings', 'results']), season: z.string().min(1).max(40).optional() }),
} as const;

export type CommandName = keyof typeof commandSchemas;
export type CommandRequest<C extends CommandName> = z.infer<(typeof commandSchemas)[C]>;
export const COMMANDS = Object.keys(commandSchemas) as CommandName[];

export interface CommandResponse {
  transaction: string | null;
  status: 'ok' | 'error';
  data?: unknown;
  error?: string;
}
