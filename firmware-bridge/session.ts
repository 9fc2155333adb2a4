import { BoardSettings } from './board-settings.ts';
import type { BridgeEvent, BridgeStats, ClickEvent, DropSource, DroppedEvent, RailHitEvent, SkittleEvent, VibrationEvent } from './bridge-types.ts';
import { BoardTimeUnwrapper, ClockMapper, wrapDelta } from './clock.ts';
import { FrameParser, type DecoderStats } from './decoder.ts';
import { decodeMessage, encodeCommand, ProtocolError, type BoardMessage, type Command } from './messages.ts';
import { CLICK_CHANNEL, FRAME_OVERHEAD, SUPPORTED_PROTOCOLS, type RawFrame } from './protocol.ts';

const TWO32 = 2 ** 32;

/** What a session is given: the hub clock, where its events go, and the board's write side. */
export interface SessionIo {
  /** Hub clock in ms. */
  now(): number;
  /** Every event the session produces, in order. */
  emit(event: BridgeEvent): void;
  /** Whether a connection is open (commands are refused without one). */
  connected(): boolean;
  /** Writes one encoded command frame to the board. */
  write(frame: Buffer): Promise<void>;
}

export interface SessionOptions {
  /** Line rate, used to subtract a frame's transmission time from its arrival time. */
  baudRate: number;
  channels: ReadonlyArray<{ channel: number; threshold: number; refractoryMs: number }>;
  debounceMs: number;
  invertSwitches: number;
  settingsRetryMs: number;
}

/**
 * The bridge's protocol logic with no I/O of its own: bytes in (data), sensor events out
 * (io.emit), command frames out (io.write), time from io.now. It owns the decoder, the
 * sequence and drop accounting, the board-clock mapping, resets and the settings push;
 * the Bridge around it owns the connection (connect, retry, silence timer, close).
 * Unit-testable with a fake clock and an array of frames, no port.
 */
export class BoardSession {
  private decoder = new FrameParser();
  private linkUp = false;
  private silent = false;
  private lastFrameHub = 0;
  private cmdSeq = 0;
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


  constructor(
    private readonly o: SessionOptions,
    private readonly io: SessionIo,
  ) {
    this.settings = new BoardSettings([
      ...this.o.channels.map((c) => ({ name: `channel ${c.channel}`, command: { kind: 'set-channel' as const, ...c } })),
      { name: 'debounce', command: { kind: 'set-debounce', ms: this.o.debounceMs } },
      { name: 'switch polarity', command: { kind: 'set-invert', mask: this.o.invertSwitches } },
    ]);
  }

  get isLinkUp(): boolean {
    return this.linkUp;
  }

  /**
   * A connection opened (the first or a reconnect). A partial frame from before the unplug
   * cannot complete. Board state (sequence, clock) is kept: if the same board kept running,
   * the sequence gap counts what was lost meanwhile; if it restarted, its hello or its time
   * going backwards says so.
   */
  connected(description: string): void {
    this.s.connects++;
    this.decoder.reset();
    this.decoderSeen = { ...this.decoder.stats };
    this.lastFrameHub = this.now();
    this.silent = false;
    // Nothing is written until the board speaks: opening the port resets an Uno/Nano and
    // its bootloader would eat (or choke on) commands. Its HELLO starts the settings push.
    this.helloThisConnection = false;
    this.lastVersionAsk = -Infinity;
    if (this.protocol !== 2) this.settings.invalidate(); // a v1 board cannot say it kept them
    this.setLink('up', `connected ${description}`);
  }

  /** The connection closed or was stopped. */
  disconnected(reason: string): void {
    this.setLink('down', reason);
  }

  /** Sends a command; resolves when written. The reply arrives as a 'reply' event. */
  async send(cmd: Command): Promise<number> {
    const seq = this.cmdSeq;
    const frame = encodeCommand(cmd, seq); // validates before touching the wire
    if (!this.io.connected()) throw new Error('bridge is not connected');
    this.cmdSeq = (seq + 1) & 0xff;
    await this.io.write(frame);
    return seq;
  }

  /**
   * New channel settings (a referee calibrating from the hardware page): validated, then
   * tracked like the configured ones: sent now if the board has said HELLO, and again
   * after every reset, until acknowledged.
   */
  async setChannels(channels: ReadonlyArray<{ channel: number; threshold: number; refractoryMs: number }>): Promise<void> {
    for (const c of channels) encodeCommand({ kind: 'set-channel', ...c }, 0); // throws naming a bad value
    if (!this.io.connected()) throw new Error('bridge is not connected');
    for (const c of channels) this.settings.set(`channel ${c.channel}`, { kind: 'set-channel', channel: c.channel, threshold: c.threshold, refractoryMs: c.refractoryMs });
    if (this.helloThisConnection) await this.pushSettings();
    else this.reportSettings();
  }

  stats(): Omit<BridgeStats, 'lastError'> {
    return {
      linkUp: this.linkUp,
      connects: this.s.connects,
      frames: this.s.frames,
      events: this.s.events,
      decoder: { ...this.decoder.stats },
      dropped: { ...this.s.dropped },
      boardResets: this.s.boardResets,
      driftPpm: this.clock.driftPpm,
      bootId: this.bootId,
      settings: this.settings.summary(),
    };
  }


  /** Bytes from the board: every whole frame in them is handled, in order. */
  data(chunk: Buffer): void {
    this.onData(chunk);
  }

  /** Reports the link down when no valid frame came for silenceMs (the bridge's timer asks). */
  checkSilence(silenceMs: number): void {
    if (this.silent) return;
    if (this.now() - this.lastFrameHub > silenceMs) {
      this.silent = true;
      this.setLink('down', 'silent: no valid frame');
    }
  }

  private now(): number {
    return this.io.now();
  }

  private out(ev: BridgeEvent): void {
    this.io.emit(ev);
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


  /** Sends every setting not yet acknowledged by this boot (or unanswered too long). */
  private async pushSettings(): Promise<void> {
    if (this.pushing) return; // one push at a time; the next heartbeat catches up
    this.pushing = true;
    try {
      for (const { name, command } of this.settings.due(this.now(), this.o.settingsRetryMs)) {
        if (!this.io.connected()) return;
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
    const frames = this.decoder.feed(chunk);
    const st = this.decoder.stats;
    const corrupt = st.badCrc - this.decoderSeen.badCrc + (st.badLength - this.decoderSeen.badLength);
    if (corrupt > 0) {
      this.drop('corrupt', corrupt, `${st.garbageBytes - this.decoderSeen.garbageBytes} bytes skipped`);
      this.decoderSeen = { ...st };
    } else this.decoderSeen.garbageBytes = st.garbageBytes; // no copy per chunk: only the counts read above change
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
        // One literal per kind, no shared part spread into it: this runs for every hit.
        const hubTime = this.clock.toHub(t);
        if (msg.kind === 'skittle') this.event({ type: 'skittle', index: msg.index, state: msg.down ? 'down' : 'up', boardUs: t, hubTime, seq: msg.seq });
        else if (msg.channel === CLICK_CHANNEL) this.event({ type: 'click', amplitude: msg.amplitude, boardUs: t, hubTime, seq: msg.seq });
        else this.event({ type: 'rail-hit', channel: msg.channel, amplitude: msg.amplitude, boardUs: t, hubTime, seq: msg.seq });
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
