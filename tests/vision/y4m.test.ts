import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameFromRgb, frameToRgb } from '../../hub/vision/frame.ts';
import { encodeY4mFrame, encodeY4mHeader, Y4mError, Y4mReader } from '../../hub/vision/y4m.ts';

/** The y4m codec: what we write reads back byte for byte, however the stream is chunked. */
const frameArb = fc.record({ w: fc.integer({ min: 1, max: 19 }), h: fc.integer({ min: 1, max: 13 }) }).chain(({ w, h }) =>
  fc.record({
    w: fc.constant(w),
    h: fc.constant(h),
    frames: fc.array(fc.uint8Array({ minLength: w * h + 2 * ((w + 1) >> 1) * ((h + 1) >> 1), maxLength: w * h + 2 * ((w + 1) >> 1) * ((h + 1) >> 1) }), { minLength: 1, maxLength: 4 }),
    cuts: fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 20 }),
  }),
);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

describe('y4m codec', () => {
  it('round-trips frames through any chunking (property)', () => {
    fc.assert(
      fc.property(frameArb, ({ w, h, frames, cuts }) => {
        const cw = (w + 1) >> 1;
        const ch = (h + 1) >> 1;
        const fs = frames.map((d) => ({ width: w, height: h, y: d.subarray(0, w * h), u: d.subarray(w * h, w * h + cw * ch), v: d.subarray(w * h + cw * ch) }));
        const bytes = concat([encodeY4mHeader({ width: w, height: h, fpsNum: 30, fpsDen: 1, colour: '420jpeg' }), ...fs.map(encodeY4mFrame)]);
        const reader = new Y4mReader();
        const got = [];
        let pos = 0;
        let k = 0;
        while (pos < bytes.length) {
          const n = cuts[k++ % cuts.length]!;
          got.push(...reader.push(bytes.subarray(pos, pos + n)));
          pos += n;
        }
        reader.end();
        expect(reader.header).toMatchObject({ width: w, height: h, fpsNum: 30, fpsDen: 1 });
        expect(got.length).toBe(fs.length);
        got.forEach((f, i) => {
          expect([...f.y]).toEqual([...fs[i]!.y]);
          expect([...f.u]).toEqual([...fs[i]!.u]);
          expect([...f.v]).toEqual([...fs[i]!.v]);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('names what is wrong with a bad stream', () => {
    const enc = new TextEncoder();
    expect(() => new Y4mReader().push(enc.encode('RIFF1234\n'))).toThrow(/not a YUV4MPEG2 stream/);
    expect(() => new Y4mReader().push(enc.encode('YUV4MPEG2 W4 H4 F30:1 C444\n'))).toThrow(/C444 is not 4:2:0/);
    expect(() => new Y4mReader().push(enc.encode('YUV4MPEG2 W4 H4 C420\n'))).toThrow(/frame rate/);
    expect(() => new Y4mReader().push(enc.encode('YUV4MPEG2 W0 H4 F30:1\n'))).toThrow(/frame size/);
    const r = new Y4mReader();
    r.push(enc.encode('YUV4MPEG2 W4 H2 F30:1\nFRAME\n1234'));
    expect(() => r.end()).toThrow(Y4mError);
    expect(() => r.end()).toThrow(/truncated/);
    expect(() => new Y4mReader().push(enc.encode('YUV4MPEG2 W2 H2 F30:1\nFRAMX\n'))).toThrow(/expected "FRAME"/);
  });

  it('converts RGB to 4:2:0 and back within the chroma subsampling', () => {
    const w = 4;
    const h = 2;
    const rgb = new Uint8Array(w * h * 3);
    for (let i = 0; i < w * h; i++) rgb.set([200, 30, 40], i * 3);
    const back = frameToRgb(frameFromRgb(w, h, rgb));
    for (let i = 0; i < rgb.length; i++) expect(Math.abs(back[i]! - rgb[i]!)).toBeLessThanOrEqual(3);
  });
});
