/**
 * Bench tool for a real board (calibration, wiring checks): prints every bridge event
 * as one JSON line.
 *
 *   npx tsx firmware-bridge/cli.ts [--path /dev/ttyUSB0] [--set CH:THRESHOLD:REFRACTORY_MS]...
 *                                  [--debounce MS] [--invert MASK] [--self-test] [--config] [--firmata]
 *
 * --set, --debounce and --invert are board settings: the bridge pushes them after every
 * HELLO and reports which the board acknowledged (`board-settings` lines).
 */
import { pathToFileURL } from 'node:url';
import { Bridge, type BridgeEvent } from './bridge.ts';
import type { Command } from './messages.ts';
import { FirmataTransport } from './transports/firmata.ts';
import { SerialTransport } from './transports/serial.ts';

export interface CliOptions {
  path?: string;
  firmata: boolean;
  /** Settings, pushed by the bridge after every HELLO until acknowledged. */
  channels: Array<{ channel: number; threshold: number; refractoryMs: number }>;
  debounceMs?: number;
  invertSwitches?: number;
  /** One-off requests, sent once the board has said HELLO. */
  commands: Command[];
}

/** Parses argv; throws an Error naming the bad argument. */
export function parseArgs(argv: string[]): CliOptions {
  const out: CliOptions = { firmata: false, channels: [], commands: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '--path':
        out.path = value();
        break;
      case '--firmata':
        out.firmata = true;
        break;
      case '--self-test':
        out.commands.push({ kind: 'self-test' });
        break;
      case '--config':
        out.commands.push({ kind: 'get-config' });
        break;
      case '--debounce': {
        const ms = Number(value());
        if (!Number.isInteger(ms) || ms < 1 || ms > 200) throw new Error(`--debounce must be an integer 1..200 ms`);
        out.debounceMs = ms;
        break;
      }
      case '--invert': {
        const mask = Number(value());
        if (!Number.isInteger(mask) || mask < 0 || mask > 0x7f) throw new Error('--invert must be a switch bit mask 0..127');
        out.invertSwitches = mask;
        break;
      }
      case '--set': {
        const v = value();
        const m = /^(\d+):(\d+):(\d+)$/.exec(v);
        if (!m) throw new Error(`--set expects CH:THRESHOLD:REFRACTORY_MS, got "${v}"`);
        const [channel, threshold, refractoryMs] = [Number(m[1]), Number(m[2]), Number(m[3])];
        if (channel > 6) throw new Error(`--set channel ${channel} out of 0..6`);
        if (threshold > 255) throw new Error(`--set threshold ${threshold} out of 0..255`);
        if (refractoryMs > 7000) throw new Error(`--set refractory ${refractoryMs} out of 0..7000 ms`);
        out.channels.push({ channel, threshold, refractoryMs });
        break;
      }
      default:
        throw new Error(`unknown argument "${a}"`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  let opts: CliOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const clock = () => performance.timeOrigin + performance.now();
  const transport = opts.firmata
    ? new FirmataTransport({ clockUs: () => clock() * 1000, ...(opts.path ? { path: opts.path } : {}) })
    : new SerialTransport(opts.path ? { path: opts.path } : {});
  const bridge = new Bridge({
    transport,
    clock,
    channels: opts.channels,
    ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
    ...(opts.invertSwitches !== undefined ? { invertSwitches: opts.invertSwitches } : {}),
  });
  let sent = false;
  bridge.on('event', (e: BridgeEvent) => {
    process.stdout.write(`${JSON.stringify(e)}\n`);
    if (e.type === 'board' && !sent) {
      sent = true;
      for (const c of opts.commands) bridge.send(c).catch((err: Error) => console.error(`command failed: ${err.message}`));
    }
  });
  // Say why nothing is happening while no board answers.
  const nag = setInterval(() => {
    const st = bridge.stats();
    if (!st.linkUp && st.lastError) console.error(`waiting for the board: ${st.lastError}`);
  }, 2000);
  process.once('SIGINT', () => {
    clearInterval(nag);
    void bridge.stop();
  });
  await bridge.start();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
