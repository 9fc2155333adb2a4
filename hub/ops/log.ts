import pino from 'pino';

export type LogFn = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

/** Structured JSON logs (pino) to stdout; `LOG_LEVEL` sets the level. */
export function createLogger(name: string): LogFn {
  const logger = pino({ name, level: process.env.LOG_LEVEL ?? 'info' });
  return (level, message, fields) => logger[level](fields ?? {}, message);
}

export const silentLog: LogFn = () => {};
