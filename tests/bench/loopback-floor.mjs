// The machine's floor for the hub bench's event latency: the same path with nothing in the
// middle. Sixteen "boards" (here) write stamped lines to a relay process at the bench's
// event rate; the relay forwards each line one event-loop turn later to a receiver process,
// which stamps it on the system-wide monotonic clock. Two loopback hops, three processes,
// no work: whatever this measures, no hub can beat on this machine.
// Usage: node loopback-floor.mjs [seconds]  →  prints {"p50":…,"p99":…,"n":…}
import { fork } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { once } from 'node:events';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const [role, arg] = process.argv.slice(2);

if (role === 'relay') {
  const out = createConnection(Number(arg), '127.0.0.1');
  out.setNoDelay(true);
  const server = createServer((s) => {
    s.setNoDelay(true);
    s.on('data', (d) => setImmediate(() => out.write(d)));
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else if (role === 'receiver') {
  const latencies = [];
  const server = createServer((s) => {
    s.setNoDelay(true);
    let pending = '';
    s.on('data', (d) => {
      const at = now();
      pending += d.toString();
      let i;
      while ((i = pending.indexOf('\n')) >= 0) {
        latencies.push(at - Number(pending.slice(0, i)));
        pending = pending.slice(i + 1);
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('message', () => process.send(latencies));
} else {
  const seconds = Number(role ?? 8);
  const self = new URL(import.meta.url).pathname;
  const receiver = fork(self, ['receiver']);
  const [receiverPort] = await once(receiver, 'message');
  const relay = fork(self, ['relay', String(receiverPort)]);
  const [relayPort] = await once(relay, 'message');
  const boards = await Promise.all(Array.from({ length: 16 }, () => new Promise((resolve) => {
    const s = createConnection(relayPort, '127.0.0.1', () => resolve(s));
    s.setNoDelay(true);
  })));
  // 36 events per second per board (the bench's rail hits at 50 frames/s), at random times.
  let seed = 20261130;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const end = Date.now() + seconds * 1000;
  for (const s of boards) {
    const send = () => {
      if (Date.now() > end) return;
      s.write(`${now()}\n`);
      setTimeout(send, -Math.log(1 - random()) * (1000 / 36));
    };
    send();
  }
  await new Promise((r) => setTimeout(r, seconds * 1000 + 300));
  receiver.send('report');
  const [latencies] = await once(receiver, 'message');
  latencies.sort((a, b) => a - b);
  const q = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] * 100) / 100;
  console.log(JSON.stringify({ p50: q(0.5), p99: q(0.99), n: latencies.length }));
  receiver.kill();
  relay.kill();
  boards.forEach((s) => s.destroy());
}
