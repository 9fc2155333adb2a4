/**
 * Test harness: real firmware in avr8js -> USART -> serialport mock -> Bridge.
 * The hub clock given to the bridge is the simulated time in ms, so every hub
 * timestamp can be compared with the simulated truth.
 */
import { SerialPortMock } from 'serialport';
import { Bridge, type BridgeEvent, type BridgeOptions } from '../../firmware-bridge/bridge.ts';
import { SerialTransport } from '../../firmware-bridge/transports/serial.ts';
import { TableSim } from './board.ts';
import { settle, SimSerialLink, TrackedPortMock } from './serial-link.ts';

let portCounter = 0;

export interface SimRig {
  sim: TableSim;
  link: SimSerialLink;
  bridge: Bridge;
  events: BridgeEvent[];
  path: string;
  of<T extends BridgeEvent['type']>(type: T): Extract<BridgeEvent, { type: T }>[];
  stop(): Promise<void>;
}

export interface SimRigOptions {
  program?: Uint16Array;
  /** Simulator options of the first board (preset uptime, shared EEPROM). */
  board?: ConstructorParameters<typeof TableSim>[1];
  /** Opening the port resets the board into a bootloader listening this long (us), as on an Uno/Nano. */
  portOpenResetUs?: number;
}

export async function createSimRig(opts: Partial<BridgeOptions> = {}, programOrRig?: Uint16Array | SimRigOptions): Promise<SimRig> {
  const rigOpts: SimRigOptions = programOrRig instanceof Uint16Array ? { program: programOrRig } : (programOrRig ?? {});
  const path = `/dev/ttySIM${portCounter++}`;
  SerialPortMock.binding.createPort(path, { record: true, vendorId: '2341', productId: '0043' });
  const sim = new TableSim(rigOpts.program, rigOpts.board);
  const link = new SimSerialLink(sim);
  if (rigOpts.portOpenResetUs !== undefined) link.holdInBootloader(rigOpts.portOpenResetUs, sim);
  const bridge = new Bridge({
    transport: new SerialTransport({ SerialPort: TrackedPortMock, usbIds: [{ vendorId: '2341', productId: '0043' }], path }),
    clock: () => link.hubMs,
    silenceMs: 0,
    reconnect: { initialMs: 5, maxMs: 20 },
    ...opts,
  });
  const events: BridgeEvent[] = [];
  bridge.on('event', (e: BridgeEvent) => events.push(e));
  link.hookOnOpen();
  await bridge.start();
  await settle();
  link.hookOpenPort();
  return {
    sim,
    link,
    bridge,
    events,
    path,
    of: <T extends BridgeEvent['type']>(type: T) => events.filter((e): e is Extract<BridgeEvent, { type: T }> => e.type === type),
    stop: () => bridge.stop(),
  };
}
