/**
 * A shot event as a page receives it from the table's events topic: the fields of
 * CONTRACT §1.2, not trusted, so every one is checked where it is shown.
 */
export interface LooseEvent {
  kind?: unknown;
  t?: unknown;
  rail?: unknown;
  ball?: unknown;
  balls?: unknown;
  skittle?: unknown;
  by?: unknown;
  foul?: unknown;
  /** The `maybe` extension: the camera could not rule it out, nor say it happened. */
  maybe?: unknown;
}
