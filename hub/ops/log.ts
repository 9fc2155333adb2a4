import pino from 'pino';

export type LogFn = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

/** Structured JSON logs (pino) to stdout; `LOG_LEVEL` sets the level. */
export function createLogger(name: string): LogFn {
  const logger = pino({ name, level: process.env.LOG_LEVEL ?? 'info' });
  return (level, message, fields) => logger[level](fields ?? {}, message);
}

export const silentLog: LogFn = () => {};

/**
 * The same message logged again and again (a full disk fails every group commit, line
 * noise every frame) is written once, then once per window with how many times it
 * happened meanwhile: `repeated: N` over `windowMs`. Different messages pass unaffected.
 */
export function rateLimitedLog(log: LogFn, options: { windowMs?: number; now?: () => number } = {}): LogFn & { flush(): void } {
  const windowMs = options.windowMs ?? 10_000;
  const now = options.now ?? Date.now;
  const seen = new Map<string, { level: Parameters<LogFn>[0]; message: string; since: number; repeated: number; fields?: Record<string, unknown>; timer: NodeJS.Timeout | null }>();
  const summarise = (key: string): void => {
    const entry = seen.get(key);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    seen.delete(key);
    if (entry.repeated > 0) log(entry.level, entry.message, { ...entry.fields, repeated: entry.repeated, overMs: now() - entry.since });
  };
  const limited = (level: Parameters<LogFn>[0], message: string, fields?: Record<string, unknown>): void => {
    const key = `${level}\n${message}`;
    const entry = seen.get(key);
    if (entry) {
      entry.repeated += 1;
      entry.fields = fields;
      return;
    }
    log(level, message, fields);
    // The summary of what followed comes when the window closes; the timer never holds the process.
    const timer = setTimeout(() => summarise(key), windowMs);
    timer.unref?.();
    seen.set(key, { level, message, since: now(), repeated: 0, fields, timer });
  };
  return Object.assign(limited, { flush: () => [...seen.keys()].forEach(summarise) });
}
