import { EventEmitter, on } from 'node:events';
import { BoardSettings, type SettingsSummary } from './board-settings.ts';
import { BoardTimeUnwrapper, ClockMapper, wrapDelta } from './clock.ts';
import { FrameDecoder, type DecoderStats } from './decoder.ts';
import { decodeMessage, encodeCommand, ProtocolError, type AckMsg, type BoardMessage, type Command, type ConfigMsg, type SelfTestMsg } from './messages.ts';
import { CLICK_CHANNEL, FRAME_OVERHEAD, PROTOCOL_VERSION, SUPPORTED_PROTOCOLS, type RawFrame } from './protocol.ts';
import type { Connection, Transport } from './transport.ts';

const TWO32 = 2 ** 32;

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

interface ResolvedOptions {
  transport: Transport;
  clock: () => number;
  baudRate: number;
  reconnect: ReconnectOptions;
  silenceMs: number;
  channels: Array<{ channel: number; threshold: number; refractoryMs: number }>;
  debounceMs: number;
  invertSwitches: number;
  settingsRetryMs: number;
}

function bad(option: string, why: string): never {
  throw new TypeError(`Bridge option "${option}" ${why}`);
}
function num(option: string, v: unknown, lo: number, hi: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) bad(option, `must be a number in ${lo}..${hi}, got ${JSON.stringify(v)}`);
  return v;
}

/** Validates options at the boundary; every error names the bad option. */
export function resolveBridgeOptions(o: unknown): ResolvedOptions {
  if (typeof o !== 'object' || o === null) throw new TypeError('Bridge options must be an object');
  const opts = o as Record<string, unknown>;
  const t = opts.transport as Transport | undefined;
  if (typeof t !== 'object' || t === null || typeof t.connect !== 'function') bad('transport', 'must be an object with a connect() method');
  const clock = opts.clock ?? (() => Date.now());
  if (typeof clock !== 'function') bad('clock', 'must be a function returning milliseconds');
  const rc = (opts.reconnect ?? {}) as Record<string, unknown>;
  if (typeof rc !== 'object') bad('reconnect', 'must be an object');
  const reconnect = {
    initialMs: num('reconnect.initialMs', rc.initialMs, 1, 600_000, 250),
    maxMs: num('reconnect.maxMs', rc.maxMs, 1, 3_600_000, 5000),
    factor: num('reconnect.factor', rc.factor, 1, 10, 2),
  };
  if (reconnect.maxMs < reconnect.initialMs) bad('reconnect.maxMs', 'must not be below reconnect.initialMs');
  const channels = opts.channels ?? [];
  if (!Array.isArray(channels)) bad('channels', 'must be an array');
  channels.forEach((c: unknown, i: number) => {
    const ch = c as Record<string, unknown>;
    if (typeof c !== 'object' || c === null) bad(`channels[${i}]`, 'must be an object');
    num(`channels[${i}].channel`, ch.channel ?? NaN, 0, 6, 0);
    num(`channels[${i}].threshold`, ch.threshold ?? NaN, 0, 255, 0);
    num(`channels[${i}].refractoryMs`, ch.refractoryMs ?? NaN, 0, 7000, 0);
    for (const k of ['channel', 'threshold', 'refractoryMs']) {
      if (!Number.isInteger(ch[k])) bad(`channels[${i}].${k}`, 'must be an integer');
    }
  });
  for (const k of ['debounceMs', 'invertSwitches']) {
    if (opts[k] !== undefined && !Number.isInteger(opts[k])) bad(k, 'must be an integer');
  }
  return {
    transport: t,
    clock: clock as () => number,
    baudRate: num('baudRate', opts.baudRate, 300, 4_000_000, 115200),
    reconnect,
    silenceMs: num('silenceMs', opts.silenceMs, 0, 3_600_000, 1000),
    channels: channels as ResolvedOptions['channels'],
    debounceMs: num('debounceMs', opts.debounceMs, 1, 200, 10),
    invertSwitches: num('invertSwitches', opts.invertSwitches, 0, 0x7f, 0),
    settingsRetryMs: num('settingsRetryMs', opts.settingsRetryMs, 10, 60_000, 500),
  };
}

