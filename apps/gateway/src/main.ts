// `make start`: run one gateway on embedded defaults unless DATABASE_URL / REDIS_URL are set.
// First: stack traces of the compiled server through its source maps, read on first use.
import '@cms/telemetry/stack-traces';
import { loadConfig } from '@cms/config';
import { closeOnSignals, createLogger } from '@cms/telemetry';
import { startTelemetry } from '@cms/telemetry/sdk';

const config = loadConfig();
// OpenTelemetry first (off without OTEL_EXPORTER_OTLP_ENDPOINT / METRICS_TOKEN): pg and ioredis
// are instrumented as they load, so the rest of the app is imported after it.
const telemetry = await startTelemetry({
  serviceName: 'cms-gateway', otlpEndpoint: config.otelEndpoint, otlpProtocol: config.otelProtocol, metricsToken: config.metricsToken,
});
const logger = createLogger({ level: config.logLevel, name: 'gateway' });
// The platform's connections and migration check (waiting on Postgres and Redis) run while the
// HTTP app's modules load (CPU): a (re)start is ready sooner.
const [{ buildApp }, platform] = await Promise.all([
  import('./app.ts'),
  import('./platform.ts').then(({ createPlatform }) => createPlatform(config, logger)),
]);
const { fastify } = await buildApp(platform);
await fastify.listen({ port: config.port, host: config.host });
const origin = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
logger.info({ url: origin }, 'platform ready');
process.stdout.write(`\n  Dashboard and management API: ${origin}/  (API under ${origin}/v1)\n  Project APIs: ${origin}/p/{slug}/api and /p/{slug}/graphql\n\n`);

closeOnSignals(logger, async () => {
  await fastify.close();
  await platform.close();
  // The last telemetry batch failing to reach the collector is no failed shutdown.
  await telemetry?.shutdown().catch((err: unknown) => logger.warn({ err }, 'telemetry not flushed at shutdown'));
});
