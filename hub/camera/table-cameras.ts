import { join } from 'node:path';
import type { CameraHealth, TableState } from '../contract/mqtt.ts';
import type { TableConfig } from '../config/schema.ts';
import { Histogram, metric } from '../ops/metrics.ts';
import type { LogFn } from '../ops/log.ts';
import type { TrackerMessage } from '../pipeline/tracker.ts';
import type { HubClock } from '../tables/clock.ts';
import type { TableService } from '../tables/table-service.ts';
import { CameraSource, type ClipResult } from './camera-source.ts';
import { ClipStore, type ClipInfo } from './clips.ts';
import type { CameraPaths, ProcessorSpec } from './frame-processor.ts';
import type { CameraStats } from './frame-worker.ts';
import { CalibrationStore } from './calibration-store.ts';
import { visionOptions, type VisionOptions } from './vision-options.ts';
import { detectorDefaults } from './detector-defaults.ts';
import { calibrate } from '../vision/calibration.ts';
import { tableLines, type OverlayLine } from '../vision/table-lines.ts';
import { cueBallDoubts, type DoubtEvent } from '../vision/doubts.ts';
import { gameMarkings } from './game-markings.ts';
import { err, ok, type Result } from '../rules/result.ts';

/** What the calibration page shows of a table's camera. */
export interface CameraCalibrationView {
  table: string;
  width: number;
  height: number;
  corners: [number, number][] | null;
  /** From the calibration page (DATA_DIR), or the configuration file. */
  source: 'saved' | 'config' | null;
  savedAt: string | null;
  /** The table's markings through these corners, when they calibrate. */
  lines: OverlayLine[] | null;
}

/**
 * The hub's cameras: one CameraSource per table with a `camera` in its config. Their tracker
 * messages drive the table like a tracker's (strike, rest) and their shots are scored by the
 * table's scoring mode (`camera`: as a tracker's; `camera+sensors`: fused with the sensors;
 * `sensors`: not at all — the camera then only gives health and replay clips). A shot that
 * raises a prompt gets a replay clip.
 */
/** A table camera's health, as published on the table's health topic (the contract's type). */
export type { CameraHealth };

export interface TableCamerasOptions {
  dataDir: string;
  processor: ProcessorSpec | null;
  realtime: boolean;
  clock: HubClock;
  log: LogFn;
}

export class TableCameras {
  private readonly sources = new Map<string, { source: CameraSource; table: TableService; config: TableConfig }>();
  /** The detector settings (as JSON) each camera was last given: for the table's default game at start, then for the game on the table. */
  private readonly detectorKeys = new Map<string, string>();
  private readonly lastStatus = new Map<string, string>();
  readonly clips: ClipStore;
  /** From a frame's arrival in the worker to its tracker message on the hub's thread… the worker's part. */
  readonly latency = new Histogram([1, 2, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 250, 1000]);
  /** Every frame: its arrival in the worker to the detector done with it (queue included). */
  readonly frameLatency = new Histogram([1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 100, 250, 1000]);
  private clipsWritten = new Map<string, number>();
  private readonly lastHealth = new Map<string, string>();
  /** Frame time of each table's last strike. */
  private readonly strikeT = new Map<string, number>();

  /** Corners saved from the calibration page, laid over the configuration's. */
  readonly calibrations: CalibrationStore;

  constructor(private readonly opts: TableCamerasOptions) {
    this.clips = new ClipStore(join(opts.dataDir, 'clips'));
    this.calibrations = new CalibrationStore(join(opts.dataDir, 'camera-calibration.json'));
    if (this.calibrations.loadError) opts.log('warn', 'saved camera calibrations not used', { error: this.calibrations.loadError });
  }

