import type { TableState } from '../contract/mqtt.ts';
import type { HubEventBus } from '../events.ts';
import type { TablePublisher } from './publisher.ts';

/**
 * The tables' publisher in a running hub: states, availability and events go to MQTT (the
 * core's publisher) and then, as facts, onto the event bus; a table's health goes only onto
 * the bus (the health extension publishes it). Prompts raised and answered and matches
 * ended are read from the change of status between two states.
 */
export function busPublisher(mqtt: Omit<TablePublisher, 'health'>, events: HubEventBus): TablePublisher {
  const lastStatus = new Map<string, TableState['status']>();
  return {
    state(table, state) {
      mqtt.state(table, state);
      const before = lastStatus.get(table);
      lastStatus.set(table, state.status);
      events.emit('table-state', { state });
      if (before === state.status) return;
      if (state.status === 'awaiting-referee') events.emit('prompt-raised', { table, state });
      else if (before === 'awaiting-referee') events.emit('prompt-answered', { table, state });
      if (state.status === 'finished' || state.status === 'drawn') events.emit('match-ended', { table, state });
    },
    availability(table, availability) {
      mqtt.availability(table, availability);
    },
    event(table, event) {
      mqtt.event(table, event);
      if (event.type === 'sensor') {
        if (event.sensor !== 'link') events.emit('sensor-event-stored', { table, event });
        else events.emit('table-link', { table, state: event.state === 'up' ? 'up' : 'down' });
      } else if (event.type === 'shot') events.emit('shot-scored', { table, event });
      else if (event.action === 'started') events.emit('match-started', { table, event });
    },
    health(table, health) {
      events.emit('table-health-changed', { table, health });
    },
  };
}
