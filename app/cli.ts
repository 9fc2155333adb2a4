import { readFileSync } from 'node:fs';
import type { CommandIO } from './replay-command.ts';
import { hashPasswordSync } from '../hub/ops/password.ts';
import { createLogger } from '../hub/ops/log.ts';
import { keepServing } from '../hub/ops/process-guard.ts';

/**
 * The project's CLI: `billiards <command> …`. Each command is a function of its arguments
 * and IO, loaded when asked for (a start-up error is reported before the hub's modules load).
 */
const COMMANDS: Record<string, { summary: string; run: (args: string[], io: CommandIO) => number | Promise<number> }> = {
  replay: { summary: 'replay FILE      print the state a match log leads to (CONTRACT §2)', run: async (args, io) => (await import('./replay-command.ts')).replayCommand(args, io) },
  start: {
    summary: 'start [--tables N] [--variants a,b] [--speed X]   run the hub (env: PORT, HOST, MQTT_PORT, MQTT_WS_PORT, MQTT_HOST, MQTT_URL, DATA_DIR, CONFIG, TLS_CERT, TLS_KEY, TRUST_PROXY)',
    run: async (args, io) => (await import('./start-command.ts')).startCommand(args, io),
  },
  'hash-password': {
    summary: 'hash-password    read a password on stdin, print its hash for the configuration',
    run: (_args, io) => {
      const password = io.readStdin().replace(/\r?\n$/, '');
      if (password.length < 8) return (io.stderr('hash-password: use at least 8 characters\n'), 2);
      io.stdout(`${hashPasswordSync(password)}\n`);
      return 0;
    },
  },
};

const io: CommandIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => readFileSync(0, 'utf8'),
};

/** Runs one command (`argv`: the command's name and its arguments) and resolves to its exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(`usage: billiards <command>\n${Object.values(COMMANDS).map((c) => `  ${c.summary}`).join('\n')}\n`);
    return 2;
  }
  // A running hub logs a stray rejection or exception and keeps serving (a CLI command that fails just fails).
  if (name === 'start') keepServing(createLogger('billiards-hub'));
  try {
    return await command.run(args, io);
  } catch (e) {
    // A bug, not an input: still one line, and the exit says it failed.
    io.stderr(`${name}: ${(e as Error).message}\n`);
    return 1;
  }
}
