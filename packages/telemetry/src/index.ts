// Logging through pino: one root logger per process; request and project ids are bound as children.
import { pino, type Logger, type LoggerOptions } from 'pino';
import { telemetryState } from './state.ts';
import { traceIds } from './tracing.ts';

export type { Logger };

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? 'info',
    name: options.name,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.accessKey'], remove: true },
    // With tracing on (the SDK is started before the logger is made), lines logged inside a span carry its trace_id/span_id.
    ...(telemetryState.tracing ? { mixin: traceIds } : {}),
  };
  return pino(opts);
}

/** A logger that drops everything (tests, libraries used without a logger). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
export { closeOnSignals } from './shutdown.ts';
export { telemetryState, telemetryEnabled } from './state.ts';
export { traced, tracedSync, tracer, traceIds } from './tracing.ts';
export { instruments, getMeter, HIT, MISS, ProjectLabels, currentRequestStats, runWithRequestStats, prometheusText, type RequestStats } from './metrics.ts';
export { bullmqTelemetry } from './bullmq.ts';
