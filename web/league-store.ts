import { EventEmitter } from 'node:events';
import { leagueStateSchema, type LeagueState } from '../hub/contract/mqtt.ts';

/** The latest retained `<base>/league/state` (issue 8), parsed once at the edge with the contract's schema. */
export class LeagueCache extends EventEmitter<{ change: [] }> {
  private latest: LeagueState | null = null;

  get state(): LeagueState | null {
    return this.latest;
  }

  ingest(payload: Buffer | string): boolean {
    const text = payload.toString();
    if (text === '') {
      this.latest = null;
      this.emit('change');
      return true;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return false;
    }
    const parsed = leagueStateSchema.safeParse(raw);
    if (!parsed.success) return false;
    this.latest = parsed.data;
    this.emit('change');
    return true;
  }

  clear(): void {
    this.latest = null;
  }
}
