// `make start`: run one gateway on embedded defaults unless DATABASE_URL / REDIS_URL are set.
import { loadConfig } from '@cms/config';
import { closeOnSignals, createLogger } from '@cms/telemetry';
import { buildApp } from './app.ts';
import { createPlatform } from './platform.ts';

const config = loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'gateway' });
const platform = await createPlatform(config, logger);
const { fastify } = await buildApp(platform);
await fastify.listen({ port: config.port, host: config.host });
const origin = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
logger.info({ url: origin }, 'platform ready');
process.stdout.write(`\n  Dashboard and management API: ${origin}/  (API under ${origin}/v1)\n  Project APIs: ${origin}/p/{slug}/api and /p/{slug}/graphql\n\n`);

closeOnSignals(logger, async () => {
  await fastify.close();
  await platform.close();
});
