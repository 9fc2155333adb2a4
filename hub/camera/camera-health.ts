import type { CameraStats } from './frame-worker.ts';

/** One camera's health, as the hub publishes it in its table's health message. */
export interface CameraHealth {
  /** Frames per second over the last second. */
  fps: number;
  frames: number;
  dropped: number;
  state: CameraStats['state'];
  /** Mean frame difference (0–255): motion over the table. */
  motion: number;
  clips: number;
}
