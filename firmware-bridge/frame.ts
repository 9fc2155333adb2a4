import { crc16 } from './crc16.ts';
import { FRAME_OVERHEAD, MAX_PAYLOAD, SYNC0, SYNC1 } from './protocol.ts';

/** One complete frame around a payload. Throws RangeError on out-of-range fields. */
export function encodeFrame(type: number, seq: number, payload: Uint8Array = new Uint8Array(0)): Buffer {
  if (!Number.isInteger(type) || type < 0 || type > 0xff) throw new RangeError(`frame type ${type} is not a byte`);
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xff) throw new RangeError(`frame seq ${seq} is not a byte`);
  if (payload.length > MAX_PAYLOAD) throw new RangeError(`payload of ${payload.length} bytes exceeds ${MAX_PAYLOAD}`);
  const f = Buffer.alloc(payload.length + FRAME_OVERHEAD);
  f[0] = SYNC0;
  f[1] = SYNC1;
  f[2] = payload.length;
  f[3] = type;
  f[4] = seq;
  f.set(payload, 5);
  const crc = crc16(f, 2, 5 + payload.length);
  f[5 + payload.length] = crc >> 8;
  f[6 + payload.length] = crc & 0xff;
  return f;
}
