// What the process edge (sdk.ts) turned on. Library code reads these switches so that, with
// telemetry off, it registers no hooks and creates no per-request state (the API's no-ops only).
import type { FastifyPluginCallback } from 'fastify';

export interface TelemetryState {
  /** A TracerProvider exports spans (OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  tracing: boolean;
  /** A MeterProvider records metrics (OTLP and/or the Prometheus reader behind /metrics). */
  metrics: boolean;
  /** @fastify/otel's plugin, registered by the gateway before its routes when tracing. */
  fastifyPlugin?: FastifyPluginCallback;
  /** Prometheus text of every metric of this process (set when METRICS_TOKEN is). */
  renderPrometheus?: () => Promise<string>;
}

export const telemetryState: TelemetryState = { tracing: false, metrics: false };

/** Whether per-request statistics (SQL statements and time) are gathered at all. */
export const telemetryEnabled = (): boolean => telemetryState.tracing || telemetryState.metrics;
