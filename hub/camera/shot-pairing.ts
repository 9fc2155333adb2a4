import type { Shot, ShotEvent } from '../rules/events.ts';
import { fuseShot } from './fusion.ts';
import type { CameraPaths } from './frame-processor.ts';
import { fuseWithTracks } from './track-fusion.ts';

/**
 * A table in `camera+sensors` scoring gets each shot twice: the segmenter cuts the sensors'
 * shot when the table goes quiet, the camera's detector reports its shot when the balls
 * rest. Whichever comes first waits here for the other (at most `waitMs`); the pair is
 * fused (fusion.ts, or track-fusion.ts when the camera sent its ball paths) and scored once. The sensors' readings wait in order: a camera whose
 * detector runs behind (a busy hub) by more than a shot still meets each shot's sensors;
 * a camera reading whose contacts come before the waiting sensors' shot began belongs to
 * a shot already scored, and is late. A shot whose partner never comes is scored alone:
 * the sensors' (every id unknown, so the engine asks) or the camera's (its ids are right
 * or null by the detector's own contract). Pure: time comes in as arguments.
 */
export interface PairingOptions {
  /** How long one reading of a shot waits for the other. */
  waitMs: number;
  /** The camera's frame interval (ms): a contact is seen up to one frame late. */
  frameMs: number;
  /** Uncertainty of the camera-to-hub time mapping (ms). */
  clockToleranceMs: number;
  score: (shot: Shot, how: PairedBy) => void;
}

/** `late`: the partner of a shot already scored alone — kept for the record, never scored twice. */
export type PairedBy = 'fused' | 'sensors-alone' | 'camera-alone' | 'not-the-same-shot' | 'late';

interface SensorReading {
  events: ShotEvent[];
  /** Hub time (ms) the sensors' shot started: its events' `t` count from here. */
  startedAt: number;
  at: number;
}

interface CameraReading {
  shot: Shot;
  /** Hub time (ms) of the camera's `t` = 0, or null when unknown (no strike seen). */
  timeBase: number | null;
  at: number;
  /** The shot's ball paths (the hub's own detector): fused by track fusion. */
  paths?: CameraPaths;
}

export interface PairingCounts {
  fused: number;
  sensorsAlone: number;
  cameraAlone: number;
  notTheSameShot: number;
  late: number;
  /** Empty sensors' shots dropped because the camera saw no ball leave its place. */
  withdrawn: number;
  /** Sensor contacts given ids by the camera, and left unknown. */
  identified: number;
  unknown: number;
}

export class ShotPairing {
  private readonly sensors: SensorReading[] = [];
  private camera: CameraReading | null = null;
  /** The last reading scored alone: when it came, so its late partner is recognised. */
  private alone: { kind: 'sensors' | 'camera'; at: number } | null = null;
  readonly counts: PairingCounts = { fused: 0, sensorsAlone: 0, cameraAlone: 0, notTheSameShot: 0, late: 0, withdrawn: 0, identified: 0, unknown: 0 };

  constructor(private readonly opts: PairingOptions) {
    if (!(opts.waitMs > 0) || !(opts.frameMs > 0) || !(opts.clockToleranceMs >= 0)) throw new Error('shot pairing: waitMs and frameMs must be > 0, clockToleranceMs ≥ 0');
  }

  sensorShot(events: ShotEvent[], startedAt: number, now: number): void {
    if (this.alone?.kind === 'camera' && startedAt < this.alone.at) return this.late({ events });
    this.sensors.push({ events, startedAt, at: now });
    this.pair();
  }

  cameraShot(shot: Shot, timeBase: number | null, now: number, paths?: CameraPaths): void {
    if (this.camera) this.flushCamera();
    const head = this.sensors[0];
    if (head ? this.before(shot, timeBase, head.startedAt) : this.alone?.kind === 'sensors' && (timeBase ?? now) < this.alone.at) return this.late(shot);
    this.camera = { shot, timeBase, at: now, ...(paths ? { paths } : {}) };
    this.pair();
  }

