// Spans through @opentelemetry/api only. With tracing off every helper here goes straight to the
// wrapped call: no span, no context, no attribute objects.
import { SpanStatusCode, context, trace, type Attributes, type Span } from '@opentelemetry/api';
import { telemetryState } from './state.ts';

export const tracer = trace.getTracer('@cms/platform');

/**
 * Run `fn` in a child span of the active one (ended when the promise settles, failures recorded).
 * Without tracing, `fn()` and nothing else.
 */
export function traced<T>(name: string, fn: (span: Span | undefined) => Promise<T>, attributes?: Attributes): Promise<T> {
  if (!telemetryState.tracing) return fn(undefined);
  return tracer.startActiveSpan(name, attributes ? { attributes } : {}, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Synchronous work (planning, serialisation) in a child span; `fn()` alone without tracing. */
export function tracedSync<T>(name: string, fn: (span: Span | undefined) => T): T {
  if (!telemetryState.tracing) return fn(undefined);
  return tracer.startActiveSpan(name, (span) => {
    try {
      return fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** pino mixin: `trace_id`/`span_id` of the active span on every line logged inside one (pino merges into the object: a fresh one). */
export function traceIds(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