  /** Starts the table's camera, if it has one; failures are logged, never thrown (the table scores on). */
  add(configured: TableConfig, table: TableService): void {
    if (!configured.camera) return;
    const saved = this.calibrations.corners(configured.id);
    const camera = saved ? { ...configured.camera, corners: saved } : configured.camera;
    const config: TableConfig = { ...configured, camera };
    const detector = this.opts.processor;
    const game = detectorDefaults(config.defaultMatch);
    if (camera.detector?.balls && game.balls && camera.detector.balls !== game.balls) {
      this.opts.log('warn', `camera detector set for ${camera.detector.balls} balls, but the table's game plays ${game.balls}: the camera's own setting is used`, { table: config.id, variant: config.defaultMatch?.variant });
    }
    // Without corners the worker runs video, health and clips; the detector starts once the camera is calibrated.
    if (detector && !camera.corners) this.opts.log('warn', 'camera has no corners yet: no detection until it is calibrated (docs/camera-calibration.md)', { table: config.id });
    const options = this.detectorOptions(config);
    this.detectorKeys.set(config.id, JSON.stringify(options));
    const source = new CameraSource({
      table: config.id,
      camera,
      processor: detector ? { ...detector, options } : detector,
      realtime: this.opts.realtime,
      now: () => this.opts.clock.now(),
      onMessage: (m, timeBase, latencyMs, frameT, paths) => {
        this.latency.observe(latencyMs);
        this.message(table, config, m, timeBase, frameT, paths);
      },
      onStats: (stats, frameLatencies) => {
        for (const ms of frameLatencies) this.frameLatency.observe(ms);
        // The table's health is published again when the camera's state or its video changes.
        const key = `${stats.state}:${stats.fps > 0}`;
        if (this.lastHealth.get(config.id) !== key) {
          this.lastHealth.set(config.id, key);
          table.refreshHealth();
        }
      },
      onError: (error) => this.opts.log('warn', 'camera', { table: config.id, error }),
      onEnded: () => this.opts.log('info', 'camera: the video ended', { table: config.id }),
    });
    this.sources.set(config.id, { source, table, config });
    source.start().catch((e: Error) => this.opts.log('error', 'camera did not start', { table: config.id, error: e.message }));
  }

  private message(table: TableService, config: TableConfig, m: TrackerMessage, timeBase: number, frameT: number, paths?: CameraPaths): void {
    if (config.scoring !== 'camera' && config.scoring !== 'camera+sensors') return; // health and clips only
    try {
      if (m.type === 'strike') {
        this.strikeT.set(table.id, frameT);
        // The detector sees a strike a frame or two after it happened (the ball must move first).
        const frameMs = 1000 / config.camera!.fps;
        table.strike({ at: timeBase + frameT, lateMs: 3 * frameMs + config.camera!.clockToleranceMs });
        return;
      }
      if (m.type === 'rest') return table.trackerRest(timeBase + frameT);
      if (config.scoring === 'camera') {
        // Scored as a tracker's shot: event times from the strike (CONTRACT §1.2), not from the video's start.
        const from = this.strikeT.get(table.id) ?? 0;
        // The tracker does not know which ball the player strikes; the match does (doubts.ts).
        const cueBall = table.cueBall();
        const doubted = paths && cueBall ? (cueBallDoubts(m.shot.events as DoubtEvent[], paths.paths, cueBall) as typeof m.shot.events) : m.shot.events;
        const events = doubted.map((e) => (e.t === undefined ? e : { ...e, t: Math.max(0, Math.round(e.t - from)) }));
        const applied = table.trackerShot({ ...m.shot, events });
        if (!applied.ok) this.opts.log('warn', 'camera shot refused', { table: table.id, error: applied.error });
      } else {
        const applied = table.cameraShot(m.shot, timeBase, paths);
        if (!applied.ok) this.opts.log('warn', 'camera shot refused', { table: table.id, error: applied.error });
      }
    } catch (e) {
      this.opts.log('error', 'camera message failed', { table: table.id, error: (e as Error).message });
    }
  }

  /** Every published table state: a new prompt asks for a clip; another game on the table, another detector. */
  onState(state: TableState): void {
    const before = this.lastStatus.get(state.table);
    this.lastStatus.set(state.table, state.status);
    if (state.status === 'awaiting-referee' && before !== 'awaiting-referee' && this.sources.has(state.table)) {
      void this.clip(state.table, 'prompt', state.shotCount + 1);
    }
    if (state.match) this.followGame(state.table, state.match);
  }