/**
 * Table board -> normalised sensor events. Construction only validates options;
 * start() connects (retrying with backoff), stop() closes everything.
 * Emits 'event' with every BridgeEvent and also each under its own type name.
 */
export class Bridge extends EventEmitter {
  private readonly o: ResolvedOptions;
  private conn: Connection | null = null;
  private decoder = new FrameDecoder();
  private running = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private silenceTimer: NodeJS.Timeout | null = null;
  private backoff = 0;
  private linkUp = false;
  private silent = false;
  private lastFrameHub = 0;
  private cmdSeq = 0;
  private lastError: string | null = null;
  private foreignProtocol: number | null = null;
  /** What the hub wants on the board, and what this boot of it acknowledged. */
  private readonly settings: BoardSettings;
  private settingsReported = '';
  private pushing = false;
  /** Per connection: a HELLO seen (else GET_VERSION is asked, at most every 250 ms). */
  private helloThisConnection = false;
  private lastVersionAsk = -Infinity;

  // Per board session (reset on reconnect and on board reset).
  private lastSeq: number | null = null;
  private sawHello = false;
  private sessionFrames = 0;
  private readonly unwrap = new BoardTimeUnwrapper();
  /** Protocol 2: the board's boot counter, and whether a 48-bit time anchored this session. */
  private bootId: number | null = null;
  private protocol: number | null = null;
  private absoluteSeen = false;
  private readonly clock: ClockMapper = new ClockMapper();
  private counters: { eventsDropped: number; txDropped: number; rxErrors: number } | null = null;
  private decoderSeen: DecoderStats = { frames: 0, garbageBytes: 0, badCrc: 0, badLength: 0, truncatedBytes: 0 };

  private readonly s = {
    connects: 0,
    frames: 0,
    events: 0,
    boardResets: 0,
    dropped: { 'seq-gap': 0, corrupt: 0, invalid: 0, 'board-queue': 0, 'board-tx': 0, 'board-rx': 0 } as Record<DropSource, number>,
  };

