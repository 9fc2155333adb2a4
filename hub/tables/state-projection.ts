import type { TableState } from '../contract/mqtt.ts';
import type { TableConfig } from '../config/schema.ts';
import type { HubClock } from './clock.ts';
import type { MatchSession } from './match-session.ts';

/** How many shots the retained state carries (CONTRACT §3). */
const STATE_SHOTS = 20;

/**
 * A table's published state (CONTRACT §3): the match's view with the table's own fields
 * (change counter, times, queued shots, the referee's entries), projected on demand.
 */
export class StateProjection {
  private readonly id: string;
  private seq: number;
  private updatedAt: string;
  private lastShotEndedAt: string | null = null;

  constructor(
    private readonly config: TableConfig,
    private readonly deps: { clock: HubClock; hubId: string; simulated: boolean; changesSoFar: number },
  ) {
    this.id = config.id;
    this.seq = deps.changesSoFar;
    this.updatedAt = deps.clock.iso();
  }

  /** One more change: the state's seq and time move on. */
  changed(): void {
    this.seq += 1;
    this.updatedAt = this.deps.clock.iso();
  }

  shotEnded(): void {
    this.lastShotEndedAt = this.deps.clock.iso();
  }

  state(session: MatchSession): TableState {
    const { match, pending, nextShot, matchStartedAt, setupLine } = session;
    const view = match?.view();
    const common = {
      table: this.id,
      seq: this.seq,
      updatedAt: this.updatedAt,
      hub: this.deps.hubId,
      simulated: this.deps.simulated,
      lastShotEndedAt: this.lastShotEndedAt,
      pendingShots: pending.length,
      nextShot,
      ...(this.config.name ? { name: this.config.name } : {}),
      rails: { ...this.config.rails },
      ...(matchStartedAt ? { matchStartedAt } : {}),
      adjustments: match ? match.adjustmentLog.map((a) => ({ ...a })) : [],
      match: setupLine ? { variant: setupLine.variant, players: [...setupLine.players], target: setupLine.target, options: { ...(setupLine.options ?? {}) } } : null,
    };
    if (!view) {
      return { variant: null, family: null, scoring: null, status: 'idle', winner: null, turn: null, players: [], prompt: null, shots: [], cueBall: null, endRule: null, instructions: [], shotCount: 0, ...common };
    }
    return { ...view, shots: view.shots.slice(-STATE_SHOTS), shotCount: view.shots.length, ...common };
  }
}
