import { readFileSync } from 'node:fs';
import { replayLog } from '../hub/matchlog/replay.ts';

export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => string;
}

/** `replay FILE` (CONTRACT §2): the state as JSON on stdout, or `line N: reason` on stderr and exit 2. */
export function replayCommand(args: readonly string[], io: CommandIO): number {
  const file = args[0];
  if (!file || args.length > 1) {
    io.stderr('usage: replay FILE   (a match log, JSON Lines; "-" reads standard input)\n');
    return 2;
  }
  let text: string;
  try {
    text = file === '-' ? io.readStdin() : readFileSync(file, 'utf8');
  } catch (e) {
    io.stderr(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 2;
  }
  const result = replayLog(text);
  if (!result.ok) {
    io.stderr(`line ${result.line}: ${result.error}\n`);
    return 2;
  }
  io.stdout(`${JSON.stringify(result.view, null, 2)}\n`);
  return 0;
}
