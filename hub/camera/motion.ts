/**
 * A cheap motion measure for the camera's health: the mean absolute difference of a sparse
 * grid of luma samples between consecutive frames (0–255). Sensor noise stays around 1–2;
 * a hand or a rolling ball over the table lifts it.
 */
export class MotionMeter {
  private previous: Uint8Array | null = null;
  level = 0;

  constructor(private readonly width: number, private readonly height: number, private readonly step = 8) {}

  push(frame: Uint8Array): number {
    const cols = Math.floor(this.width / this.step);
    const rows = Math.floor(this.height / this.step);
    const sample = new Uint8Array(cols * rows);
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) sample[y * cols + x] = frame[y * this.step * this.width + x * this.step]!;
    if (this.previous) {
      let sum = 0;
      for (let i = 0; i < sample.length; i++) sum += Math.abs(sample[i]! - this.previous[i]!);
      this.level = sample.length > 0 ? sum / sample.length : 0;
    }
    this.previous = sample;
    return this.level;
  }
}

export type DetectionState = 'table-clear' | 'balls-moving' | 'hand-on-table' | 'motion' | 'no-video';

/**
 * The table as the camera sees it: balls moving between the tracker's strike and rest;
 * otherwise motion over the table is a hand, a cue or a player (with a detector), or just
 * "motion" (without one: a frame difference cannot tell balls from hands).
 */
export function detectionState(inShot: boolean, motionLevel: number, hasDetector: boolean, threshold = 3): DetectionState {
  if (inShot) return 'balls-moving';
  if (motionLevel < threshold) return 'table-clear';
  return hasDetector ? 'hand-on-table' : 'motion';
}
