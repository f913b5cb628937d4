// Background workers: the media queue (image formats) on BullMQ. Gateways run the same worker
// in-process unless MEDIA_WORKER=false; this app scales it separately.
import type { Config } from '@cms/config';
import { createDatabase } from '@cms/db';
import { createMediaRuntime } from '@cms/media';
import type { Logger } from '@cms/telemetry';

export class WorkerConfigError extends Error {
  override name = 'WorkerConfigError';
}

export interface Workers {
  close(): Promise<void>;
}

/** Start every worker of this app. Needs the shared Postgres and Redis (an embedded database lives in one gateway process). */
export async function startWorkers(config: Config, logger: Logger): Promise<Workers> {
  if (!config.redisUrl || !config.databaseUrl) {
    throw new WorkerConfigError('apps/worker needs REDIS_URL and DATABASE_URL; without them the gateway runs media jobs itself');
  }
  const db = await createDatabase(config, logger);
  const media = createMediaRuntime(config, db.pool, logger, { runWorker: true });
  return {
    async close() {
      await media.close();
      await db.close();
    },
  };
}
