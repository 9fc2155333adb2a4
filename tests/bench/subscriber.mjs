// The bench's MQTT subscriber, in a process of its own (plain JavaScript: no loader) so that
// the load generator's work never delays a receipt. It stamps each message on the
// system-wide monotonic clock (process.hrtime), which the load generator also stamps with,
// and hands the stamps back when asked.
import mqtt from 'mqtt';

const client = await mqtt.connectAsync(process.argv[2], { reconnectPeriod: 0 });
client.stream.setNoDelay?.(true);
const hits = []; // [table, boardUs, receivedMs, the hub's hubTime]
const states = []; // [table, shotCount, receivedMs]
client.on('message', (topic, payload) => {
  const at = Number(process.hrtime.bigint()) / 1e6;
  const table = topic.split('/')[2];
  const message = JSON.parse(payload.toString());
  if (topic.endsWith('/events')) {
    if (message.sensor === 'rail-hit') hits.push([table, message.boardUs, at, message.hubTime]);
  } else states.push([table, message.shotCount, at]);
});
await client.subscribeAsync(['billiards/tables/+/events', 'billiards/tables/+/state'], { qos: 0 });
process.send({ ready: true });
process.on('message', async (m) => {
  if (m === 'count') return void process.send(hits.length);
  if (m !== 'report') return;
  process.send({ hits, states }, async () => {
    await client.endAsync(true);
    process.exit(0);
  });
});
