import type { Availability, TableEvent, TableHealth, TableState } from '../contract/mqtt.ts';

/** Where a table's changes go once they are stored. The MQTT publisher is one; tests use others. */
export interface TablePublisher {
  state(table: string, state: TableState): void;
  availability(table: string, availability: Availability): void;
  event(table: string, event: TableEvent): void;
  health(table: string, health: TableHealth): void;
}

export const nullPublisher: TablePublisher = { state() {}, availability() {}, event() {}, health() {} };