  /**
   * The detector follows the game being played, not only the table's `defaultMatch`: five
   * skittles and carom share a carom table, and a hub restarted mid-match resumes whatever was
   * on. A match whose balls, skittles or table differ from the detector's rebuilds it (at a
   * match's start the balls are at rest; the camera's own `detector` settings still win).
   */
  private followGame(tableId: string, match: NonNullable<TableState['match']>): void {
    const entry = this.sources.get(tableId);
    if (!entry || !this.opts.processor) return;
    const options = this.detectorOptions(entry.config, match);
    const key = JSON.stringify(options);
    const previous = this.detectorKeys.get(tableId) ?? '';
    if (key === previous) return;
    this.detectorKeys.set(tableId, key);
    void entry.source.redetect(options).then((r) => {
      if (r.ok) return this.opts.log('info', 'camera detector set for the game on the table', { table: tableId, variant: match.variant });
      // Tried again at the table's next state (a camera not started yet, say).
      if (this.detectorKeys.get(tableId) === key) this.detectorKeys.set(tableId, previous);
      this.opts.log('warn', 'camera detector not changed for the game on the table', { table: tableId, variant: match.variant, error: r.error });
    });
  }

  /** Writes a clip of the table's last seconds; then expires old ones. */
  async clip(tableId: string, reason: 'prompt' | 'request', shot: number): Promise<ClipResult & { id?: string }> {
    const entry = this.sources.get(tableId);
    if (!entry) return { ok: false, path: '', frames: 0, error: `table '${tableId}' has no camera` };
    const id = this.clips.newId(reason, Date.now(), shot);
    const result = await entry.source.clip(this.clips.path(tableId, id)!, this.clips.tracksPath(tableId, id)!);
    if (!result.ok) this.opts.log('warn', 'replay clip not written', { table: tableId, error: result.error });
    else this.clipsWritten.set(tableId, (this.clipsWritten.get(tableId) ?? 0) + 1);
    const cam = entry.config.camera!;
    this.clips.expire(tableId, Date.now(), cam.clipMaxAgeHours * 3_600_000, cam.clipBudgetMb * 1024 * 1024);
    return { ...result, id };
  }

  /** Hub time of the table camera's t = 0, once its first frame came. */
  timeBase(tableId: string): number | null {
    return this.sources.get(tableId)?.source.timeBase ?? null;
  }

  list(tableId: string): ClipInfo[] {
    return this.clips.list(tableId);
  }

  /** The camera worker's latest stats (with whether a detector runs), or null. */
  stats(tableId: string): CameraStats | null {
    return this.sources.get(tableId)?.source.stats ?? null;
  }

  health(tableId: string): CameraHealth | null {
    const entry = this.sources.get(tableId);
    if (!entry) return null;
    const s = entry.source.stats;
    return { fps: s.fps, frames: s.frames, dropped: s.dropped, state: s.state, motion: Math.round(s.motion * 10) / 10, clips: this.clipsWritten.get(tableId) ?? 0 };
  }

  metrics(): string[] {
    const rows = [...this.sources.keys()].map((id) => ({ id, h: this.health(id)! }));
    if (rows.length === 0) return [];
    const STATES: CameraStats['state'][] = ['table-clear', 'balls-moving', 'hand-on-table', 'motion', 'no-video'];
    return [
      metric('billiards_camera_fps', 'gauge', 'Camera frames per second over the last second', rows.map((r) => ({ labels: { table: r.id }, value: r.h.fps }))),
      metric('billiards_camera_frames_total', 'counter', 'Camera frames processed', rows.map((r) => ({ labels: { table: r.id }, value: r.h.frames }))),
      metric('billiards_camera_frames_dropped_total', 'counter', 'Camera frames lost (gaps from the device) or skipped to stay live', rows.map((r) => ({ labels: { table: r.id }, value: r.h.dropped }))),
      metric('billiards_camera_state', 'gauge', 'Detection state (1 for the current one)', rows.flatMap((r) => STATES.map((s) => ({ labels: { table: r.id, state: s }, value: r.h.state === s ? 1 : 0 })))),
      metric('billiards_camera_clips_total', 'counter', 'Replay clips written', rows.map((r) => ({ labels: { table: r.id }, value: r.h.clips }))),
      this.latency.render('billiards_camera_message_latency_ms', 'From a frame reaching the camera worker to the tracker message it ended'),
      this.frameLatency.render('billiards_camera_frame_latency_ms', 'From a frame reaching the camera worker to the detector done with it (queue included)'),
    ];
  }

