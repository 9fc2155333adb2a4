import { EventEmitter } from 'node:events';
import { decodeSensorEvent } from '../hub/contract/sensor-event-decoder.ts';
import { availabilitySchema, hubStateSchema, tableEventSchema, tableHealthSchema, tableStateSchema, type Availability, type TableEvent, type TableHealth, type TableState } from '../hub/contract/mqtt.ts';

/**
 * The latest of everything each table published, kept in memory. Payloads are parsed once
 * here (STYLE 10), with the contract's own schemas: what the panel holds is what the hub's
 * types say.
 */

/** A table's state as the panel reads it: TableState (CONTRACT §3), an idle table included. */
export type TableView = TableState;

export const TABLE_ID = /^[A-Za-z0-9_-]{1,40}$/;

export interface TableRecord {
  table: string;
  state: TableView | null;
  availability: Availability | null;
  health: TableHealth | null;
  /** The last shot event (its sensor events with times), for the timeline. */
  lastShot: Extract<TableEvent, { type: 'shot' }> | null;
  /** The shot that opened the current prompt: later shots queue behind it and must not replace its evidence. */
  promptShot?: Extract<TableEvent, { type: 'shot' }> | null;
}

/** `<base>/hubs/<hub>/state` (extension): each hub says it is online, and which tables it owns. */
export interface HubRecord {
  hub: string;
  state: 'online' | 'offline';
  tables: string[];
}

export interface Alert {
  kind: string;
  detail: string;
}

export type StoreEvents = {
  change: [table: string];
  event: [table: string, event: TableEvent];
};

export class TableStore extends EventEmitter<StoreEvents> {
  private readonly tables = new Map<string, TableRecord>();
  private readonly hubs = new Map<string, HubRecord>();
  /** Live views following one table's events (key: table) or every table's (key: null). */
  private readonly followers = new Map<string | null, number>();
  private follows = 0;

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  list(): TableRecord[] {
    return [...this.tables.values()].sort((a, b) => a.table.localeCompare(b.table, undefined, { numeric: true }));
  }

  get(table: string): TableRecord | undefined {
    return this.tables.get(table);
  }

  states(): TableView[] {
    return this.list().flatMap((r) => (r.state ? [r.state] : []));
  }

  clear(): void {
    this.tables.clear();
    this.hubs.clear();
  }

  hubList(): HubRecord[] {
    return [...this.hubs.values()].sort((a, b) => a.hub.localeCompare(b.hub));
  }

  hub(id: string): HubRecord | undefined {
    return this.hubs.get(id);
  }

  /**
   * A live view follows one table's events (`null`: every table's) until the returned
   * function is called: the sensor stream of a table nobody follows is not validated or kept.
   */
  followEvents(table: string | null): () => void {
    this.followers.set(table, (this.followers.get(table) ?? 0) + 1);
    this.follows += 1;
    let followed = true;
    return () => {
      if (!followed) return;
      followed = false;
      this.follows -= 1;
      const left = (this.followers.get(table) ?? 1) - 1;
      if (left > 0) this.followers.set(table, left);
      else this.followers.delete(table);
    };
  }

  /** Whether a table's sensor events are wanted: a view follows it or every table, or a listener did not say which it follows. */
  private wantsSensorEvents(table: string): boolean {
    return this.listenerCount('event') > this.follows || this.followers.has(null) || this.followers.has(table);
  }

  /** One message from `<base>/hubs/<hub>/state`; every table of that hub changes with it. */
  ingestHub(hub: string, payload: Buffer | string): boolean {
    if (!TABLE_ID.test(hub)) return false;
    const text = payload.toString();
    let parsed: ReturnType<typeof hubStateSchema.safeParse>;
    if (text === '') {
      this.hubs.delete(hub);
    } else {
      try {
        parsed = hubStateSchema.safeParse(JSON.parse(text));
      } catch {
        return false;
      }
      if (!parsed.success) return false;
      const before = this.hubs.get(hub);
      // An offline message may omit the tables: keep the ones last announced.
      const tables = parsed.data.tables?.length ? parsed.data.tables : (before?.tables ?? []);
      this.hubs.set(hub, { hub, state: parsed.data.state, tables });
    }
    const affected = new Set([...(this.hubs.get(hub)?.tables ?? []), ...this.list().filter((r) => r.state?.hub === hub).map((r) => r.table)]);
    for (const table of affected) this.emit('change', table);
    if (affected.size === 0) this.emit('change', '');
    return true;
  }

