// `npm run worker` / `node --import tsx apps/worker/src/main.ts`: process media jobs until stopped.
import { loadConfig } from '@cms/config';
import { closeOnSignals, createLogger } from '@cms/telemetry';
import { startWorkers, type Workers } from './index.ts';

const config = loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'worker' });
let workers: Workers;
try {
  workers = await startWorkers(config, logger);
} catch (err) {
  logger.fatal({ err }, 'worker could not start');
  process.exit(1);
}
logger.info({ queue: 'media' }, 'worker ready');

// BullMQ lets the running jobs finish before closing.
closeOnSignals(logger, () => workers.close());
