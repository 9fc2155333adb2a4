import { AckStatus, CmdType } from './protocol.ts';
import type { AckMsg, Command } from './messages.ts';

/** Where one board setting stands in the current board session. */
export type SettingState = 'pending' | 'sent' | 'confirmed' | 'rejected' | 'unsupported';

export interface SettingView {
  /** `channel 3`, `debounce`, `switch polarity`. */
  name: string;
  state: SettingState;
  /** Times it was sent to this boot of the board. */
  attempts: number;
}

export interface SettingsSummary {
  confirmed: number;
  pending: number;
  rejected: number;
  unsupported: number;
  items: SettingView[];
}

interface Slot {
  name: string;
  command: Command;
  type: number;
  state: SettingState;
  seq: number;
  sentAt: number;
  attempts: number;
}

/**
 * The calibration the hub wants on the board (thresholds, refractory, debounce, switch
 * polarity) and what the board has acknowledged. Settings live in the board's RAM, so a
 * new boot makes them all pending again; a setting sent and not acknowledged within the
 * retry time is sent again. Pure bookkeeping: the Bridge does the I/O.
 */
export class BoardSettings {
  private readonly slots: Slot[];

  constructor(commands: ReadonlyArray<{ name: string; command: Command }>) {
    this.slots = commands.map(({ name, command }) => ({ name, command, type: commandType(command), state: 'pending', seq: -1, sentAt: 0, attempts: 0 }));
  }

  /** Adds or replaces a setting; it is pending until the board acknowledges it. */
  set(name: string, command: Command): void {
    const slot: Slot = { name, command, type: commandType(command), state: 'pending', seq: -1, sentAt: 0, attempts: 0 };
    const i = this.slots.findIndex((s) => s.name === name);
    if (i >= 0) this.slots[i] = slot;
    else this.slots.push(slot);
  }

  /** A new boot of the board (or a board we know nothing about): nothing is confirmed. */
  invalidate(): void {
    for (const s of this.slots) Object.assign(s, { state: 'pending', seq: -1, attempts: 0 });
  }

  /** Settings to send now: pending ones, and sent ones unanswered for `retryMs`. */
  due(now: number, retryMs: number): Array<{ name: string; command: Command }> {
    return this.slots.filter((s) => s.state === 'pending' || (s.state === 'sent' && now - s.sentAt >= retryMs));
  }

  sent(name: string, seq: number, now: number): void {
    const s = this.slots.find((x) => x.name === name);
    if (!s) return;
    Object.assign(s, { state: 'sent', seq, sentAt: now, attempts: s.attempts + 1 });
  }

  /** A write failed (link gone): the setting waits for the next chance. */
  unsent(name: string): void {
    const s = this.slots.find((x) => x.name === name);
    if (s && s.state === 'sent') s.state = 'pending';
  }

  /** Applies an ACK; true when it answered one of these settings. */
  ack(a: AckMsg): boolean {
    const s = this.slots.find((x) => x.state === 'sent' && x.type === a.command && x.seq === a.commandSeq);
    if (!s) return false;
    s.state = a.status === AckStatus.Ok ? 'confirmed' : a.status === AckStatus.Unknown ? 'unsupported' : 'rejected';
    return true;
  }

  get allSettled(): boolean {
    return this.slots.every((s) => s.state !== 'pending' && s.state !== 'sent');
  }

  summary(): SettingsSummary {
    const count = (st: SettingState) => this.slots.filter((s) => s.state === st).length;
    return {
      confirmed: count('confirmed'),
      pending: count('pending') + count('sent'),
      rejected: count('rejected'),
      unsupported: count('unsupported'),
      items: this.slots.map((s) => ({ name: s.name, state: s.state, attempts: s.attempts })),
    };
  }
}

function commandType(c: Command): number {
  switch (c.kind) {
    case 'set-channel':
      return CmdType.SetChannel;
    case 'set-debounce':
      return CmdType.SetDebounce;
    case 'set-invert':
      return CmdType.SetInvert;
    default:
      throw new TypeError(`${c.kind} is not a board setting`);
  }
}
