import { Writable } from 'node:stream';
import fc from 'fast-check';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import '../../hub/mqtt/packet-cache.ts';
import { publishFrame } from '../../hub/mqtt/publish-frame.ts';

/** mqtt-packet's own writer, before the hub replaced it: what every frame must equal byte for byte. */
const reference = (packet: object, opts?: object): Buffer => mqttPacket.generate(packet as mqttPacket.Packet, opts as Parameters<typeof mqttPacket.generate>[1]);

/** A stream that keeps what is written, and counts the writes. */
function collector(): Writable & { chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return Object.assign(stream, { chunks });
}

const publishes = fc.record({
  cmd: fc.constant('publish' as const),
  topic: fc.oneof(fc.string({ minLength: 1, maxLength: 300, unit: 'grapheme' }), fc.uint8Array({ minLength: 1, maxLength: 40 }).map((a) => Buffer.from(a))),
  payload: fc.oneof(
    fc.string({ maxLength: 400, unit: 'grapheme' }),
    fc.uint8Array({ maxLength: 20_000 }).map((a) => Buffer.from(a)),
    // Lengths around the remaining-length encoding's steps (127/128, 16,383/16,384).
    fc.constantFrom(120, 124, 125, 126, 127, 128, 16_370, 16_378, 16_379, 16_380, 16_383, 16_384).map((n) => Buffer.alloc(n, 7)),
  ),
  qos: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>,
  dup: fc.boolean(),
  retain: fc.boolean(),
  messageId: fc.integer({ min: 0, max: 0xffff }),
});

describe('PUBLISH in one write (issue 18)', () => {
  it('is byte for byte what mqtt-packet writes, for any topic, payload, QoS and flags (MQTT 3.1.1)', () => {
    fc.assert(
      fc.property(publishes, (packet) => {
        const frame = publishFrame(packet, undefined);
        expect(frame).not.toBeNull();
        expect(frame!.equals(reference(packet))).toBe(true);
        expect(publishFrame(packet, 4)!.equals(frame!)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('parses back to the same packet', () => {
    fc.assert(
      fc.property(publishes, (packet) => {
        const parsed: mqttPacket.IPublishPacket[] = [];
        const parser = mqttPacket.parser({ protocolVersion: 4 });
        parser.on('packet', (p) => parsed.push(p as mqttPacket.IPublishPacket));
        parser.parse(publishFrame(packet, undefined)!);
        expect(parsed).toHaveLength(1);
        const p = parsed[0]!;
        expect(p.topic).toBe(Buffer.from(packet.topic).toString('utf8'));
        expect(Buffer.from(p.payload).equals(Buffer.from(packet.payload))).toBe(true);
        expect([p.qos, p.dup, p.retain]).toEqual([packet.qos, packet.dup, packet.retain]);
        if (packet.qos > 0) expect(p.messageId).toBe(packet.messageId);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves to mqtt-packet what it does not write itself: MQTT 5, other packets, a QoS 1 without a message id', () => {
    const base = { cmd: 'publish', topic: 't', payload: Buffer.from('x'), qos: 0, dup: false, retain: false };
    expect(publishFrame(base, 5)).toBeNull();
    expect(publishFrame({ cmd: 'puback', messageId: 1 }, undefined)).toBeNull();
    expect(publishFrame({ ...base, qos: 1 }, undefined)).toBeNull();
    expect(publishFrame({ ...base, qos: 1, messageId: 70_000 }, undefined)).toBeNull();
    expect(publishFrame({ ...base, topic: undefined }, undefined)).toBeNull();
  });

  it("goes through writeToStream as one write (the broker's and mqtt.js's writer), and the rest as before", async () => {
    const packet = { cmd: 'publish' as const, topic: 'billiards/tables/t1/events', payload: Buffer.from('{"type":"sensor"}'), qos: 1 as const, dup: false, retain: false, messageId: 7 };
    const one = collector();
    mqttPacket.writeToStream(packet, one);
    expect(one.chunks).toHaveLength(0); // corked until the next tick, as mqtt-packet does
    await new Promise((resolve) => setImmediate(resolve));
    expect(one.chunks).toHaveLength(1);
    expect(Buffer.concat(one.chunks).equals(reference(packet))).toBe(true);
    // MQTT 5 with properties, and a PUBACK, are mqtt-packet's own (several writes, the same bytes as generate).
    const v5 = { ...packet, properties: { contentType: 'application/json' } };
    const five = collector();
    mqttPacket.writeToStream(v5, five, { protocolVersion: 5 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(Buffer.concat(five.chunks).equals(reference(v5, { protocolVersion: 5 }))).toBe(true);
    const ack = collector();
    mqttPacket.writeToStream({ cmd: 'puback', messageId: 7 }, ack);
    await new Promise((resolve) => setImmediate(resolve));
    expect(Buffer.concat(ack.chunks).equals(reference({ cmd: 'puback', messageId: 7 }))).toBe(true);
    expect(mqttPacket.writeToStream.cacheNumbers).toBe(false);
  });
});
