/** A table's running counts, for /metrics. */
export interface TableCounters {
  sensorEvents: number;
  shots: number;
  prompts: number;
  unscoredShots: number;
  /** Status frames not stored (and not published) because they carried no news. */
  statusFramesSkipped: number;
  /** Tracker strikes taken back: a rest with no shot after them (no ball left its place). */
  strikesWithdrawn: number;
}
