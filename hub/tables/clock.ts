/** The hub's time: monotonic milliseconds for ordering and intervals, wall time for display. */
export interface HubClock {
  now(): number;
  iso(): string;
}

/**
 * The wall time as ISO 8601, formatted once per millisecond: under a flood many events share
 * a millisecond, and a Date and its string per event showed in the hub's profile (issue 18).
 */
function isoNow(): () => string {
  let ms = NaN;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== ms) {
      ms = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
}

export const systemClock: HubClock = {
  // performance.now() never goes back, even when the wall clock is set.
  now: () => performance.timeOrigin + performance.now(),
  iso: isoNow(),
};
