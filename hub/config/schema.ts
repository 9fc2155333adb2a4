import { z } from 'zod';
import { matchSchema } from '../matchlog/schema.ts';
import { RAILS, SKITTLES } from '../rules/ids.ts';
import { SKITTLE_LAYOUTS } from '../rules/catalogue.ts';
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

export const SCORING_MODES = ['sensors', 'tracker', 'camera', 'camera+sensors'] as const;
export type ScoringMode = (typeof SCORING_MODES)[number];

const point = z.tuple([z.number().finite(), z.number().finite()]);
export const cameraSchema = z
  .strictObject({
    /** A V4L2 device read through ffmpeg (`/dev/video0`)… */
    device: z.string().regex(/^\/dev\/[A-Za-z0-9_/.-]+$/, 'a device path such as /dev/video0').optional(),
    /** …or a video file (any format ffmpeg reads; `.y4m` without ffmpeg). */
    file: z.string().min(1).optional(),
    /** A file only: play it from this second on (a recording reviewed from a point; several cameras on one recording not in step). */
    fileStartSeconds: z.number().min(0).max(7 * 24 * 3600).optional(),
    width: z.number().int().min(16).max(4096).default(1280),
    height: z.number().int().min(16).max(4096).default(720),
    fps: z.number().min(1).max(240).default(30),
    /** Image pixels of the playing surface's corners: head-left, foot-left, foot-right, head-right (CONTRACT §5). */
    corners: z.array(point).length(4).optional(),
    /** Uncertainty of the camera-to-hub clock (capture latency jitter), ms: widens fusion's matching window. */
    clockToleranceMs: z.number().min(0).max(200).default(15),
    /** How long one reading of a shot (camera or sensors) waits for the other before it is scored alone. */
    pairWaitMs: z.number().int().min(100).max(60_000).default(5000),
    /**
     * Frames waiting for the detector before the oldest are dropped (and counted) to stay
     * live. Default: 2 for a device; half a second of frames for a file played at its rate.
     */
    maxBacklogFrames: z.number().int().min(1).max(600).optional(),
    /** Replay clips: seconds of video kept, and the disk they may use. */
    clipSeconds: z.number().min(1).max(60).default(8),
    clipBudgetMb: z.number().min(1).max(100_000).default(500),
    clipMaxAgeHours: z.number().min(0.1).max(24 * 365).default(72),
    /**
     * This camera's detector settings, over the hub's (`cameraProcessor.options`): the balls
     * (`carom` or `skittles`), which skittles stand where (`layout`, the catalogue's), the
     * table's playing surface in mm, the lens' k1 and horizontal field of view. Those not
     * given follow the table's `defaultMatch` game (hub/camera/detector-defaults.ts). Checked
     * again by the detector module in the camera's thread.
     */
    detector: z
      .strictObject({
        balls: z.enum(['carom', 'skittles']).optional(),
        layout: z.enum(SKITTLE_LAYOUTS).optional(),
        table: z.strictObject({ length: z.number().positive(), width: z.number().positive() }).optional(),
        k1: z.number().finite().optional(),
        fovDeg: z.number().gt(0).lt(180).optional(),
      })
      .optional(),
  })
  .refine((c) => (c.device === undefined) !== (c.file === undefined), 'give a device or a file (exactly one)')
  .refine((c) => c.fileStartSeconds === undefined || c.file !== undefined, { message: 'fileStartSeconds is for a file, not a device', path: ['fileStartSeconds'] });
export type CameraConfig = z.infer<typeof cameraSchema>;

const DEFAULT_RAILS = { '0': 'head', '1': 'foot', '2': 'left', '3': 'right' } as const;
/** Why a Firmata board cannot score piezo rails (docs/hardware.md, "Firmata"). */
export const FIRMATA_PIEZO_REASON =
  'a Firmata board cannot score piezo rails: 3 bytes per analog sample × 8 inputs × 500 samples/s = 12 kB/s, 57,600 baud carries 5.76 kB/s, and 2 ms sampling misses a 1 ms knock; use source type "serial" with the table firmware, or "rails": {}';

