import type { LogFn } from './log.ts';

/**
 * The last line of defence of a running hub: a promise rejected with nothing to handle it,
 * or an exception that reached the top, is logged and the hub keeps serving; by default
 * Node.js would end the process, and a venue's scores with it. Every such log line is a bug
 * to fix where it started.
 */
export function keepServing(log: LogFn, target: NodeJS.Process = process): void {
  target.on('unhandledRejection', (reason) => log('error', 'unhandled promise rejection; the hub keeps serving', describe(reason)));
  target.on('uncaughtException', (error) => log('error', 'uncaught exception; the hub keeps serving', describe(error)));
}

function describe(reason: unknown): Record<string, unknown> {
  if (reason instanceof Error) return { error: reason.message, errorName: reason.name, stack: reason.stack?.split('\n').slice(0, 6).join('\n') };
  return { error: String(reason) };
}
