/** The hub's time: monotonic milliseconds for ordering and intervals, wall time for display. */
export interface HubClock {
  now(): number;
  iso(): string;
}

export const systemClock: HubClock = {
  // performance.now() never goes back, even when the wall clock is set.
  now: () => performance.timeOrigin + performance.now(),
  iso: () => new Date().toISOString(),
};
