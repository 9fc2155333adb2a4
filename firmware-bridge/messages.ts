import { encodeFrame } from './frame.ts';
import { CmdType, DETECT_CHANNELS, HelloFlag, MsgType, PAYLOAD_LENGTH, PAYLOAD_LENGTHS, SKITTLES, type RawFrame } from './protocol.ts';

/** A frame that is well formed on the wire but not a valid message. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly frame: RawFrame,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export interface HelloMsg {
  kind: 'hello';
  seq: number;
  protocol: number;
  firmware: string;
  adcChannels: number;
  skittles: number;
  /** MCUSR at boot: 1 power-on, 2 external, 4 brown-out, 8 watchdog. */
  resetCause: number;
  boardUs: number;
  /** v2 only: board time bits 32..47, the EEPROM boot counter, and HELLO flags. */
  v2?: { usHigh: number; bootId: number; atBoot: boolean; causeFromBootloader: boolean };
}
export interface HeartbeatMsg {
  kind: 'heartbeat';
  seq: number;
  boardUs: number;
  /** Cumulative, wrapping at 2^16. */
  eventsDropped: number;
  txDropped: number;
  rxErrors: number;
  loopMaxUs: number;
  skittleMask: number;
  /** v2 only: the boot id and board time bits 32..47. */
  v2?: { bootId: number; usHigh: number };
}
export interface ImpactMsg {
  kind: 'impact';
  seq: number;
  channel: number;
  amplitude: number;
  boardUs: number;
}
export interface SkittleMsg {
  kind: 'skittle';
  seq: number;
  index: number;
  down: boolean;
  boardUs: number;
}
export interface VibrationMsg {
  kind: 'vibration';
  seq: number;
  level: number;
  boardUs: number;
}
export interface ChannelConfig {
  threshold: number;
  refractoryMs: number;
}
export interface ConfigMsg {
  kind: 'config';
  seq: number;
  channels: ChannelConfig[];
  debounceMs: number;
  /** v2 only: skittle switches read inverted (bit i = switch i). */
  invertMask?: number;
}
export interface AckMsg {
  kind: 'ack';
  seq: number;
  command: number;
  commandSeq: number;
  status: number;
}
export interface SelfTestMsg {
  kind: 'self-test';
  seq: number;
  commandSeq: number;
  adcRunning: boolean;
  timerRunning: boolean;
  channelsQuiet: boolean;
  adc: number[];
  skittleMask: number;
}

export type BoardMessage = HelloMsg | HeartbeatMsg | ImpactMsg | SkittleMsg | VibrationMsg | ConfigMsg | AckMsg | SelfTestMsg;

