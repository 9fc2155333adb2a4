// The bench's MQTT subscriber, in a process of its own (plain JavaScript: no loader) so that
// the load generator's work never delays a receipt. It stamps each message on the
// system-wide monotonic clock (process.hrtime), which the load generator also stamps with,
// and hands the stamps back when asked.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mqtt from 'mqtt';

// Its own event loop's delay: a receipt it stamps late adds to the hub's latency as measured.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

const client = await mqtt.connectAsync(process.argv[2], { reconnectPeriod: 0 });
client.stream.setNoDelay?.(true);
const hits = []; // [table, boardUs, receivedMs, the hub's hubTime, the hub's intake (its wall clock, ms)]
const states = []; // [table, shotCount, receivedMs]
client.on('message', (topic, payload) => {
  const at = Number(process.hrtime.bigint()) / 1e6;
  const table = topic.split('/')[2];
  const message = JSON.parse(payload.toString());
  if (topic.endsWith('/events')) {
    if (message.sensor === 'rail-hit') hits.push([table, message.boardUs, at, message.hubTime, Date.parse(message.at)]);
  } else states.push([table, message.shotCount, at]);
});
await client.subscribeAsync(['billiards/tables/+/events', 'billiards/tables/+/state'], { qos: 0 });
process.send({ ready: true });
process.on('message', async (m) => {
  if (m === 'count') return void process.send(hits.length);
  if (m !== 'report') return;
  // Node records the time between the timer's ticks: 10 ms of it is the period, not delay.
  const delayMs = (ns) => Math.max(0, ns / 1e6 - 10);
  process.send({ hits, states, loopP99Ms: delayMs(loop.percentile(99)), loopMaxMs: delayMs(loop.max) }, async () => {
    await client.endAsync(true);
    process.exit(0);
  });
});
