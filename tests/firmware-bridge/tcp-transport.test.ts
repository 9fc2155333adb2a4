import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Bridge, type BridgeEvent } from '../../firmware-bridge/bridge.ts';
import { encodeBoardMessage } from '../../firmware-bridge/messages.ts';
import { TcpTransport } from '../../firmware-bridge/transports/tcp.ts';

/** A stand-in for ser2net: a loopback TCP server that hands each connection to the test. */
async function serialServer() {
  const sockets: Socket[] = [];
  const received: Buffer[] = [];
  const server: Server = createServer((s) => {
    sockets.push(s);
    s.on('data', (d) => received.push(d));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return { server, port, sockets, received, close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))) };
}

const until = async (ok: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

const HELLO = encodeBoardMessage({ kind: 'hello', seq: 0, protocol: 1, firmware: 'tcp-test', adcChannels: 8, skittles: 7, resetCause: 1, boardUs: 10 });

/** A bridge on a TcpTransport to a fresh serial server, started, with the board's end of the link and every event it emits. */
async function bridgeToBoard(silenceMs: number) {
  const srv = await serialServer();
  cleanup.push(srv.close);
  const bridge = new Bridge({ transport: new TcpTransport({ host: '127.0.0.1', port: srv.port }), clock: () => performance.now(), silenceMs, reconnect: { initialMs: 20, maxMs: 50 } });
  const events: BridgeEvent[] = [];
  bridge.on('event', (e: BridgeEvent) => events.push(e));
  await bridge.start();
  cleanup.push(() => bridge.stop());
  await until(() => srv.sockets.length === 1);
  const board = srv.sockets[0]!;
  board.write(HELLO);
  return { srv, bridge, events, board };
}

describe('TcpTransport (a board behind ser2net)', () => {
  it('carries the board protocol both ways and reports the far end closing as an unplug, then reconnects', async () => {
    const { srv, bridge, events, board } = await bridgeToBoard(0);
    board.write(encodeBoardMessage({ kind: 'impact', seq: 1, channel: 2, amplitude: 99, boardUs: 5000 }));
    await until(() => events.some((e) => e.type === 'rail-hit'));
    expect(events.find((e) => e.type === 'rail-hit')).toMatchObject({ channel: 2, amplitude: 99 });

    // Hub → board: a command reaches the serial server's socket.
    await bridge.send({ kind: 'set-channel', channel: 1, threshold: 40, refractoryMs: 30 });
    await until(() => srv.received.length > 0);

    board.destroy(); // the serial server drops the link
    await until(() => events.some((e) => e.type === 'link' && e.state === 'down'));
    await until(() => srv.sockets.length === 2); // the bridge came back on its own
    srv.sockets[1]!.write(HELLO);
    await until(() => events.filter((e) => e.type === 'link' && e.state === 'up').length === 2);
  });

  it('holds its input under backpressure (issue 18): nothing read while held, nothing lost, the link not taken for silent', async () => {
    const { bridge, events, board } = await bridgeToBoard(150);
    await until(() => events.some((e) => e.type === 'link' && e.state === 'up'));
    const hits = () => events.filter((e) => e.type === 'rail-hit').length;

    bridge.hold(true);
    // 2,000 hits while held, over three times the silence allowance: they wait in the socket buffers.
    for (let i = 1; i <= 2000; i++) board.write(encodeBoardMessage({ kind: 'impact', seq: i % 256, channel: i % 4, amplitude: 90, boardUs: 10 + i * 100 }));
    await new Promise((r) => setTimeout(r, 500));
    expect(hits()).toBe(0);
    expect(events.some((e) => e.type === 'link' && e.state === 'down')).toBe(false);

    bridge.hold(false);
    await until(() => hits() === 2000);
    expect(Object.values(bridge.stats().dropped).reduce((a, b) => a + b, 0)).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.some((e) => e.type === 'link' && e.state === 'down')).toBe(false);

    // Silence after the hold is still silence: reported once silenceMs has passed with nothing.
    await until(() => events.some((e) => e.type === 'link' && e.state === 'down'), 2000);
  });

  it('a connect to a port where nothing listens fails with an error naming host and port', async () => {
    const srv = await serialServer();
    const port = srv.port;
    await srv.close(); // now nothing listens there
    await expect(new TcpTransport({ host: '127.0.0.1', port }).connect()).rejects.toThrow(`tcp 127.0.0.1:${port}`);
  });

  it('rejects a bad host or port when constructed', () => {
    expect(() => new TcpTransport({ host: '', port: 4000 })).toThrow(/host/);
    expect(() => new TcpTransport({ host: 'bridge.local', port: 70000 })).toThrow(/port/);
  });
});