/** Typed message from a CRC-checked frame; throws ProtocolError naming what is wrong. */
export function decodeMessage(frame: RawFrame): BoardMessage {
  const { type, seq, payload: p } = frame;
  const lengths = PAYLOAD_LENGTHS[type] ?? (PAYLOAD_LENGTH[type] === undefined ? undefined : [PAYLOAD_LENGTH[type]]);
  const fail = (why: string): never => {
    throw new ProtocolError(`frame type 0x${type.toString(16)} seq ${seq}: ${why}`, frame);
  };
  if (lengths === undefined || type >= 0x80) fail('unknown board message type');
  if (!lengths!.includes(p.length)) fail(`payload is ${p.length} bytes, expected ${lengths!.join(' or ')}`);
  const v2 = lengths!.length > 1 && p.length === lengths![1];
  switch (type) {
    case MsgType.Hello: {
      if (v2 && p[0]! < 2) fail(`a ${p.length}-byte hello claims protocol ${p[0]}`);
      const hello: HelloMsg = {
        kind: 'hello',
        seq,
        protocol: p[0]!,
        firmware: `${p[1]}.${p[2]}.${p[3]}`,
        adcChannels: p[4]!,
        skittles: p[5]!,
        resetCause: p[6]!,
        boardUs: p.readUInt32LE(7),
      };
      if (v2) hello.v2 = { usHigh: p.readUInt16LE(11), bootId: p.readUInt16LE(13), atBoot: (p[15]! & HelloFlag.AtBoot) !== 0, causeFromBootloader: (p[15]! & HelloFlag.CauseFromBootloader) !== 0 };
      return hello;
    }
    case MsgType.Heartbeat: {
      if (p[12]! > 0x7f) fail(`skittle mask 0x${p[12]!.toString(16)} has bit 7 set`);
      const hb: HeartbeatMsg = {
        kind: 'heartbeat',
        seq,
        boardUs: p.readUInt32LE(0),
        eventsDropped: p.readUInt16LE(4),
        txDropped: p.readUInt16LE(6),
        rxErrors: p.readUInt16LE(8),
        loopMaxUs: p.readUInt16LE(10),
        skittleMask: p[12]!,
      };
      if (v2) hb.v2 = { bootId: p.readUInt16LE(13), usHigh: p.readUInt16LE(15) };
      return hb;
    }
    case MsgType.Impact:
      if (p[0]! >= DETECT_CHANNELS) fail(`impact channel ${p[0]} out of 0..${DETECT_CHANNELS - 1}`);
      return { kind: 'impact', seq, channel: p[0]!, amplitude: p[1]!, boardUs: p.readUInt32LE(2) };
    case MsgType.Skittle:
      if (p[0]! >= SKITTLES) fail(`skittle index ${p[0]} out of 0..${SKITTLES - 1}`);
      if (p[1]! > 1) fail(`skittle state ${p[1]} is neither 0 nor 1`);
      return { kind: 'skittle', seq, index: p[0]!, down: p[1] === 1, boardUs: p.readUInt32LE(2) };
    case MsgType.Vibration:
      return { kind: 'vibration', seq, level: p[0]!, boardUs: p.readUInt32LE(1) };
    case MsgType.Config: {
      if (p[0] !== DETECT_CHANNELS) fail(`config lists ${p[0]} channels, expected ${DETECT_CHANNELS}`);
      const channels: ChannelConfig[] = [];
      for (let i = 0; i < DETECT_CHANNELS; i++) {
        channels.push({ threshold: p[1 + i * 3]!, refractoryMs: p.readUInt16LE(2 + i * 3) });
      }
      const cfg: ConfigMsg = { kind: 'config', seq, channels, debounceMs: p[1 + DETECT_CHANNELS * 3]! };
      if (v2) {
        if (p[2 + DETECT_CHANNELS * 3]! > 0x7f) fail('switch invert mask has bit 7 set');
        cfg.invertMask = p[2 + DETECT_CHANNELS * 3]!;
      }
      return cfg;
    }
    case MsgType.Ack:
      if (p[2]! > 3) fail(`ack status ${p[2]} unknown`);
      return { kind: 'ack', seq, command: p[0]!, commandSeq: p[1]!, status: p[2]! };
    case MsgType.SelfTest:
      return {
        kind: 'self-test',
        seq,
        commandSeq: p[0]!,
        adcRunning: (p[1]! & 1) !== 0,
        timerRunning: (p[1]! & 2) !== 0,
        channelsQuiet: (p[1]! & 4) !== 0,
        adc: [...p.subarray(2, 10)],
        skittleMask: p[10]!,
      };
  }
  return fail('unhandled type');
}

const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
};
const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v & 0xffff);
  return b;
};

