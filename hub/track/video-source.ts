import { spawn } from 'node:child_process';
import { accessSync, constants, createReadStream, openSync, readSync, closeSync } from 'node:fs';
import type { Frame } from '../vision/frame.ts';
import { Y4mReader, type Y4mHeader } from '../vision/y4m.ts';

/**
 * Frames from a video file (the Node edge of the tracker): a .y4m is read directly; any
 * other format goes through ffmpeg (`-f yuv4mpegpipe -pix_fmt yuv420p`) when it is
 * installed, so the same reader parses both.
 */
export class VideoError extends Error {}

export const FFMPEG_CANDIDATES = ['/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'];

export function findFfmpeg(): string | null {
  for (const p of FFMPEG_CANDIDATES) {
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

function isY4m(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new VideoError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const head = Buffer.alloc(9);
    const n = readSync(fd, head, 0, 9, 0);
    return n === 9 && head.toString('latin1') === 'YUV4MPEG2';
  } finally {
    closeSync(fd);
  }
}

/** Calls `onHeader` once, then `onFrame` per frame in order; resolves at the end of the video. */
export async function readVideo(path: string, onHeader: (h: Y4mHeader) => void, onFrame: (f: Frame, index: number) => void): Promise<void> {
  const reader = new Y4mReader();
  let index = 0;
  let headerSeen = false;
  const feed = (chunk: Uint8Array) => {
    const frames = reader.push(chunk);
    if (!headerSeen && reader.header) {
      headerSeen = true;
      onHeader(reader.header);
    }
    for (const f of frames) onFrame(f, index++);
  };
  if (isY4m(path)) {
    const stream = createReadStream(path, { highWaterMark: 1 << 20 });
    try {
      for await (const chunk of stream) feed(chunk as Buffer);
    } catch (e) {
      if (e instanceof VideoError) throw e;
      throw new VideoError(`${path}: ${(e as Error).message}`);
    }
    try {
      reader.end();
    } catch (e) {
      throw new VideoError(`${path}: ${(e as Error).message}`);
    }
    return;
  }
  const ffmpeg = findFfmpeg();
  if (!ffmpeg) throw new VideoError(`${path} is not a .y4m (YUV4MPEG2) file and ffmpeg is not installed to convert it`);
  const child = spawn(ffmpeg, ['-v', 'error', '-nostdin', '-i', path, '-f', 'yuv4mpegpipe', '-pix_fmt', 'yuv420p', '-strict', '-1', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4000) stderr += d.toString();
  });
  const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  try {
    for await (const chunk of child.stdout) feed(chunk as Buffer);
  } catch (e) {
    child.kill();
    throw new VideoError(`${path}: ${(e as Error).message}`);
  }
  const code = await exit;
  if (code !== 0 || !reader.header) throw new VideoError(`ffmpeg cannot read ${path}: ${stderr.trim().split('\n').at(-1) ?? `exit ${code}`}`);
  try {
    reader.end();
  } catch (e) {
    throw new VideoError(`${path}: ${(e as Error).message}`);
  }
}
