import { discoveryMessages } from '../mqtt/home-assistant.ts';
import type { Extension, HubContext } from './extension.ts';

/** Home Assistant MQTT discovery (config homeAssistant.discovery): a device per table, retained with every snapshot. */
export class HomeAssistantExtension implements Extension {
  readonly name = 'home-assistant';

  constructor(private readonly hub: HubContext) {}

  start(): void {}

  stop(): void {}

  retained(): { topic: string; payload: unknown }[] {
    const { config } = this.hub;
    if (!config.homeAssistant.discovery) return [];
    return discoveryMessages(config.homeAssistant.prefix, config.hub.baseTopic, config.hub.id, config.tables.map((t) => ({ id: t.id, name: t.name })));
  }
}
