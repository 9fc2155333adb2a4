import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableEventSchema } from '../../hub/contract/mqtt.ts';
import { decodeSensorEvent } from '../../hub/contract/sensor-event-decoder.ts';

/** Values a field may hold on the wire, good and bad: JSON's types and numbers zod refuses. */
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(1e20, 2 ** 53, -0, 0.5, Infinity),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
);
const sensorName = fc.oneof(fc.constantFrom('rail-hit', 'click', 'vibration', 'skittle', 'link'), anyValue);
const good = fc.record({
  type: fc.constant('sensor'),
  table: fc.string({ maxLength: 4 }),
  at: fc.constant('2026-12-01T00:00:00.000Z'),
  hubTime: fc.double({ noNaN: true, noDefaultInfinity: true }),
  boardUs: fc.option(fc.integer({ min: 0 }), { nil: null }),
  seq: fc.option(fc.integer({ min: 0 }), { nil: null }),
  sensor: fc.constantFrom('rail-hit', 'click', 'vibration', 'skittle', 'link'),
  rail: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }),
  channel: fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
  amplitude: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
});
/** A good event with one field replaced (or added) by anything. */
const mutated = fc.tuple(good, fc.constantFrom('type', 'table', 'at', 'hubTime', 'boardUs', 'seq', 'sensor', 'rail', 'channel', 'skittle', 'state', 'amplitude', 'level', 'extra'), anyValue, sensorName).map(([event, key, value, sensor]) => ({ ...event, sensor: key === 'sensor' ? sensor : event.sensor, [key]: value }));

describe('the hand-written sensor event decoder', () => {
  it('accepts and returns exactly what the contract schema does', () => {
    fc.assert(
      fc.property(fc.oneof(good, mutated, anyValue), (raw) => {
        // As the store reads it: parsed JSON (undefined keys gone, non-finite numbers null).
        const input: unknown = JSON.parse(JSON.stringify(raw) ?? 'null');
        const zod = tableEventSchema.safeParse(input);
        const ours = decodeSensorEvent(input);
        const zodSensor = zod.success && zod.data.type === 'sensor';
        expect(ours.ok).toBe(zodSensor);
        if (ours.ok && zod.success) expect(ours.value).toStrictEqual(zod.data);
      }),
      { numRuns: 3000 },
    );
  });

  it('names the field that is wrong', () => {
    const event = { type: 'sensor', table: 'b1', at: 'now', hubTime: 1, boardUs: 2, seq: 3, sensor: 'rail-hit', channel: 1.5 };
    expect(decodeSensorEvent(event)).toEqual({ ok: false, error: 'channel: expected an integer' });
    expect(decodeSensorEvent({ ...event, channel: 1, sensor: 'tilt' })).toMatchObject({ ok: false, error: expect.stringMatching(/^sensor: expected one of rail-hit/) });
    expect(decodeSensorEvent('hit')).toEqual({ ok: false, error: 'a sensor event must be an object' });
  });
});
