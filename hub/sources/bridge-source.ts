import { Bridge, type BridgeEvent } from '../../firmware-bridge/bridge.ts';
import type { Transport } from '../../firmware-bridge/transport.ts';
import type { TableConfig } from '../config/schema.ts';
import type { SensorEvent } from '../pipeline/sensor-events.ts';
import { err, ok, type Result } from '../rules/result.ts';
import type { SensorSource } from './source.ts';

/**
 * A table's board through the firmware bridge: the same code for a real serial port, a
 * StandardFirmata board and the simulator's virtual board (STYLE 8).
 */
export class BridgeSource implements SensorSource {
  private bridge: Bridge | null = null;

  constructor(
    readonly kind: SensorSource['kind'],
    private readonly transport: Transport,
    private readonly table: TableConfig,
    private readonly clock: () => number,
    readonly simulated = false,
  ) {}

  async start(onEvent: (event: SensorEvent) => void): Promise<void> {
    const bridge = new Bridge({
      transport: this.transport,
      clock: this.clock,
      channels: this.table.thresholds,
      debounceMs: this.table.switches.debounceMs,
      invertSwitches: this.table.switches.inverted.reduce((mask, i) => mask | (1 << i), 0),
      baudRate: 'baudRate' in this.table.source ? this.table.source.baudRate : 115200,
    });
    bridge.on('event', (event: BridgeEvent) => {
      if (event.type !== 'reply') onEvent(event);
    });
    this.bridge = bridge;
    await bridge.start();
  }

  async stop(): Promise<void> {
    await this.bridge?.stop();
    this.bridge = null;
  }

  async setThresholds(channels: { channel: number; threshold: number; refractoryMs: number }[]): Promise<Result<unknown>> {
    if (!this.bridge) return err('the table\'s board is not connected');
    try {
      // Tracked by the bridge: re-sent after a board reset, confirmed by the board's ACK (table health `board`).
      await this.bridge.setChannels(channels);
      return ok({ sent: channels.length });
    } catch (e) {
      return err(`the board did not take the thresholds: ${(e as Error).message}`);
    }
  }

  hold(held: boolean): void {
    this.bridge?.hold(held);
  }

  stats() {
    const s = this.bridge?.stats();
    if (!s) return { framesDropped: 0, linkUp: false };
    return { framesDropped: Object.values(s.dropped).reduce((a, b) => a + b, 0), linkUp: s.linkUp };
  }
}

/**
 * The transport factory for a venue's tables: a serial port by path or by USB ids, a serial
 * server over TCP, or a Firmata board. Only the transports the configuration names are
 * loaded (serialport's native binding and johnny-five stay out of a start that needs neither).
 */
export async function loadTransports(tables: readonly TableConfig[]): Promise<(table: TableConfig, clockUs: () => number) => Transport> {
  const used = new Set(tables.map((t) => t.source.type));
  const [serial, tcp, firmata] = await Promise.all([
    used.has('serial') ? import('../../firmware-bridge/transports/serial.ts') : null,
    used.has('tcp') ? import('../../firmware-bridge/transports/tcp.ts') : null,
    used.has('firmata') ? import('../../firmware-bridge/transports/firmata.ts') : null,
  ]);
  return (table, clockUs) => {
    const source = table.source;
    switch (source.type) {
      case 'serial':
        return new serial!.SerialTransport({
          ...(source.path ? { path: source.path } : {}),
          ...(source.match ? { usbIds: [{ vendorId: source.match.vendorId.toLowerCase(), productId: source.match.productId.toLowerCase(), ...(source.match.serialNumber ? { serialNumber: source.match.serialNumber } : {}) }] } : {}),
          baudRate: source.baudRate,
        });
      case 'tcp':
        return new tcp!.TcpTransport({ host: source.host, port: source.port });
      case 'firmata':
        return new firmata!.FirmataTransport({ path: source.path, baudRate: source.baudRate, clockUs, johnnyFive: true });
      case 'simulator':
        throw new Error('a simulated table gets its transport from the simulator');
    }
  };
}
