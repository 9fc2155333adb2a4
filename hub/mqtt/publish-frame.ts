import mqttPacket from 'mqtt-packet';

/** What a PUBLISH needs to be written in one piece (mqtt-packet's packet, as aedes and mqtt.js pass it). */
interface PublishLike {
  cmd: string;
  topic?: unknown;
  payload?: unknown;
  qos?: number;
  dup?: boolean;
  retain?: boolean;
  messageId?: unknown;
}
type Write = (packet: object, stream: NodeJS.WritableStream & { cork?: () => void; uncork?: () => void }, opts?: { protocolVersion?: number }) => boolean;

const PUBLISH = 3 << 4;
const VARBYTEINT_MAX = 268_435_455;
const EMPTY = Buffer.alloc(0);

/**
 * A PUBLISH of MQTT 3.1.1 (what aedes writes to every client, and mqtt.js on a v3/v4 link)
 * as one buffer in one `write`, the bytes mqtt-packet's `writeToStream` would have written
 * in five (header, length, topic length, topic, payload; the last two copied again by the
 * socket's `writev`). At a flood's rate the broker writes one per event and subscriber
 * (issue 18): five buffered writes, three small buffers and three debug calls a message.
 * Returns null for anything else (MQTT 5 properties, an invalid packet): mqtt-packet
 * writes those, and says what is wrong.
 */
export function publishFrame(packet: PublishLike, protocolVersion: number | undefined): Buffer | null {
  if (packet.cmd !== 'publish' || protocolVersion === 5) return null;
  const qos = packet.qos || 0;
  if (qos !== 0 && qos !== 1 && qos !== 2) return null;
  const { topic, messageId } = packet;
  const payload = packet.payload || EMPTY;
  if (typeof topic !== 'string' && !Buffer.isBuffer(topic)) return null;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  if (qos > 0 && !(typeof messageId === 'number' && Number.isInteger(messageId) && messageId >= 0 && messageId <= 0xffff)) return null;
  const topicLength = typeof topic === 'string' ? Buffer.byteLength(topic) : topic.length;
  const payloadLength = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  if (topicLength > 0xffff) return null;
  const length = 2 + topicLength + (qos > 0 ? 2 : 0) + payloadLength;
  if (length > VARBYTEINT_MAX) return null;
  const lengthBytes = length < 128 ? 1 : length < 16_384 ? 2 : length < 2_097_152 ? 3 : 4;
  const frame = Buffer.allocUnsafe(1 + lengthBytes + length);
  frame[0] = PUBLISH | (packet.dup ? 0x08 : 0) | (qos << 1) | (packet.retain ? 0x01 : 0);
  let at = 1;
  for (let left = length; ; ) {
    const digit = left % 128;
    left = Math.floor(left / 128);
    frame[at++] = left > 0 ? digit | 0x80 : digit;
    if (left === 0) break;
  }
  at = frame.writeUInt16BE(topicLength, at);
  at += typeof topic === 'string' ? frame.write(topic, at) : topic.copy(frame, at);
  if (qos > 0) at = frame.writeUInt16BE(messageId as number, at);
  if (typeof payload === 'string') frame.write(payload, at);
  else payload.copy(frame, at);
  return frame;
}

const uncork = (stream: { uncork?: () => void }) => stream.uncork?.();

/**
 * mqtt-packet's `writeToStream` (shared by aedes and mqtt.js, both of which call it through
 * the module's export) with PUBLISH written in one piece. The stream is corked until the next
 * tick as mqtt-packet does, so a turn's writes still go out together (turn-writes.ts).
 */
export function installPublishFrames(): void {
  const original = mqttPacket.writeToStream as unknown as Write & { cacheNumbers: boolean; publishFrames?: true };
  if (original.publishFrames) return;
  const write: Write = (packet, stream, opts) => {
    const frame = publishFrame(packet as PublishLike, opts?.protocolVersion);
    if (!frame) return original(packet, stream, opts);
    if (stream.cork) {
      stream.cork();
      process.nextTick(uncork, stream);
    }
    return stream.write(frame);
  };
  // cacheNumbers stays mqtt-packet's switch (packet-cache.ts turns it off).
  Object.defineProperty(write, 'cacheNumbers', { get: () => original.cacheNumbers, set: (value: boolean) => void (original.cacheNumbers = value) });
  Object.defineProperty(write, 'publishFrames', { value: true });
  (mqttPacket as unknown as { writeToStream: Write }).writeToStream = write;
}
