// The bench's MQTT subscriber, in a process of its own (plain JavaScript: no loader) so that
// the load generator's work never delays a receipt. It stamps each message on the
// system-wide monotonic clock (process.hrtime), which the load generator also stamps with,
// and hands the stamps back when asked.
//
// It reads MQTT 3.1.1 off the socket itself (mqtt-packet only writes its two requests): a QoS 0 subscription receives only PUBLISH
// frames (and the CONNACK and SUBACK), and mqtt.js's client cost 7–9 µs a message, a quarter
// of a core at a flood's 34k messages/s on the two cores the hub has too — the observer
// falling behind (its receive buffer held 870 KB, 170 ms of the flood) was measured as the
// hub's latency. Here a message costs its JSON.parse and little else.
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mqttPacket from 'mqtt-packet';

// Its own event loop's delay: a receipt it stamps late adds to the hub's latency as measured.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

const url = new URL(process.argv[2]);
const TOPICS = ['billiards/tables/+/events', 'billiards/tables/+/state'];

// The two packets it sends, by mqtt-packet (what aedes and mqtt.js use): a clean session with
// no keep-alive (the bench ends it), and one QoS 0 subscription per topic.
const CONNECT = mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, keepalive: 0, clientId: `bench-subscriber-${process.pid}` });
const SUBSCRIBE = mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: TOPICS.map((topic) => ({ topic, qos: 0 })) });

const hits = []; // [table, boardUs, receivedMs, the hub's hubTime, the hub's intake (its wall clock, ms)]
const states = []; // [table, shotCount, receivedMs]

function onPublish(topic, payload, at) {
  if (payload === '') return; // a retained message cleared: nothing the bench counts
  const table = topic.split('/')[2];
  const message = JSON.parse(payload);
  if (topic.endsWith('/events')) {
    if (message.sensor === 'rail-hit') hits.push([table, message.boardUs, at, message.hubTime, Date.parse(message.at)]);
  } else states.push([table, message.shotCount, at]);
}

let connected;
let subscribed;
const up = new Promise((resolve, reject) => ((connected = resolve), setTimeout(() => reject(new Error('no CONNACK within 10 s')), 10_000).unref()));
const ready = new Promise((resolve) => (subscribed = resolve));

/** Whole packets off the front of `buf`; returns what is left (a packet's start). */
function take(buf) {
  let at = 0;
  let stamp = 0;
  while (buf.length - at >= 2) {
    let length = 0;
    let multiplier = 1;
    let i = at + 1;
    for (;;) {
      if (i >= buf.length) return buf.subarray(at);
      const b = buf[i++];
      length += (b & 0x7f) * multiplier;
      if ((b & 0x80) === 0) break;
      multiplier *= 128;
      if (multiplier > 128 ** 3) throw new Error('malformed remaining length');
    }
    if (i + length > buf.length) return buf.subarray(at);
    const type = buf[at] >> 4;
    if (type === 3) {
      const qos = (buf[at] >> 1) & 3;
      const topicLength = buf.readUInt16BE(i);
      const topic = buf.latin1Slice(i + 2, i + 2 + topicLength);
      const payloadFrom = i + 2 + topicLength + (qos > 0 ? 2 : 0);
      // One stamp per read: the messages of one chunk arrived together.
      if (stamp === 0) stamp = Number(process.hrtime.bigint()) / 1e6;
      onPublish(topic, buf.utf8Slice(payloadFrom, i + length), stamp);
    } else if (type === 2) {
      if (buf[i + 1] !== 0) throw new Error(`the broker refused the connection (CONNACK code ${buf[i + 1]})`);
      connected();
    } else if (type === 9) {
      const codes = [...buf.subarray(i + 2, i + length)];
      if (codes.some((c) => c === 0x80)) throw new Error('the broker refused a subscription');
      subscribed();
    }
    at = i + length;
  }
  return buf.subarray(at);
}

const socket = connect({ host: url.hostname, port: Number(url.port) || 1883, noDelay: true });
let rest = Buffer.alloc(0);
socket.on('data', (chunk) => {
  rest = take(rest.length === 0 ? chunk : Buffer.concat([rest, chunk]));
});
socket.on('error', (e) => {
  console.error(`bench subscriber: ${e.message}`);
  process.exit(1);
});
socket.write(CONNECT);
await up;
socket.write(SUBSCRIBE);
await ready;
process.send({ ready: true });
process.on('message', async (m) => {
  if (m === 'count') return void process.send(hits.length);
  if (m !== 'report') return;
  // Node records the time between the timer's ticks: 10 ms of it is the period, not delay.
  const delayMs = (ns) => Math.max(0, ns / 1e6 - 10);
  process.send({ hits, states, loopP99Ms: delayMs(loop.percentile(99)), loopMaxMs: delayMs(loop.max) }, () => {
    socket.end();
    process.exit(0);
  });
});
