import type { TableHealth } from '../contract/mqtt.ts';
import type { TableConfig } from '../config/schema.ts';
import type { SensorEvent } from '../pipeline/sensor-events.ts';
import type { Rail } from '../rules/ids.ts';
import type { HubClock } from './clock.ts';
import { HealthTracker } from './health.ts';
import type { TablePublisher } from './publisher.ts';

/** While a board is online its heartbeats publish the health at most this often. */
const HEALTH_EVERY_MS = 3000;

export interface HealthMonitorDeps {
  publisher: Pick<TablePublisher, 'availability' | 'health'>;
  clock: HubClock;
  /** Whether a shot waits for the referee (an alert on the overview). */
  promptWaiting: () => boolean;
  /** The table's overhead camera, if it has one: frame rate, drops, detection state (hub/camera/). */
  cameraHealth?: () => TableHealth['camera'] | null;
}

/**
 * A table's link and sensor health, from its sensor events and shots, and when to publish
 * it: at once on a link or settings change and after each shot, every few seconds with the
 * heartbeats, at most once a second for drops.
 */
export class HealthMonitor {
  private readonly id: string;
  private readonly health: HealthTracker;
  private online = false;
  /** When the health was last published, and whether drops since then still need publishing. */
  private healthPublishedAt = -Infinity;
  private healthDue = false;

  constructor(
    private readonly config: TableConfig,
    private readonly deps: HealthMonitorDeps,
  ) {
    this.id = config.id;
    this.health = new HealthTracker(config.id, Object.values(config.rails) as Rail[], deps.clock.iso());
  }

  get isOnline(): boolean {
    return this.online;
  }

  /** After each shot: which rails fired (a rail silent for many shots is an alert). */
  shot(railsHit: ReadonlySet<Rail>): void {
    this.health.shot(railsHit);
  }

  /** Publishes the health held back (drops within the last second), once a second has passed. */
  tick(): void {
    if (this.healthDue && this.deps.clock.now() - this.healthPublishedAt >= 1000) this.publishHealth();
  }

  note(event: SensorEvent, at: string): void {
    switch (event.type) {
      case 'link':
        this.online = event.state === 'up';
        this.health.linkChanged(event.state, at);
        this.deps.publisher.availability(this.id, { state: this.online ? 'online' : 'offline' });
        this.publishHealth();
        break;
      case 'heartbeat':
        this.health.heartbeat(at);
        // Boards beat several times a second: publish every few seconds so the overview's heartbeat age stays true.
        if (this.deps.clock.now() - this.healthPublishedAt >= HEALTH_EVERY_MS) this.publishHealth();
        break;
      case 'dropped':
        this.health.dropped(event.count);
        // At most once a second (the rest at the next tick): not a health message per dropped frame.
        if (this.deps.clock.now() - this.healthPublishedAt >= 1000) this.publishHealth();
        else this.healthDue = true;
        break;
      case 'board':
        if (event.reason === 'reset') this.health.boardReset();
        break;
      case 'board-settings': {
        const { type: _type, hubTime: _hubTime, ...board } = event;
        this.health.boardSettings(board);
        this.publishHealth();
        break;
      }
      case 'skittle': {
        const skittle = this.config.skittles[String(event.index)];
        if (skittle) this.health.skittle(skittle, event.state);
        break;
      }
      default:
        break;
    }
  }


  publishHealth(): void {
    this.healthDue = false;
    this.healthPublishedAt = this.deps.clock.now();
    this.deps.publisher.health(this.id, this.healthView());
  }

  healthView(): TableHealth {
    const view = this.health.view(this.deps.promptWaiting(), this.deps.clock.iso());
    const camera = this.deps.cameraHealth?.();
    return { ...view, ...(camera ? { camera } : {}), scoring: this.config.scoring };
  }


  /** The table's availability as last seen (published on restore and on every link change). */
  publishAvailability(): void {
    this.deps.publisher.availability(this.id, { state: this.online ? 'online' : 'offline' });
  }
}