  /** One message from `<base>/tables/<table>/<kind>`; returns false for what it could not read. */
  ingest(table: string, kind: string, payload: Buffer | string): boolean {
    if (!TABLE_ID.test(table)) return false;
    // A sensor event of a table no view follows is not even parsed: most of a venue's
    // messages, and their JSON.parse was most of the panel's cost (issue 18). The hub writes
    // `type` first; any other spelling takes the full path below.
    if (kind === 'events' && isSensorPayload(payload) && !this.wantsSensorEvents(table)) return true;
    let raw: unknown;
    try {
      const text = payload.toString();
      if (text === '') return this.forget(table, kind);
      raw = JSON.parse(text);
    } catch {
      return false;
    }
    const rec = this.record(table);
    switch (kind) {
      case 'state': {
        const parsed = tableStateSchema.safeParse(raw);
        if (!parsed.success) return false;
        rec.state = { ...parsed.data, table };
        break;
      }
      case 'availability': {
        const parsed = availabilitySchema.safeParse(raw);
        if (!parsed.success) return false;
        rec.availability = parsed.data;
        break;
      }
      case 'health': {
        const parsed = tableHealthSchema.safeParse(raw);
        if (!parsed.success) return false;
        rec.health = { ...parsed.data, table };
        break;
      }
      case 'events': {
        if ((raw as { type?: unknown } | null)?.type === 'sensor') {
          // The sensor stream only feeds live views: one nobody follows is not validated or
          // kept. Decoded by hand: thousands a second at a venue (issue 18).
          if (!this.wantsSensorEvents(table)) return true;
          const decoded = decodeSensorEvent(raw);
          if (!decoded.ok) return false;
          decoded.value.table = table;
          this.emit('event', table, decoded.value);
          return true;
        }
        const parsed = tableEventSchema.safeParse(raw);
        if (!parsed.success) return false;
        const event = { ...parsed.data, table };
        if (event.type === 'shot') {
          rec.lastShot = event;
          if (event.prompt) rec.promptShot = event;
        }
        // A new match: the old match's shot must not stay on the timeline.
        const started = event.type === 'match' && event.action === 'started';
        if (started) rec.lastShot = rec.promptShot = null;
        this.emit('event', table, event);
        if (event.type !== 'shot' && !started) return true;
        break;
      }
      default:
        return false;
    }
    this.emit('change', table);
    return true;
  }

  /** An empty retained payload clears that topic (the usual MQTT way to remove a table). */
  private forget(table: string, kind: string): boolean {
    const rec = this.tables.get(table);
    if (!rec) return true;
    if (kind === 'state') rec.state = null;
    if (kind === 'availability') rec.availability = null;
    if (kind === 'health') rec.health = null;
    if (!rec.state && !rec.availability && !rec.health) this.tables.delete(table);
    this.emit('change', table);
    return true;
  }

  private record(table: string): TableRecord {
    let rec = this.tables.get(table);
    if (!rec) {
      rec = { table, state: null, availability: null, health: null, lastShot: null };
      this.tables.set(table, rec);
    }
    return rec;
  }
}

/** How the hub's JSON of a sensor event begins (hub/tables/sensor-intake.ts builds it `type` first). */
const SENSOR_PREFIX = '{"type":"sensor",';
const SENSOR_PREFIX_BYTES = Buffer.from(SENSOR_PREFIX);

function isSensorPayload(payload: Buffer | string): boolean {
  if (typeof payload === 'string') return payload.startsWith(SENSOR_PREFIX);
  return payload.length > SENSOR_PREFIX_BYTES.length && payload.compare(SENSOR_PREFIX_BYTES, 0, SENSOR_PREFIX_BYTES.length, 0, SENSOR_PREFIX_BYTES.length) === 0;
}

/** Alerts for a table: those its health reports, plus what the panel sees itself. */
export function alertsFor(rec: TableRecord, hub?: HubRecord): Alert[] {
  const alerts: Alert[] = (rec.health?.alerts ?? []).map((a) => ({ kind: a.kind, detail: a.detail }));
  const has = (kind: string) => alerts.some((a) => a.kind === kind);
  if (rec.state?.status === 'awaiting-referee' && !has('prompt-waiting')) alerts.push({ kind: 'prompt-waiting', detail: rec.state.prompt?.question ?? 'a referee must decide the last shot' });
  const down = rec.availability?.state === 'offline' || rec.health?.link === 'down';
  if (down && !has('link-down')) alerts.push({ kind: 'link-down', detail: 'the sensor board does not answer' });
  if (hub?.state === 'offline') alerts.push({ kind: 'hub-offline', detail: `hub ${hub.hub} is offline: what is shown may be stale` });
  return alerts;
}