  /** The detector's settings for a table: the hub's, then what the game says (balls, skittles, table size; the table's default unless another is on), then the camera's own. */
  private detectorOptions(config: TableConfig, match: { variant: string; options?: Record<string, unknown> } | undefined = config.defaultMatch): Record<string, unknown> {
    return { ...(this.opts.processor?.options as object | undefined), ...detectorDefaults(match), ...config.camera?.detector };
  }

  /** The detector's view of a table (size, lens), for checking corners where the detector would. */
  private vision(config: TableConfig): VisionOptions {
    try {
      return visionOptions(this.detectorOptions(config));
    } catch {
      return visionOptions({});
    }
  }

  /** The table's markings through these corners, or why they do not calibrate. */
  preview(tableId: string, corners: [number, number][]): Result<OverlayLine[]> {
    const entry = this.sources.get(tableId);
    if (!entry) return err(`table '${tableId}' has no camera`);
    const v = this.vision(entry.config);
    const cam = entry.config.camera!;
    const cal = calibrate({ width: cam.width, height: cam.height, corners, table: v.table, k1: v.k1, ...(v.fovDeg !== undefined ? { fovDeg: v.fovDeg } : {}) });
    if (!cal.ok) return err(cal.error);
    return ok(tableLines(cal.value, gameMarkings(entry.table.state().variant ?? entry.config.defaultMatch?.variant ?? null, v.table)));
  }

  calibration(tableId: string): CameraCalibrationView | null {
    const entry = this.sources.get(tableId);
    if (!entry) return null;
    const cam = entry.config.camera!;
    const corners = cam.corners ? cam.corners.map(([x, y]) => [x, y] as [number, number]) : null;
    const savedAt = this.calibrations.savedAt(tableId);
    const lines = corners ? this.preview(tableId, corners) : null;
    return { table: tableId, width: cam.width, height: cam.height, corners, source: savedAt ? 'saved' : corners ? 'config' : null, savedAt, lines: lines?.ok ? lines.value : null };
  }

  /** The newest frame of the table's camera, as a PNG. */
  async snapshot(tableId: string): Promise<Result<Uint8Array>> {
    const entry = this.sources.get(tableId);
    if (!entry) return err(`table '${tableId}' has no camera`);
    const r = await entry.source.snapshot();
    return r.ok ? ok(r.png) : err(r.error);
  }

  /** "Find automatically": corners from the newest frame, in the orientation of the current ones. */
  async findCorners(tableId: string): Promise<Result<[number, number][]>> {
    const entry = this.sources.get(tableId);
    if (!entry) return err(`table '${tableId}' has no camera`);
    const v = this.vision(entry.config);
    const near = entry.config.camera!.corners?.map(([x, y]) => [x, y] as [number, number]) ?? null;
    const r = await entry.source.findCorners(v.table, v.k1, near);
    return r.ok ? ok(r.corners) : err(r.error);
  }

  /**
   * Saves a table's corners: checked as the detector would calibrate on them, then written
   * to DATA_DIR (durable before visible), then applied to the running camera. A refusal
   * changes nothing.
   */
  async saveCalibration(tableId: string, corners: [number, number][]): Promise<Result<CameraCalibrationView>> {
    const entry = this.sources.get(tableId);
    if (!entry) return err(`table '${tableId}' has no camera`);
    const checked = this.preview(tableId, corners);
    if (!checked.ok) return checked;
    try {
      this.calibrations.save(tableId, corners, new Date(this.opts.clock.now()).toISOString());
    } catch (e) {
      return err(`the calibration could not be saved: ${(e as Error).message}`);
    }
    entry.config = { ...entry.config, camera: { ...entry.config.camera!, corners } };
    const live = await entry.source.recalibrate(corners);
    if (!live.ok) this.opts.log('warn', 'camera calibration saved, not yet applied to the running camera', { table: tableId, error: live.error });
    this.opts.log('info', 'camera calibrated', { table: tableId, corners });
    return ok(this.calibration(tableId)!);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sources.values()].map((e) => e.source.stop().catch(() => undefined)));
    this.sources.clear();
  }
}
