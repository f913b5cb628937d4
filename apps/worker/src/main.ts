// `npm run worker` / `node --import tsx apps/worker/src/main.ts`: process media jobs until stopped.
// First: stack traces of the compiled server through its source maps, read on first use.
import '@cms/telemetry/stack-traces';
import { loadConfig } from '@cms/config';
import { closeOnSignals, createLogger } from '@cms/telemetry';
import { startTelemetry } from '@cms/telemetry/sdk';
import { startHealthServer, type HealthServer } from './health.ts';
import type { Workers } from './index.ts';

const config = loadConfig();
// OpenTelemetry before pg and ioredis load (traces and metrics over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set).
const telemetry = await startTelemetry({ serviceName: 'cms-worker', otlpEndpoint: config.otelEndpoint, otlpProtocol: config.otelProtocol });
const [{ startWorkers }, { redisCheck }] = await Promise.all([import('./index.ts'), import('./redis-check.ts')]);
const logger = createLogger({ level: config.logLevel, name: 'worker' });
let workers: Workers;
try {
  workers = await startWorkers(config, logger);
} catch (err) {
  logger.fatal({ err }, 'worker could not start');
  process.exit(1);
}
// Probes: /healthz and /readyz on WORKER_HEALTH_PORT (Kubernetes, the image's HEALTHCHECK).
// (startWorkers refused to start without REDIS_URL)
const redis = redisCheck(config.redisUrl!);
let health: HealthServer;
try {
  health = await startHealthServer({ postgres: () => workers.postgresReachable(), redis: () => redis.reachable() }, { port: config.workerHealthPort, host: config.host });
} catch (err) {
  logger.fatal({ err, port: config.workerHealthPort }, 'worker health port could not be opened (WORKER_HEALTH_PORT)');
  process.exit(1);
}
logger.info({ queue: 'media', health: `http://${config.host}:${health.port}/readyz` }, 'worker ready');

// BullMQ lets the running jobs finish before closing; the probes answer 503 meanwhile.
closeOnSignals(logger, async () => {
  health.stopping();
  await workers.close();
  await health.close();
  await redis.close();
  // The last telemetry batch failing to reach the collector is no failed shutdown.
  await telemetry?.shutdown().catch((err: unknown) => logger.warn({ err }, 'telemetry not flushed at shutdown'));
});