  /**
   * The camera saw no shot after its strike (no ball left its place): the newest sensors'
   * reading waiting for it, if it holds no event at all, was none either — dropped, not
   * scored as an empty shot (a miss). Returns whether one was dropped.
   */
  noCameraShot(): boolean {
    const last = this.sensors.at(-1);
    if (!last || last.events.length > 0) return false;
    this.sensors.pop();
    this.counts.withdrawn += 1;
    return true;
  }

  /** Scores a reading whose partner did not come in time. */
  tick(now: number): void {
    while (this.sensors.length > 0 && now - this.sensors[0]!.at >= this.opts.waitMs) this.flushSensor();
    if (this.camera && now - this.camera.at >= this.opts.waitMs) this.flushCamera();
  }

  /** A reading is waiting for its partner. */
  get waiting(): boolean {
    return this.sensors.length > 0 || this.camera !== null;
  }

  /** The camera's shot had its first contact (hub time) before a sensors' shot that began at `startedAt`: it is an earlier shot's. */
  private before(shot: Shot, timeBase: number | null, startedAt: number): boolean {
    if (timeBase === null) return false;
    const times = shot.events.flatMap((e) => (e.t === undefined ? [] : [e.t]));
    if (times.length === 0) return false;
    return timeBase + Math.min(...times) < startedAt - this.opts.frameMs - this.opts.clockToleranceMs;
  }

  private late(shot: Shot): void {
    this.alone = null;
    this.counts.late += 1;
    this.opts.score(shot, 'late');
  }

  private pair(): void {
    const sensor = this.sensors[0];
    const camera = this.camera;
    if (!sensor || !camera) return;
    this.sensors.shift();
    this.camera = null;
    this.alone = null;
    if (camera.timeBase === null) {
      // No common clock: no contact can be matched. The sensors' shot, ids unknown.
      this.counts.sensorsAlone += 1;
      this.opts.score({ events: sensor.events }, 'sensors-alone');
      return;
    }
    const contactOptions = {
      offsetMs: camera.timeBase - sensor.startedAt - this.opts.frameMs / 2,
      toleranceMs: this.opts.frameMs / 2 + this.opts.clockToleranceMs,
    };
    // A path's times are its frames' own stamps: off by the clock mapping only.
    const fused = camera.paths
      ? fuseWithTracks({ events: sensor.events }, camera.shot, camera.paths, { ...contactOptions, pathOffsetMs: camera.timeBase - sensor.startedAt, pathToleranceMs: this.opts.clockToleranceMs, table: camera.paths.table, ...(camera.paths.skittles ? { skittles: camera.paths.skittles } : {}) })
      : fuseShot({ events: sensor.events }, camera.shot, contactOptions);
    const cameraContacts = camera.shot.events.filter((e) => e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle').length;
    const sensorContacts = sensor.events.filter((e) => e.kind === 'ball' || e.kind === 'cushion' || e.kind === 'skittle').length;
    const byContacts = 'byContacts' in fused ? fused.byContacts : fused.identified;
    if (cameraContacts > 0 && sensorContacts > 0 && byContacts === 0 && fused.unmatchedCamera === cameraContacts) {
      // Not one contact lines up: two different shots (or clocks far apart). Nothing of the camera's is used.
      this.counts.notTheSameShot += 1;
      this.opts.score({ events: sensor.events }, 'not-the-same-shot');
      return;
    }
    this.counts.fused += 1;
    this.counts.identified += fused.identified;
    this.counts.unknown += fused.unknown;
    this.opts.score(fused.shot, 'fused');
  }

  private flushSensor(): void {
    const s = this.sensors.shift()!;
    this.alone = { kind: 'sensors', at: s.at };
    this.counts.sensorsAlone += 1;
    this.opts.score({ events: s.events }, 'sensors-alone');
  }

  private flushCamera(): void {
    const c = this.camera!;
    this.camera = null;
    this.alone = { kind: 'camera', at: c.at };
    this.counts.cameraAlone += 1;
    this.opts.score(c.shot, 'camera-alone');
  }
}