const tableObject = z.strictObject({
  id,
  name: z.string().min(1).max(80).optional(),
  source: sourceSchema,
  /** Piezo channel → rail (two channels may share a long rail). */
  rails: z.record(z.string().regex(/^[0-5]$/, 'a piezo channel 0–5'), z.enum(RAILS)),
  /** Tilt switch index → skittle. */
  skittles: z.record(z.string().regex(/^[0-6]$/, 'a skittle switch 0–6'), z.enum(SKITTLES)).default({}),
  /** Skittle switches: debounce, and which read high when the skittle is down (normally-closed or magnet switches). */
  switches: z.strictObject({ debounceMs: z.number().int().min(1).max(200).default(10), inverted: z.array(z.number().int().min(0).max(6)).max(7).default([]) }).default({ debounceMs: 10, inverted: [] }),
  thresholds: z.array(z.strictObject({ channel: z.number().int().min(0).max(6), threshold: z.number().int().min(0).max(255), refractoryMs: z.number().int().min(0).max(7000) })).default([]),
  /** A shot ends after this long with no hit and the bed quiet. */
  quietWindowMs: z.number().int().min(100).max(20_000).default(1500),
  /** Bed-vibration level at or below which the balls are taken to be at rest. */
  restVibrationLevel: z.number().int().min(0).max(255).default(12),
  /** Hits on one rail closer than this are one contact (two sensors on a long rail). */
  railMergeMs: z.number().min(0).max(200).default(15),
  /** Cross-talk: within this window a hit on another rail at most `crossRailRatio` of the loudest is its echo (0: off). */
  crossRailMs: z.number().min(0).max(50).default(4),
  crossRailRatio: z.number().gt(0).max(1).default(0.6),
  /**
   * The piezos and the click channel follow hub/rules/bounds.ts SENSOR_CALIBRATION (checked on the
   * table): shot events then carry the hits' amplitudes, which the engine uses to rule readings
   * out (docs/accuracy.md). Off by default: an uncalibrated amplitude would be false evidence.
   * The simulated table's sensors follow it always.
   */
  amplitudesCalibrated: z.boolean().default(false),
  defaultMatch: matchSchema.optional(),
  /**
   * Who scores: the sensors' shots (unknown facts go to the referee), an overhead tracker's
   * shots with ball ids (`tracker`: any tracker on the MQTT topic; `camera`: the hub's own
   * camera or the `/tracker/:table` page), or the camera fused with the sensors
   * (`camera+sensors`: ids from the camera, order and times from the sensors; docs/camera.md).
   */
  scoring: z.enum(SCORING_MODES, { error: (issue) => `'${String(issue.input)}' is not a scoring mode: use ${SCORING_MODES.join(', ')}` }).default('sensors'),
  /** An overhead camera on the hub (hub/camera/). */
  camera: cameraSchema.optional(),
});

/** Rails default to the four cushions, none on a Firmata board (which cannot carry them). */
export const tableSchema = z.preprocess(
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || 'rails' in v) return v;
    const source = (v as { source?: { type?: unknown } }).source;
    return { ...v, rails: source?.type === 'firmata' ? {} : DEFAULT_RAILS };
  },
  tableObject.superRefine((t, ctx) => {
    if (t.source.type === 'firmata' && Object.keys(t.rails).length > 0) ctx.addIssue({ code: 'custom', path: ['rails'], message: FIRMATA_PIEZO_REASON });
  }),
);

/**
 * A client of the embedded broker (docs/security.md). A role gives its topics: `display`
 * reads, `referee` also sends requests, `tracker` publishes on its `tables`' tracker
 * topics. Without a role, `publish` and `subscribe` list them (hub-owned topics stay the hub's).
 */
const brokerUserSchema = z.strictObject({
  username: z.string().min(1),
  passwordHash,
  role: z.enum(['display', 'referee', 'tracker']).optional(),
  tables: z.array(id).optional(),
  publish: z.array(z.string()).default([]),
  subscribe: z.array(z.string()).default(['#']),
}).refine((u) => u.role !== 'tracker' || (u.tables?.length ?? 0) > 0, { message: 'a tracker needs its tables (e.g. ["north-1"])', path: ['tables'] });

export const configSchema = z.strictObject({
  hub: z.strictObject({ id: id.default('hub'), baseTopic: z.string().regex(/^[A-Za-z0-9_/-]{1,60}$/).default('billiards') }).default({ id: 'hub', baseTopic: 'billiards' }),
  /** The venue's credentials: commands that change a match need them (CONTRACT §3). */
  venue: z.strictObject({ username: z.string().min(1).default('referee'), passwordHash }).optional(),
  broker: z
    .strictObject({
      /** Clients of the embedded broker and what they may do; none: anonymous read-only access is refused too. */
      users: z.array(brokerUserSchema).default([]),
      allowAnonymousRead: z.boolean().default(true),
      /** An external broker (MQTT_URL) that lets anonymous clients publish on the hub's topics is refused at start unless this is set. */
      allowOpenExternalBroker: z.boolean().default(false),
      /** Where the embedded broker listens (MQTT_HOST overrides): 127.0.0.1, or 0.0.0.0 / a LAN address for scoreboards on the venue network. */
      host: z.string().min(1).optional(),
    })
    .default({ users: [], allowAnonymousRead: true, allowOpenExternalBroker: false }),
  /** The event log: which status frames it keeps (hub/pipeline/status-frames.ts). */
  store: z
    .strictObject({
      statusFrames: z.enum(['all', 'changes']).default('all'),
      keepAliveMs: z.number().int().min(1000).max(3_600_000).default(60_000),
      /** Group commit window of the sensor stream (ms, hub/store/event-store.ts): an event waits at most this long more to be stored and published. */
      groupCommitMs: z.number().min(0).max(20).default(0),
      /**
       * Group commits of the sensor stream on a thread of their own (hub/store/store-writer.ts;
       * issue 18: a sixth of the hub thread's time in a flood). Off on a one-core board, where a
       * second thread only adds the hand-over.
       */
      writerThread: z.boolean().default(true),
    })
    .default({ statusFrames: 'all', keepAliveMs: 60_000, groupCommitMs: 0, writerThread: true }),
  // Up to 128 tables a hub (issue 18: the venue bench runs 16, 64 and 128); a bigger venue bridges hubs.
  tables: z.array(tableSchema).max(128).default([]),
  homeAssistant: z.strictObject({ discovery: z.boolean().default(false), prefix: z.string().default('homeassistant') }).default({ discovery: false, prefix: 'homeassistant' }),
});

export type HubConfig = z.infer<typeof configSchema>;
export type TableConfig = z.infer<typeof tableSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
