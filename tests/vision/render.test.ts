import { describe, expect, it } from 'vitest';
import { clipOf, still } from './helpers.ts';

describe('renderer', () => {
  // Three-cushion seed 31337 crashed in Renderer.ballShadow: a ball that jumped the cushion
  // (`gone` in the physics) had no position in any exposure sub-sample of a frame.
  it('renders a frame in which a ball has left the table (off-table), without drawing it', () => {
    const gone = { ...still('red', [2000, 700]), gone: true };
    const clip = clipOf([{ ...still('white', [700, 700]), v: [1500, 0] }, still('yellow', [1400, 300]), gone], { player: false });
    expect(clip.scene(0).balls).toHaveLength(2);
    const frame = clip.frame(0);
    expect(frame.y.length).toBe(frame.width * frame.height);
    // The scene a renderer receives may still hold an empty path (a caller's own scene): skipped, not a crash.
    const scene = clip.scene(1);
    scene.balls.push({ colour: [196, 24, 30], path: [] });
    expect(() => clip.renderer.render(scene)).not.toThrow();
  });
});
