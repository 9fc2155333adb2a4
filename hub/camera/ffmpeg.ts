/**
 * ffmpeg command lines for the camera (Debian's /usr/bin/ffmpeg, a child process): capture
 * from a V4L2 device or decode a file, both to raw yuv420p frames of the configured size on
 * stdout; and encode a replay clip from raw frames on stdin.
 */
export const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

export interface CaptureInput {
  device?: string;
  file?: string;
  width: number;
  height: number;
  fps: number;
  /** A file: read at its own frame rate (a live-like source) rather than as fast as possible. */
  realtime?: boolean;
  /** A file: from this second on. */
  startSeconds?: number;
}

export function captureArgs(input: CaptureInput): string[] {
  const source = input.device
    ? ['-f', 'v4l2', '-framerate', String(input.fps), '-video_size', `${input.width}x${input.height}`, '-i', input.device]
    : [...(input.realtime ? ['-re'] : []), ...(input.startSeconds ? ['-ss', String(input.startSeconds)] : []), '-i', input.file!];
  // Scale to the configured size whatever the source gives: the frame size on the pipe is fixed.
  return ['-hide_banner', '-loglevel', 'error', '-nostdin', ...source, '-an', '-vf', `scale=${input.width}:${input.height}`, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'];
}

/** A clip from raw yuv420p frames on stdin: H.264 in MP4, playable by every browser. */
export function clipArgs(width: number, height: number, fps: number, out: string): string[] {
  return ['-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', String(fps), '-i', '-', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-f', 'mp4', '-y', out];
}