/** The exact frame the firmware sends for a message (tests, the Firmata path). */
export function encodeBoardMessage(m: BoardMessage): Buffer {
  switch (m.kind) {
    case 'hello': {
      const [a, b, c] = m.firmware.split('.').map(Number);
      const v2 = m.v2 ? [u16(m.v2.usHigh), u16(m.v2.bootId), Buffer.from([(m.v2.atBoot ? HelloFlag.AtBoot : 0) | (m.v2.causeFromBootloader ? HelloFlag.CauseFromBootloader : 0)])] : [];
      return encodeFrame(MsgType.Hello, m.seq, Buffer.concat([Buffer.from([m.protocol, a ?? 0, b ?? 0, c ?? 0, m.adcChannels, m.skittles, m.resetCause]), u32(m.boardUs), ...v2]));
    }
    case 'heartbeat': {
      const v2 = m.v2 ? [u16(m.v2.bootId), u16(m.v2.usHigh)] : [];
      return encodeFrame(MsgType.Heartbeat, m.seq, Buffer.concat([u32(m.boardUs), u16(m.eventsDropped), u16(m.txDropped), u16(m.rxErrors), u16(m.loopMaxUs), Buffer.from([m.skittleMask]), ...v2]));
    }
    case 'impact':
      return encodeFrame(MsgType.Impact, m.seq, Buffer.concat([Buffer.from([m.channel, m.amplitude]), u32(m.boardUs)]));
    case 'skittle':
      return encodeFrame(MsgType.Skittle, m.seq, Buffer.concat([Buffer.from([m.index, m.down ? 1 : 0]), u32(m.boardUs)]));
    case 'vibration':
      return encodeFrame(MsgType.Vibration, m.seq, Buffer.concat([Buffer.from([m.level]), u32(m.boardUs)]));
    case 'config':
      return encodeFrame(MsgType.Config, m.seq, Buffer.concat([Buffer.from([m.channels.length]), ...m.channels.map((c) => Buffer.concat([Buffer.from([c.threshold]), u16(c.refractoryMs)])), Buffer.from(m.invertMask === undefined ? [m.debounceMs] : [m.debounceMs, m.invertMask])]));
    case 'ack':
      return encodeFrame(MsgType.Ack, m.seq, Buffer.from([m.command, m.commandSeq, m.status]));
    case 'self-test':
      return encodeFrame(MsgType.SelfTest, m.seq, Buffer.from([m.commandSeq, (m.adcRunning ? 1 : 0) | (m.timerRunning ? 2 : 0) | (m.channelsQuiet ? 4 : 0), ...m.adc, m.skittleMask]));
  }
}

/** Commands from the hub. Values are checked here so a bad call never reaches the wire. */
export type Command =
  | { kind: 'set-channel'; channel: number; threshold: number; refractoryMs: number }
  | { kind: 'set-debounce'; ms: number }
  /** v2: bit i set = skittle switch i reads high when the skittle is down. */
  | { kind: 'set-invert'; mask: number }
  | { kind: 'get-version' }
  | { kind: 'get-config' }
  | { kind: 'self-test' };

function intIn(name: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`${name} must be an integer in ${lo}..${hi}, got ${String(v)}`);
  }
  return v;
}

export function encodeCommand(cmd: Command, seq: number): Buffer {
  switch (cmd.kind) {
    case 'set-channel':
      return encodeFrame(CmdType.SetChannel, seq, Buffer.concat([
        Buffer.from([intIn('channel', cmd.channel, 0, DETECT_CHANNELS - 1), intIn('threshold', cmd.threshold, 0, 255)]),
        u16(intIn('refractoryMs', cmd.refractoryMs, 0, 7000)),
      ]));
    case 'set-debounce':
      return encodeFrame(CmdType.SetDebounce, seq, Buffer.from([intIn('ms', cmd.ms, 1, 200)]));
    case 'set-invert':
      return encodeFrame(CmdType.SetInvert, seq, Buffer.from([intIn('mask', cmd.mask, 0, 0x7f)]));
    case 'get-version':
      return encodeFrame(CmdType.GetVersion, seq);
    case 'get-config':
      return encodeFrame(CmdType.GetConfig, seq);
    case 'self-test':
      return encodeFrame(CmdType.SelfTest, seq);
    default:
      throw new TypeError(`unknown command ${JSON.stringify((cmd as { kind?: unknown }).kind)}`);
  }
}
