import type { Extension, HubContext } from './extension.ts';

/** Publishes each table's health (link, heartbeat, drops, alerts, camera) when it changes. */
export class HealthExtension implements Extension {
  readonly name = 'health';

  constructor(private readonly hub: HubContext) {}

  start(): void {
    this.hub.events.on('table-health-changed', this.name, ({ table, health }) => this.hub.link.health(table, health));
  }

  stop(): void {}
}
