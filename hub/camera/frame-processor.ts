import type { TrackerMessage } from '../pipeline/tracker.ts';
import type { ShotPaths } from '../vision/tracker.ts';

/**
 * The seam between the hub's camera plumbing (sources, worker, clips, health) and the
 * detector/tracker of issue 15 (hub/vision/): one frame in, the tracker messages it ends
 * (CONTRACT §3) out. Event `t` in those messages counts on the frames' clock (`t` of the
 * frames pushed), so the hub can put them on its own clock for fusion.
 */
export interface VideoFrame {
  width: number;
  height: number;
  format: 'yuv420p';
  /** Y plane (width × height), then U and V (each ⌈width/2⌉ × ⌈height/2⌉). */
  data: Uint8Array;
  /** ms on the source's clock: 0 at the source's first frame. */
  t: number;
}

export interface FrameProcessor {
  push(frame: VideoFrame): TrackerMessage[];
  /** Where each ball is in the last frame pushed, image pixels (drawn over the replay clips). */
  positions?(): Record<string, [number, number]> | null;
  /** The paths of the shot the last `shot` message reported, for track fusion (hub/camera/track-fusion.ts). */
  shotPaths?(): CameraPaths | null;
}

/** A shot's ball paths (table mm, frames' clock) with the geometry track fusion needs. */
export interface CameraPaths extends ShotPaths {
  table: { length: number; width: number };
  skittles?: { id: string; at: [number, number]; radius: number }[];
}

/**
 * How a worker builds the processor: a module (URL or path) whose export `createFrameProcessor`
 * takes these options. A module, not an object, because a worker cannot receive a function.
 */
export interface ProcessorSpec {
  module: string;
  options?: unknown;
  /** The detector cannot run without the table's corners: a camera without them gives video, health and clips only. */
  needsCorners?: boolean;
}

export type CreateFrameProcessor = (options: { width: number; height: number; fps: number; corners?: readonly (readonly [number, number])[]; options?: unknown }) => FrameProcessor | Promise<FrameProcessor>;

/** Bytes of one yuv420p frame. */
export function frameBytes(width: number, height: number): number {
  return width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
}
