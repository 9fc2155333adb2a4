import { trackerMessage } from '../pipeline/tracker.ts';
import type { Extension, HubContext } from './extension.ts';

/**
 * Tracker input (CONTRACT: `…/<table>/tracker`): an overhead tracker's strike, rest and shots
 * drive the table. Messages are decoded here; a bad one is logged and refused.
 */
export class TrackerExtension implements Extension {
  readonly name = 'tracker';

  constructor(private readonly hub: HubContext) {}

  start(): void {
    this.hub.events.on('tracker-message', this.name, ({ table, payload }) => this.tracker(table, payload));
  }

  stop(): void {}

  private tracker(tableId: string, payload: Buffer): void {
    const table = this.hub.tables.get(tableId);
    if (!table) return;
    const message = trackerMessage(payload);
    if (!message.ok) {
      this.hub.log('warn', 'tracker message refused', { table: tableId, error: message.error });
      return;
    }
    const m = message.value;
    if (m.type === 'strike') (table.strike(), this.hub.wake(table));
    else if (m.type === 'rest') table.trackerRest();
    else {
      const applied = table.trackerShot(m.shot);
      if (!applied.ok) this.hub.log('warn', 'tracker shot refused', { table: tableId, error: applied.error });
    }
  }
}
