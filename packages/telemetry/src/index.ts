// Logging through pino: one root logger per process; request and project ids are bound as children.
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? 'info',
    name: options.name,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.accessKey'], remove: true },
  };
  return pino(opts);
}

/** A logger that drops everything (tests, libraries used without a logger). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
export { closeOnSignals } from './shutdown.ts';
