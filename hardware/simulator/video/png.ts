import { deflateSync } from 'node:zlib';
import { encodePng as encode } from '../../../hub/vision/png.ts';

/** A minimal PNG encoder (8-bit RGB) for docs pictures and debugging (hub/vision/png.ts with Node's zlib). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const png = encode(width, height, rgb, (raw) => deflateSync(raw, { level: 9 }));
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}
