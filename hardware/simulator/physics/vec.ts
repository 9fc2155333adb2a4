/** Plain 2D vector math on readonly tuples (mm, mm/s, s). */
export type Vec = readonly [number, number];

export const ZERO: Vec = [0, 0];
export const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1]];
export const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1]];
export const scale = (a: Vec, k: number): Vec => [a[0] * k, a[1] * k];
export const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1];
export const cross = (a: Vec, b: Vec): number => a[0] * b[1] - a[1] * b[0];
export const length = (a: Vec): number => Math.hypot(a[0], a[1]);
export const dist = (a: Vec, b: Vec): number => Math.hypot(a[0] - b[0], a[1] - b[1]);
export const unit = (a: Vec): Vec => {
  const l = length(a);
  return l === 0 ? ZERO : [a[0] / l, a[1] / l];
};
export const fromAngle = (radians: number, len = 1): Vec => [Math.cos(radians) * len, Math.sin(radians) * len];
export const angleOf = (a: Vec): number => Math.atan2(a[1], a[0]);
/** a + b·k */
export const addScaled = (a: Vec, b: Vec, k: number): Vec => [a[0] + b[0] * k, a[1] + b[1] * k];
/** Rotates a by 90° counter-clockwise (x toward y). */
export const perp = (a: Vec): Vec => [-a[1], a[0]];
