import type { SettingsSummary } from './board-settings.ts';
import type { DecoderStats } from './decoder.ts';
import type { AckMsg, ConfigMsg, SelfTestMsg } from './messages.ts';
import type { Transport } from './transport.ts';

// The bridge's public vocabulary: the sensor events it emits, its statistics and its options.

export interface Stamped {
  /** Board microseconds, unwrapped past the 32-bit wrap (since the board's last reset). */
  boardUs: number;
  /** Hub time in ms (the injected clock's scale) the board time maps to. */
  hubTime: number;
  /** Frame sequence number (0..255). */
  seq: number;
}
export interface RailHitEvent extends Stamped {
  type: 'rail-hit';
  channel: number;
  amplitude: number;
}
export interface ClickEvent extends Stamped {
  type: 'click';
  amplitude: number;
}
export interface VibrationEvent extends Stamped {
  type: 'vibration';
  level: number;
}
export interface SkittleEvent extends Stamped {
  type: 'skittle';
  index: number;
  state: 'down' | 'up';
}
export interface HeartbeatEvent extends Stamped {
  type: 'heartbeat';
  loopMaxUs: number;
  skittleMask: number;
  driftPpm: number;
}
export interface LinkEvent {
  type: 'link';
  state: 'up' | 'down';
  reason: string;
  hubTime: number;
}
export type DropSource =
  | 'seq-gap' // frames missing between sequence numbers
  | 'corrupt' // bad CRC / bad length frames on the wire
  | 'invalid' // CRC-good frames that are not valid messages
  | 'board-queue' // events the board's queue could not hold
  | 'board-tx' // status frames the board could not send
  | 'board-rx'; // bytes/commands the board received badly
export interface DroppedEvent {
  type: 'dropped';
  source: DropSource;
  count: number;
  detail?: string;
  hubTime: number;
}
export interface BoardEvent {
  type: 'board';
  reason: 'hello' | 'reset';
  /** How the reset was seen: hello, time-backwards. */
  detail: string;
  firmware: string | null;
  protocol: number | null;
  compatible: boolean;
  resetCause: number | null;
  /** The board's boot counter (protocol 2), null from a v1 board. */
  bootId?: number | null;
  hubTime: number;
}
/** Which of the hub's board settings this boot of the board has acknowledged. */
export interface SettingsEvent extends Omit<SettingsSummary, 'items'> {
  type: 'board-settings';
  bootId: number | null;
  /** Names of the settings not (yet) in force: `channel 2`, `debounce`, `switch polarity`. */
  unconfirmed: string[];
  hubTime: number;
}
export interface ReplyEvent {
  type: 'reply';
  message: ConfigMsg | AckMsg | SelfTestMsg;
  hubTime: number;
}
export type BridgeEvent = RailHitEvent | ClickEvent | VibrationEvent | SkittleEvent | HeartbeatEvent | LinkEvent | DroppedEvent | BoardEvent | ReplyEvent | SettingsEvent;

export interface BridgeStats {
  linkUp: boolean;
  connects: number;
  frames: number;
  events: number;
  decoder: DecoderStats;
  dropped: Record<DropSource, number>;
  boardResets: number;
  driftPpm: number;
  /** The board's boot counter (protocol 2), and where each setting stands. */
  bootId: number | null;
  settings: SettingsSummary;
  /** Why the last connect attempt failed or the link was lost. */
  lastError: string | null;
}

export interface ReconnectOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
}
export interface BridgeOptions {
  transport: Transport;
  /** Hub clock in ms; injected so tests and replays control time. Default Date.now. */
  clock?: () => number;
  /** Line rate, used to subtract a frame's transmission time from its arrival time. */
  baudRate?: number;
  reconnect?: Partial<ReconnectOptions>;
  /** No valid frame for this long (hub clock) reports the link down. 0 disables. */
  silenceMs?: number;
  /** Channel settings pushed to the board after every HELLO until acknowledged. */
  channels?: Array<{ channel: number; threshold: number; refractoryMs: number }>;
  /** Skittle switch debounce in ms (1..200), pushed like the channels. Default 10. */
  debounceMs?: number;
  /** Skittle switches that read high when down (bit i = switch i). Default 0. */
  invertSwitches?: number;
  /** A setting not acknowledged within this long (hub clock) is sent again. Default 500. */
  settingsRetryMs?: number;
}
