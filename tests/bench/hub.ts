import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { VirtualBoard } from '../../hardware/simulator/virtual-board.ts';
import { parseConfig } from '../../hub/config/load.ts';
import { Hub } from '../../hub/hub.ts';
import { BridgeSource } from '../../hub/sources/bridge-source.ts';

/**
 * The hub under load: 16 tables, each a virtual board speaking the real protocol through
 * the real bridge, at a realistic and at a flood rate of rail hits. Latency is from the
 * board's bytes reaching the hub's serial side to an MQTT subscriber holding the event
 * (so it includes the store write and the broker).
 */
const TABLES = 16;

export interface HubFigure {
  rate: number;
  sent: number;
  received: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

export async function benchHub(ratePerTable: number, seconds: number): Promise<HubFigure> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-hub-'));
  const tables = Array.from({ length: TABLES }, (_, i) => ({ id: `b${i + 1}`, source: { type: 'simulator' }, quietWindowMs: 1500 }));
  const parsed = parseConfig(JSON.stringify({ hub: { id: 'bench' }, tables }));
  if (!parsed.ok) throw new Error(parsed.error);
  const boards = new Map<string, VirtualBoard>();
  const t0 = performance.now();
  const clock = () => performance.timeOrigin + performance.now();
  const hub = new Hub({
    config: parsed.value,
    dataDir,
    mqttPort: 0,
    sourceFor: (table) => {
      const board = new VirtualBoard(() => (performance.now() - t0) * 1000);
      boards.set(table.id, board);
      return new BridgeSource('simulator', board.transport, table, clock, true);
    },
  });
  await hub.start();
  for (const b of boards.values()) b.powerUp();

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const client = await mqtt.connectAsync(hub.mqttUrl, { reconnectPeriod: 0 });
  client.on('message', (_topic, payload) => {
    const e = JSON.parse(payload.toString()) as { type: string; sensor?: string; table: string; boardUs: number };
    if (e.type !== 'sensor' || e.sensor !== 'rail-hit') return;
    const key = `${e.table}:${e.boardUs}`;
    const sent = sentAt.get(key);
    if (sent !== undefined) {
      latencies.push(performance.now() - sent);
      sentAt.delete(key);
    }
  });
  await client.subscribeAsync('billiards/tables/+/events', { qos: 0 });

  let sent = 0;
  // Tables are not in step: each sends on its own timer, phases spread over the interval.
  // Above ~200 hits/s a table's timer cannot keep up, so a flood sends small bursts.
  const burst = Math.max(1, Math.round(ratePerTable / 200));
  const intervalMs = (1000 * burst) / ratePerTable;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    let k = 0;
    for (const [id, board] of boards) {
      const channel = k++ % 4;
      const phase = (intervalMs * k) / TABLES;
      timers.push(
        setTimeout(() => {
          timers.push(
            setInterval(() => {
              for (let i = 0; i < burst; i++) {
                const now = performance.now();
                const boardUs = board.impact(channel, 120);
                sentAt.set(`${id}:${boardUs}`, now);
                sent += 1;
              }
            }, intervalMs),
          );
        }, phase),
      );
    }
    setTimeout(() => {
      timers.forEach((t) => clearInterval(t));
      resolve();
    }, seconds * 1000);
  });
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 500)); // let the last ones arrive
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  await client.endAsync();
  for (const b of boards.values()) b.powerDown();
  await hub.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    rate: ratePerTable,
    sent,
    received: latencies.length,
    eventsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: Math.round(quantile(latencies, 0.5) * 100) / 100,
    p99Ms: Math.round(quantile(latencies, 0.99) * 100) / 100,
    rssMb: Math.round(rssMb),
  };
}
