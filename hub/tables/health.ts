import type { TableHealth } from '../contract/mqtt.ts';
import type { Rail, SkittleId } from '../rules/ids.ts';

/** Shots after which a sensor that never fired, or a switch that never rose, is worth an alert. */
const SILENT_RAIL_SHOTS = 30;
const STUCK_SKITTLE_SHOTS = 5;

/**
 * A table's sensor health for the venue overview: link state, heartbeat, drops, and alerts
 * for a rail sensor that has gone silent and a skittle switch that reads down for shot
 * after shot.
 */
export class HealthTracker {
  private link: 'up' | 'down' = 'down';
  private linkSince: string;
  private lastHeartbeatAt: string | null = null;
  private framesDropped = 0;
  private boardResets = 0;
  private board: TableHealth['board'] | undefined;
  private readonly silentShots = new Map<Rail, number>();
  private readonly downShots = new Map<SkittleId, number>();
  private readonly down = new Set<SkittleId>();

  constructor(private readonly table: string, rails: readonly Rail[], now: string) {
    this.linkSince = now;
    for (const r of new Set(rails)) this.silentShots.set(r, 0);
  }

  linkChanged(state: 'up' | 'down', at: string): void {
    if (state !== this.link) this.linkSince = at;
    this.link = state;
  }

  heartbeat(at: string): void {
    this.lastHeartbeatAt = at;
  }

  dropped(count: number): void {
    this.framesDropped += count;
  }

  boardReset(): void {
    this.boardResets += 1;
  }

  boardSettings(board: NonNullable<TableHealth['board']>): void {
    this.board = board;
  }

  skittle(skittle: SkittleId, state: 'down' | 'up'): void {
    if (state === 'down') this.down.add(skittle);
    else {
      this.down.delete(skittle);
      this.downShots.delete(skittle);
    }
  }

  /** After each shot: which rails fired, and which switches still read down. */
  shot(railsHit: ReadonlySet<Rail>): void {
    if (railsHit.size > 0) for (const [rail, n] of this.silentShots) this.silentShots.set(rail, railsHit.has(rail) ? 0 : n + 1);
    for (const s of this.down) this.downShots.set(s, (this.downShots.get(s) ?? 0) + 1);
  }

  view(promptWaiting: boolean, now: string): TableHealth {
    const alerts: TableHealth['alerts'] = [];
    if (this.link === 'down') alerts.push({ kind: 'link-down', detail: 'no data from the table\'s board', since: this.linkSince });
    if (promptWaiting) alerts.push({ kind: 'prompt-waiting', detail: 'a shot waits for the referee', since: now });
    for (const [rail, n] of this.silentShots) {
      if (n >= SILENT_RAIL_SHOTS) alerts.push({ kind: 'silent-rail', detail: `no hit on the ${rail} rail in ${n} shots`, since: now });
    }
    for (const [skittle, n] of this.downShots) {
      if (n >= STUCK_SKITTLE_SHOTS) alerts.push({ kind: 'stuck-skittle', detail: `the ${skittle} skittle has read down for ${n} shots`, since: now });
    }
    const view: TableHealth = { table: this.table, link: this.link, lastHeartbeatAt: this.lastHeartbeatAt, framesDropped: this.framesDropped, boardResets: this.boardResets, alerts };
    if (this.board) view.board = this.board;
    return view;
  }
}
