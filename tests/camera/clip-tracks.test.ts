import { describe, expect, it } from 'vitest';
import { ClipTracks } from '../../hub/camera/clip-tracks.ts';

/** The tracks written beside a replay clip (issue 16): aligned to the clip's frames, scaled, with the contacts placed. */
describe('clip tracks', () => {
  it('keeps the frames the clip holds, scales them to its size, and places each contact at its ball', () => {
    const tracks = new ClipTracks(5);
    for (let k = 0; k < 8; k++) tracks.frame(k * 100, k === 3 ? null : { white: [100 + 10 * k, 200], red: [400, 50] });
    tracks.contacts([{ kind: 'cushion', rail: 'head', ball: 'white', t: 610 }, { kind: 'ball', balls: ['white', 'red'], t: 100 }, { kind: 'ball', balls: [null, 'red'], t: 700 }]);
    // The clip keeps every other frame of the last ones (the ring's thinning), at half size.
    const file = tracks.forClip([400, 600, 700], 5, 0.5, 320, 240);
    expect(file.frames).toEqual([{ white: [70, 100], red: [200, 25] }, { white: [80, 100], red: [200, 25] }, { white: [85, 100], red: [200, 25] }]);
    // Older than the capacity: gone; a contact before the clip: left out.
    expect(tracks.forClip([0, 100], 5, 1, 640, 480).frames).toEqual([null, null]);
    expect(file.contacts).toEqual([
      { frame: 1, kind: 'cushion', balls: ['white'], rail: 'head', at: [80, 100] },
      { frame: 2, kind: 'ball', balls: [null, 'red'], at: [200, 25] },
    ]);
    tracks.clear();
    expect(tracks.forClip([400], 5, 1, 640, 480)).toEqual({ version: 1, width: 640, height: 480, fps: 5, frames: [null], contacts: [] });
  });
});
