/**
 * Wire protocol v2 between the table board and the hub (see PROTOCOL.md); v1 boards are
 * still understood (their HELLO, HEARTBEAT and CONFIG are shorter).
 * Frame: SYNC0 SYNC1 LEN TYPE SEQ PAYLOAD[LEN] CRC_HI CRC_LO, CRC-16/CCITT-FALSE over
 * LEN..PAYLOAD. Multi-byte payload fields are little-endian.
 */
export const PROTOCOL_VERSION = 2;
/** Versions whose frames this bridge decodes. */
export const SUPPORTED_PROTOCOLS: readonly number[] = [1, 2];
export const SYNC0 = 0xa5;
export const SYNC1 = 0x5a;
export const MAX_PAYLOAD = 48;
/** Bytes a frame adds around its payload. */
export const FRAME_OVERHEAD = 7;

export const MsgType = {
  Hello: 0x01,
  Heartbeat: 0x02,
  Impact: 0x03,
  Skittle: 0x04,
  Vibration: 0x05,
  Config: 0x06,
  Ack: 0x07,
  SelfTest: 0x08,
} as const;

export const CmdType = {
  SetChannel: 0x81,
  GetVersion: 0x82,
  GetConfig: 0x83,
  SelfTest: 0x84,
  SetDebounce: 0x85,
  SetInvert: 0x86,
} as const;

/** HELLO flags (v2). */
export const HelloFlag = { AtBoot: 1, CauseFromBootloader: 2 } as const;

/**
 * Payload lengths per message type: [v1, v2]. A frame of any other length is rejected.
 * The v1 and v2 lengths differ in at least three bits, so one flipped LEN bit cannot turn
 * one layout into the other.
 */
export const PAYLOAD_LENGTHS: Readonly<Record<number, readonly number[]>> = {
  [MsgType.Hello]: [11, 16],
  [MsgType.Heartbeat]: [13, 17],
  [MsgType.Config]: [23, 24],
};

/** Fixed payload length per type (v1 layout for the types above). */
export const PAYLOAD_LENGTH: Readonly<Record<number, number>> = {
  [MsgType.Hello]: 11,
  [MsgType.Heartbeat]: 13,
  [MsgType.Impact]: 6,
  [MsgType.Skittle]: 6,
  [MsgType.Vibration]: 5,
  [MsgType.Config]: 23,
  [MsgType.Ack]: 3,
  [MsgType.SelfTest]: 11,
  [CmdType.SetChannel]: 4,
  [CmdType.GetVersion]: 0,
  [CmdType.GetConfig]: 0,
  [CmdType.SelfTest]: 0,
  [CmdType.SetDebounce]: 1,
  [CmdType.SetInvert]: 1,
};

/** Impact channels: 0..5 rail piezos, 6 ball-contact; ADC 7 is bed vibration. */
export const RAIL_CHANNELS = 6;
export const CLICK_CHANNEL = 6;
export const DETECT_CHANNELS = 7;
export const SKITTLES = 7;

export const AckStatus = { Ok: 0, BadLength: 1, BadValue: 2, Unknown: 3 } as const;

/** A frame that passed sync, length and CRC checks; its payload is not yet typed. */
export interface RawFrame {
  type: number;
  seq: number;
  payload: Buffer;
  /** Candidate frames the decoder refused (bad CRC or length) since the previous good one. */
  corruptBefore?: number;
}
