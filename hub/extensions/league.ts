import { join } from 'node:path';
import { topics } from '../contract/mqtt.ts';
import { LeagueService } from '../league/service.ts';
import { LeagueStore } from '../league/store.ts';
import { err } from '../rules/result.ts';
import type { Extension, HubContext } from './extension.ts';

/**
 * The house league (issue 8): kept in the hub's SQLite file on a connection of its own,
 * it reads every table state (a league match ending records its result) and publishes the
 * league's retained state.
 */
export class LeagueExtension implements Extension {
  readonly name = 'league';
  private store: LeagueStore | null = null;
  service: LeagueService | null = null;

  constructor(private readonly hub: HubContext) {}

  start(): void {
    const { hub } = this;
    this.store = new LeagueStore(join(hub.dataDir, 'hub.sqlite'));
    const leagueTopic = topics(hub.config.hub.baseTopic).leagueState;
    this.service = new LeagueService({
      store: this.store,
      iso: () => hub.clock.iso(),
      publish: (state) => hub.link.publishRaw(leagueTopic, state, true),
      startMatch: (id, setup) => hub.tables.get(id)?.startMatch(setup) ?? err(`table: no table '${id}' on this hub`),
      log: hub.log,
    });
    const service = this.service;
    hub.events.on('table-state', this.name, ({ state }) => service.onTableState(state));
  }

  /** Whether the league's store answers (part of /healthz). */
  healthy(): boolean {
    return this.store?.healthy() ?? false;
  }

  retained(): { topic: string; payload: unknown }[] {
    return this.service ? [{ topic: topics(this.hub.config.hub.baseTopic).leagueState, payload: this.service.state() }] : [];
  }

  stop(): void {
    this.store?.close();
    this.store = null;
    this.service = null;
  }
}
