// The process edge: `@cms/telemetry/sdk`, imported by the gateway's and worker's entry points
// only (library code uses @opentelemetry/api). Starts the OpenTelemetry SDK when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (traces and metrics over OTLP, pg/ioredis/fastify/BullMQ
// instrumented) and a MeterProvider with the Prometheus reader behind /metrics when METRICS_TOKEN
// is. With neither, nothing is loaded: the API stays on its no-ops.
//
// Call it before anything imports pg or ioredis: their instrumentations hook module loading.
import { register } from 'node:module';
import { bindInstruments } from './metrics.ts';
import { telemetryState } from './state.ts';

export interface TelemetryOptions {
  serviceName: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (config.otelEndpoint): export traces and metrics over OTLP. */
  otlpEndpoint?: string;
  /** OTEL_EXPORTER_OTLP_METRICS_PROTOCOL / OTEL_EXPORTER_OTLP_PROTOCOL (config.otelProtocol). */
  otlpProtocol?: string;
  /** METRICS_TOKEN: serve Prometheus text at /metrics. */
  metricsToken?: string;
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

/** The OTLP metric exporter of the configured protocol (each reads its endpoint and headers from OTEL_*). */
async function otlpMetricExporter(protocol: string | undefined) {
  if (protocol === 'grpc') return new (await import('@opentelemetry/exporter-metrics-otlp-grpc')).OTLPMetricExporter();
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter();
  return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter();
}

export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry | null> {
  if (!options.otlpEndpoint && !options.metricsToken) return null;
  const [{ PrometheusExporter, PrometheusSerializer }, sdkMetrics, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/exporter-prometheus'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/resources'),
  ]);
  const readers: InstanceType<typeof sdkMetrics.MetricReader>[] = [];
  if (options.metricsToken) {
    // Read on demand by the gateway's /metrics route: no server, no second port.
    const prometheus = new PrometheusExporter({ preventServerStart: true });
    const serializer = new PrometheusSerializer();
    telemetryState.renderPrometheus = async () => {
      const { resourceMetrics, errors } = await prometheus.collect();
      if (errors.length > 0) throw errors[0];
      return serializer.serialize(resourceMetrics);
    };
    // (exporter-prometheus is built on its own copy of sdk-metrics: same API, a distinct class.)
    readers.push(prometheus as unknown as InstanceType<typeof sdkMetrics.MetricReader>);
  }

  if (!options.otlpEndpoint) {
    // Metrics only: a MeterProvider with the Prometheus reader — no tracer, no module hooks.
    const { metrics } = await import('@opentelemetry/api');
    const provider = new sdkMetrics.MeterProvider({ resource: resourceFromAttributes({ 'service.name': options.serviceName }), readers });
    metrics.setGlobalMeterProvider(provider);
    bindInstruments();
    telemetryState.metrics = true;
    return { shutdown: () => provider.shutdown() };
  }

  // pg and ioredis are instrumented when loaded: the ESM loader hook goes in first, limited to them.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: ['pg', 'pg-pool', 'ioredis'] } });
  const [{ NodeSDK }, { FastifyOtelInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@fastify/otel'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  readers.push(new sdkMetrics.PeriodicExportingMetricReader({ exporter: await otlpMetricExporter(options.otlpProtocol) }));
  const fastifyOtel = new FastifyOtelInstrumentation({ recordExceptions: true });
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    metricReaders: readers,
    logRecordProcessors: [],
    instrumentations: [
      fastifyOtel,
      // Statement text (parameterised, values never), one span per statement; pool connects are noise.
      new PgInstrumentation({ enhancedDatabaseReporting: false, ignoreConnectSpans: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  bindInstruments();
  telemetryState.fastifyPlugin = fastifyOtel.plugin();
  telemetryState.tracing = true;
  telemetryState.metrics = true;
  return { shutdown: () => sdk.shutdown() };
}
