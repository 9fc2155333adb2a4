import type { BridgeOptions, ReconnectOptions } from './bridge-types.ts';
import type { Transport } from './transport.ts';

/** The bridge's options with every default filled in, as resolveBridgeOptions returns them. */
export interface ResolvedOptions {
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