  constructor(options: BridgeOptions) {
    super();
    this.o = resolveBridgeOptions(options);
    this.settings = new BoardSettings([
      ...this.o.channels.map((c) => ({ name: `channel ${c.channel}`, command: { kind: 'set-channel' as const, ...c } })),
      { name: 'debounce', command: { kind: 'set-debounce', ms: this.o.debounceMs } },
      { name: 'switch polarity', command: { kind: 'set-invert', mask: this.o.invertSwitches } },
    ]);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.backoff = this.o.reconnect.initialMs;
    if (this.o.silenceMs > 0) {
      this.silenceTimer = setInterval(() => this.checkSilence(), Math.max(10, this.o.silenceMs / 4));
      this.silenceTimer.unref?.();
    }
    await this.connectOnce();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.silenceTimer) clearInterval(this.silenceTimer);
    this.retryTimer = this.silenceTimer = null;
    const c = this.conn;
    this.conn = null;
    if (c) {
      c.removeAllListeners('data');
      await c.close().catch(() => undefined);
      this.setLink('down', 'stopped');
    }
  }

  /** Sends a command; resolves when written. The reply arrives as a 'reply' event. */
  async send(cmd: Command): Promise<number> {
    const seq = this.cmdSeq;
    const frame = encodeCommand(cmd, seq); // validates before touching the wire
    if (!this.conn) throw new Error('bridge is not connected');
    this.cmdSeq = (seq + 1) & 0xff;
    await this.conn.write(frame);
    return seq;
  }

  /**
   * New channel settings (a referee calibrating from the hardware page): validated, then
   * tracked like the configured ones: sent now if the board has said HELLO, and again
   * after every reset, until acknowledged.
   */
  async setChannels(channels: ReadonlyArray<{ channel: number; threshold: number; refractoryMs: number }>): Promise<void> {
    for (const c of channels) encodeCommand({ kind: 'set-channel', ...c }, 0); // throws naming a bad value
    if (!this.conn) throw new Error('bridge is not connected');
    for (const c of channels) this.settings.set(`channel ${c.channel}`, { kind: 'set-channel', channel: c.channel, threshold: c.threshold, refractoryMs: c.refractoryMs });
    if (this.helloThisConnection) await this.pushSettings();
    else this.reportSettings();
  }

  stats(): BridgeStats {
    return {
      linkUp: this.linkUp,
      connects: this.s.connects,
      frames: this.s.frames,
      events: this.s.events,
      decoder: { ...this.decoder.stats },
      dropped: { ...this.s.dropped },
      boardResets: this.s.boardResets,
      driftPpm: this.clock.driftPpm,
      lastError: this.lastError,
      bootId: this.bootId,
      settings: this.settings.summary(),
    };
  }

  /** Async iteration over every BridgeEvent (until the iterator is returned). */
  async *[Symbol.asyncIterator](): AsyncGenerator<BridgeEvent> {
    for await (const [ev] of on(this, 'event')) yield ev as BridgeEvent;
  }

  private now(): number {
    return this.o.clock();
  }

  private out(ev: BridgeEvent): void {
    this.emit('event', ev);
    this.emit(ev.type, ev);
  }

  private setLink(state: 'up' | 'down', reason: string): void {
    if ((state === 'up') === this.linkUp) return;
    this.linkUp = state === 'up';
    this.out({ type: 'link', state, reason, hubTime: this.now() });
  }

  private drop(source: DropSource, count: number, detail?: string): void {
    if (count <= 0) return;
    this.s.dropped[source] += count;
    const ev: DroppedEvent = { type: 'dropped', source, count, hubTime: this.now() };
    if (detail !== undefined) ev.detail = detail;
    this.out(ev);
  }

  private async connectOnce(): Promise<void> {
    this.retryTimer = null;
    if (!this.running) return;
    let conn: Connection;
    try {
      conn = await this.o.transport.connect();
    } catch (err) {
      this.scheduleRetry((err as Error).message);
      return;
    }
    if (!this.running) {
      await conn.close().catch(() => undefined);
      return;
    }
    this.s.connects++;
    this.conn = conn;
    this.backoff = this.o.reconnect.initialMs;
    // A partial frame from before the unplug cannot complete. Board state (sequence,
    // clock) is kept: if the same board kept running, the sequence gap counts what was
    // lost meanwhile; if it restarted, its hello or its time going backwards says so.
    this.decoder.reset();
    this.decoderSeen = { ...this.decoder.stats };
    this.lastFrameHub = this.now();
    this.silent = false;
    conn.on('data', (chunk: Buffer) => this.onData(chunk));
    conn.once('close', (err: Error | null) => {
      if (this.conn !== conn) return;
      this.conn = null;
      const why = err ? `disconnected: ${err.message}` : 'closed';
      this.setLink('down', why);
      this.scheduleRetry(why);
    });
    // Nothing is written until the board speaks: opening the port resets an Uno/Nano and
    // its bootloader would eat (or choke on) commands. Its HELLO starts the settings push.
    this.helloThisConnection = false;
    this.lastVersionAsk = -Infinity;
    if (this.protocol !== 2) this.settings.invalidate(); // a v1 board cannot say it kept them
    this.setLink('up', `connected ${conn.description}`);
  }

  private scheduleRetry(why: string): void {
    this.lastError = why;
    if (!this.running || this.retryTimer) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.o.reconnect.maxMs, this.backoff * this.o.reconnect.factor);
    this.retryTimer = setTimeout(() => void this.connectOnce(), wait);
  }

  /** Sends every setting not yet acknowledged by this boot (or unanswered too long). */
  private async pushSettings(): Promise<void> {
    if (this.pushing) return; // one push at a time; the next heartbeat catches up
    this.pushing = true;
    try {
      for (const { name, command } of this.settings.due(this.now(), this.o.settingsRetryMs)) {
        if (!this.conn) return;
        this.settings.sent(name, this.cmdSeq, this.now());
        try {
          await this.send(command);
        } catch {
          this.settings.unsent(name);
          return; // link went away; the next HELLO pushes again
        }
      }
    } finally {
      this.pushing = false;
    }
    this.reportSettings();
  }

  /** Emits 'board-settings' when the confirmed/pending picture changes. */
  private reportSettings(): void {
    const sum = this.settings.summary();
    const unconfirmed = sum.items.filter((i) => i.state !== 'confirmed').map((i) => i.name);
    const key = JSON.stringify([this.bootId, sum.confirmed, sum.pending, sum.rejected, sum.unsupported, unconfirmed]);
    if (key === this.settingsReported) return;
    this.settingsReported = key;
    const { items: _items, ...counts } = sum;
    this.out({ type: 'board-settings', ...counts, bootId: this.bootId, unconfirmed, hubTime: this.now() });
  }

  /** Asks a board that has not said HELLO on this connection who it is (rate-limited). */
  private askVersion(): void {
    if (this.helloThisConnection || this.now() - this.lastVersionAsk < 250) return;
    this.lastVersionAsk = this.now();
    this.send({ kind: 'get-version' }).catch(() => undefined);
  }

  private checkSilence(): void {
    if (!this.conn || this.silent) return;
    if (this.now() - this.lastFrameHub > this.o.silenceMs) {
      this.silent = true;
      this.setLink('down', 'silent: no valid frame');
    }
  }

  private newSession(): void {
    this.lastSeq = null;
    this.sawHello = false;
    this.sessionFrames = 0;
    this.unwrap.reset();
    this.clock.reset();
    this.counters = null;
    this.absoluteSeen = false;
    this.settings.invalidate();
  }

  private onData(chunk: Buffer): void {
    const frames: RawFrame[] = [];
    this.decoder.write(chunk);
    let f: RawFrame | null;
    while ((f = this.decoder.read() as RawFrame | null) !== null) frames.push(f);
    const st = this.decoder.stats;
    const corrupt = st.badCrc - this.decoderSeen.badCrc + (st.badLength - this.decoderSeen.badLength);
    if (corrupt > 0) this.drop('corrupt', corrupt, `${st.garbageBytes - this.decoderSeen.garbageBytes} bytes skipped`);
    this.decoderSeen = { ...st };
    for (const fr of frames) this.onFrame(fr);
  }

  private onFrame(frame: RawFrame): void {
    const hubNow = this.now();
    this.s.frames++;
    this.lastFrameHub = hubNow;
    if (this.silent) {
      this.silent = false;
      this.setLink('up', 'frames resumed');
    }
    let msg: BoardMessage;
    try {
      msg = decodeMessage(frame);
    } catch (err) {
      this.trackSeq(frame, false);
      if (err instanceof ProtocolError) return this.drop('invalid', 1, err.message);
      throw err;
    }
    if (msg.kind === 'hello') this.foreignProtocol = SUPPORTED_PROTOCOLS.includes(msg.protocol) ? null : msg.protocol;
    if (this.foreignProtocol !== null && msg.kind !== 'hello') {
      // Another protocol version may lay its payloads out differently: trust nothing.
      this.trackSeq(frame, false);
      return this.drop('invalid', 1, `board speaks protocol ${this.foreignProtocol}, this bridge ${SUPPORTED_PROTOCOLS.join(' and ')}`);
    }
    const v2 = msg.kind === 'hello' ? msg.v2 : undefined;
    // A new boot: v2 says so (flag, or another boot id); a v1 boot HELLO has SEQ 0 and a
    // board time behind ours (a HELLO answering GET_VERSION continues both).
    const ref = this.unwrap.referenceRaw;
    const boot = msg.kind === 'hello' && (v2 ? v2.atBoot || v2.bootId !== this.bootId : msg.seq === 0 && (ref === null || wrapDelta(ref, msg.boardUs) < 0));
    this.trackSeq(frame, boot);
    const hadFrames = this.sessionFrames > 0;
    this.sessionFrames++;
    if (msg.kind !== 'hello') this.askVersion();
    // Arrival is late at least by the frame's own line time (10 bits per byte).
    const arrival = hubNow - ((frame.payload.length + FRAME_OVERHEAD) * 10 * 1000) / this.o.baudRate;

    switch (msg.kind) {
      case 'hello': {
        this.helloThisConnection = true;
        // v2: a reset is a new boot of a board we had a session with (a first contact is not).
        const restarted = boot && (v2 ? this.bootId !== null || (v2.atBoot && hadFrames) : hadFrames);
        const detail = v2 && !v2.atBoot ? (boot && this.bootId !== null ? 'boot id changed' : 'hello on request') : boot ? 'hello at boot' : 'hello on request';
        if (boot) {
          this.resetSession();
          this.sessionFrames = 1;
          this.sawHello = true;
          this.lastSeq = msg.seq;
        }
        this.protocol = msg.protocol;
        if (v2) {
          this.bootId = v2.bootId;
          this.stampAbsolute(v2.usHigh * TWO32 + msg.boardUs, arrival);
        } else if (boot) {
          this.clock.add(this.unwrap.advance(msg.boardUs)!, arrival);
        } else {
          this.stampNow(msg.boardUs, arrival);
        }
        if (restarted) this.s.boardResets++;
        this.out({
          type: 'board',
          reason: restarted ? 'reset' : 'hello',
          detail,
          firmware: msg.firmware,
          protocol: msg.protocol,
          compatible: SUPPORTED_PROTOCOLS.includes(msg.protocol),
          resetCause: msg.resetCause,
          bootId: v2 ? v2.bootId : null,
          hubTime: hubNow,
        });
        void this.pushSettings();
        return;
      }
      case 'heartbeat': {
        let t: number;
        if (msg.v2) {
          if (this.bootId === null) this.bootId = msg.v2.bootId; // first contact, hello still to come
          else if (msg.v2.bootId !== this.bootId) this.boardRestarted('boot id changed', msg.v2.bootId);
          t = this.stampAbsolute(msg.v2.usHigh * TWO32 + msg.boardUs, arrival);
        } else {
          t = this.stampNow(msg.boardUs, arrival);
        }
        this.boardCounters(msg);
        if (this.helloThisConnection) void this.pushSettings(); // re-sends what is unanswered
        this.out({ type: 'heartbeat', boardUs: t, hubTime: this.clock.toHub(t), seq: msg.seq, loopMaxUs: msg.loopMaxUs, skittleMask: msg.skittleMask, driftPpm: this.clock.driftPpm });
        return;
      }
      case 'vibration': {
        // v2: only HELLO and HEARTBEAT (48-bit time, boot id) anchor the clock.
        const t = this.absoluteSeen ? this.stampPast(msg.boardUs, arrival) : this.stampNow(msg.boardUs, arrival);
        this.event({ type: 'vibration', level: msg.level, boardUs: t, hubTime: this.clock.toHub(t), seq: msg.seq });
        return;
      }
      case 'impact':
      case 'skittle': {
        const t = this.stampPast(msg.boardUs, arrival);
        const base = { boardUs: t, hubTime: this.clock.toHub(t), seq: msg.seq };
        if (msg.kind === 'skittle') this.event({ type: 'skittle', index: msg.index, state: msg.down ? 'down' : 'up', ...base });
        else if (msg.channel === CLICK_CHANNEL) this.event({ type: 'click', amplitude: msg.amplitude, ...base });
        else this.event({ type: 'rail-hit', channel: msg.channel, amplitude: msg.amplitude, ...base });
        return;
      }
      case 'ack':
        if (this.settings.ack(msg)) return this.reportSettings();
        this.out({ type: 'reply', message: msg, hubTime: hubNow });
        return;
      case 'config':
      case 'self-test':
        this.out({ type: 'reply', message: msg, hubTime: hubNow });
        return;
    }
  }

  private event(ev: RailHitEvent | ClickEvent | VibrationEvent | SkittleEvent): void {
    this.s.events++;
    this.out(ev);
  }

  private trackSeq(frame: RawFrame, isHello: boolean): void {
    const { seq } = frame;
    if (this.lastSeq !== null && !isHello) {
      // A corrupt frame also leaves a gap in the sequence: counted once, as corrupt.
      const gap = (seq - this.lastSeq - 1) & 0xff;
      const lost = gap - Math.min(gap, frame.corruptBefore ?? 0);
      if (lost > 0) this.drop('seq-gap', lost, `expected seq ${(this.lastSeq + 1) & 0xff}, got ${seq}`);
    }
    this.lastSeq = seq;
  }

  /** A board reset seen without its hello (lost, or we joined late). */
  private boardRestarted(detail: string, bootId: number | null = null): void {
    this.resetSession();
    this.sawHello = true; // the board's counters restarted from zero too
    this.bootId = bootId;
    this.s.boardResets++;
    this.out({ type: 'board', reason: 'reset', detail, firmware: null, protocol: null, compatible: true, resetCause: null, bootId, hubTime: this.now() });
    void this.pushSettings();
  }

  private resetSession(): void {
    const seq = this.lastSeq;
    this.newSession();
    this.lastSeq = seq;
  }

  /**
   * Protocol 2 stamp with the full 48-bit board time: a clock pair with no wrap ambiguity.
   * Time going backwards within one boot id cannot happen, so it is a restart.
   */
  private stampAbsolute(t: number, arrival: number): number {
    if (!this.absoluteSeen) {
      // Stamps seen before (32-bit only) had no high bits: start the mapping here.
      this.unwrap.reset();
      this.clock.reset();
      this.absoluteSeen = true;
    }
    if (this.unwrap.advanceAbsolute(t) === null) {
      this.boardRestarted('board time went backwards', this.bootId);
      this.absoluteSeen = true;
      this.unwrap.advanceAbsolute(t);
    }
    this.clock.add(t, arrival);
    return t;
  }

  /** Stamp taken when the frame was sent: a clock pair; going backwards means restart. */
  private stampNow(raw: number, arrival: number): number {
    let t = this.unwrap.advance(raw);
    if (t === null) {
      this.boardRestarted('board time went backwards');
      t = this.unwrap.advance(raw)!;
    }
    this.clock.add(t, arrival);
    return t;
  }

  /** Stamp of an earlier moment (an impact, a switch edge): mapped, not a clock pair. */
  private stampPast(raw: number, arrival: number): number {
    if (!this.clock.ready) return this.stampNow(raw, arrival);
    // Events wait in the board's queue for milliseconds, not seconds.
    const ref = this.unwrap.referenceRaw;
    if (ref === null) return this.stampNow(raw, arrival);
    const t = this.unwrap.unwrap(raw);
    // v1 only: with a boot id in every heartbeat, v2 does not guess restarts from time.
    if (!this.absoluteSeen && wrapDelta(ref, raw) < -2_000_000) {
      this.boardRestarted('event time far behind board time');
      return this.stampNow(raw, arrival);
    }
    return t;
  }

  private boardCounters(m: { eventsDropped: number; txDropped: number; rxErrors: number }): void {
    const prev = this.counters ?? (this.sawHello ? { eventsDropped: 0, txDropped: 0, rxErrors: 0 } : m);
    this.drop('board-queue', (m.eventsDropped - prev.eventsDropped) & 0xffff);
    this.drop('board-tx', (m.txDropped - prev.txDropped) & 0xffff);
    this.drop('board-rx', (m.rxErrors - prev.rxErrors) & 0xffff);
    this.counters = { eventsDropped: m.eventsDropped, txDropped: m.txDropped, rxErrors: m.rxErrors };
  }
}
