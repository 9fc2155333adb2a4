import type { TableEvent } from './table.ts';

/** A sensor event on `billiards/tables/<table>/events` (CONTRACT §3). */
export type SensorTableEvent = Extract<TableEvent, { type: 'sensor' }>;

const SENSORS: ReadonlySet<string> = new Set(['rail-hit', 'click', 'vibration', 'skittle', 'link']);
const OPTIONAL_STRINGS = ['rail', 'skittle', 'state'] as const;
const OPTIONAL_NUMBERS = ['amplitude', 'level'] as const;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * The sensor variant of `tableEventSchema`, decoded by hand: it runs for every frame a live
 * view follows (thousands a second at a venue), where zod's parse showed in the hub's
 * profile (issue 18). It accepts and returns exactly what the schema does (unknown keys
 * dropped); a property test holds the two together. Returns the event, or why it is not one.
 */
export function decodeSensorEvent(raw: unknown): { ok: true; value: SensorTableEvent } | { ok: false; error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: 'a sensor event must be an object' };
  const o = raw as Record<string, unknown>;
  if (o.type !== 'sensor') return { ok: false, error: "type: expected 'sensor'" };
  if (typeof o.table !== 'string') return { ok: false, error: 'table: expected a string' };
  if (typeof o.at !== 'string') return { ok: false, error: 'at: expected a string' };
  if (!isNumber(o.hubTime)) return { ok: false, error: 'hubTime: expected a number' };
  if (o.boardUs !== null && !isNumber(o.boardUs)) return { ok: false, error: 'boardUs: expected a number or null' };
  if (o.seq !== null && !isInt(o.seq)) return { ok: false, error: 'seq: expected an integer or null' };
  if (typeof o.sensor !== 'string' || !SENSORS.has(o.sensor)) return { ok: false, error: `sensor: expected one of ${[...SENSORS].join(', ')}` };
  const value: Record<string, unknown> = { type: 'sensor', table: o.table, at: o.at, hubTime: o.hubTime, boardUs: o.boardUs, seq: o.seq, sensor: o.sensor };
  for (const key of OPTIONAL_STRINGS) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') return { ok: false, error: `${key}: expected a string` };
    value[key] = v;
  }
  if (o.channel !== undefined) {
    if (!isInt(o.channel)) return { ok: false, error: 'channel: expected an integer' };
    value.channel = o.channel;
  }
  for (const key of OPTIONAL_NUMBERS) {
    const v = o[key];
    if (v === undefined) continue;
    if (!isNumber(v)) return { ok: false, error: `${key}: expected a number` };
    value[key] = v;
  }
  return { ok: true, value: value as SensorTableEvent };
}
