import { metric } from './metrics.ts';

/**
 * What the hub left out under overload, by kind, for `/metrics` (`billiards_shed_total`).
 * Only what can be shed is ever counted here: status frames the segmenter has already read
 * (`status-frame`), and live-view updates a newer one replaced before it went out
 * (`sse-state`). Hits, clicks, skittles and shots are never shed.
 *
 * One per process: the hub and its web panel share it, as they share /metrics.
 */
export type ShedKind = 'status-frame' | 'sse-state';

class ShedCounts {
  private readonly counts = new Map<ShedKind, number>([
    ['status-frame', 0],
    ['sse-state', 0],
  ]);

  count(kind: ShedKind, n = 1): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + n);
  }

  get(kind: ShedKind): number {
    return this.counts.get(kind) ?? 0;
  }

  render(): string {
    return metric('billiards_shed_total', 'counter', 'Left out under overload: status frames beyond what the segmenter needs (it read them), live-view updates a newer one replaced', [...this.counts].map(([kind, value]) => ({ labels: { kind }, value })));
  }
}

export const shed = new ShedCounts();
