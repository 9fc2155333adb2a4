/** A table's running counts, for /metrics. */
export interface TableCounters {
  sensorEvents: number;
  shots: number;
  prompts: number;
  unscoredShots: number;
  /** Status frames not stored (and not published) because they carried no news. */
  statusFramesSkipped: number;
}
