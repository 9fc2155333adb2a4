import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { encodeY4mFrame, encodeY4mHeader } from '../../../hub/vision/y4m.ts';
import type { Clip } from './clip.ts';

/** Writes a rendered clip as .y4m (4:2:0, full range as rendered). */
export function writeClipY4m(clip: Clip, path: string): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, encodeY4mHeader({ width: clip.camera.lens.width, height: clip.camera.lens.height, fpsNum: clip.fps, fpsDen: 1, colour: '420jpeg' }));
    for (let i = 0; i < clip.frameCount; i++) writeSync(fd, encodeY4mFrame(clip.frame(i)));
  } finally {
    closeSync(fd);
  }
}

export type Codec = 'h264' | 'mjpeg' | 'mpeg4';

const ARGS: Record<Codec, string[]> = {
  h264: ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
  mjpeg: ['-c:v', 'mjpeg', '-q:v', '5', '-pix_fmt', 'yuvj420p'],
  mpeg4: ['-c:v', 'mpeg4', '-q:v', '5'],
};

/** Lossy compression as a camera or a stream applies it: encode with ffmpeg, decode back to .y4m. */
export function ffmpegCompress(ffmpeg: string, input: string, encoded: string, codec: Codec): void {
  run(ffmpeg, ['-y', '-v', 'error', '-i', input, ...ARGS[codec], encoded]);
}

export function ffmpegToY4m(ffmpeg: string, input: string, output: string): void {
  run(ffmpeg, ['-y', '-v', 'error', '-i', input, '-f', 'yuv4mpegpipe', '-pix_fmt', 'yuv420p', '-strict', '-1', output]);
}

function run(ffmpeg: string, args: string[]): void {
  const r = spawnSync(ffmpeg, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${r.stderr?.trim().split('\n').at(-1)}`);
}
