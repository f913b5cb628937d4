// Background workers: the media queue (image formats) on BullMQ, and the webhooks' relay. Gateways run the same worker
// in-process unless MEDIA_WORKER=false; this app scales it separately.
import type { Config } from '@cms/config';
import { createDatabase, reachable } from '@cms/db';
import { CdnPurger, createContentVersions, projectKey } from '@cms/delivery';
import { createMediaRuntime } from '@cms/media';
import type { Logger } from '@cms/telemetry';
import { poolOfProjectId } from '@cms/tenancy';
import { createClusterWebhookRuntimes, createWebhookRuntime } from '@cms/webhooks';

export class WorkerConfigError extends Error {
  override name = 'WorkerConfigError';
}

export interface Workers {
  /** Whether the control plane's Postgres answers (the worker's readiness). */
  postgresReachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** Start every worker of this app. Needs the shared Postgres and Redis (an embedded database lives in one gateway process). */
export async function startWorkers(config: Config, logger: Logger): Promise<Workers> {
  if (!config.redisUrl || !config.databaseUrl) {
    throw new WorkerConfigError('apps/worker needs REDIS_URL and DATABASE_URL; without them the gateway runs media jobs itself');
  }
  const db = await createDatabase(config, logger);
  // A file's formats change the answers that show it: the gateways' answer caches and the CDN
  // are told, as after any change (docs/delivery.md).
  const versions = createContentVersions(config.redisUrl, config.redisPrefix, logger);
  const purger = new CdnPurger(config.delivery.cdnPurge, logger);
  const onProcessed = async (projectId: number) => {
    await versions.bump(projectId).catch((err: unknown) => logger.error({ err, projectId }, 'could not record a content change in Redis'));
    purger.purge([projectKey(projectId)]);
  };
  // Image formats are written to the project's own cluster (DATABASE_URLS).
  const media = createMediaRuntime(config, db.pool, logger, { runWorker: true, dbOf: poolOfProjectId(db), onProcessed });
  // The webhooks' outbox relay and the `webhooks` queue's deliveries; one more per other cluster.
  const webhooks = createWebhookRuntime(db.pool, config, logger, { runWorker: true, databaseUrl: db.url });
  const clusterWebhooks = createClusterWebhookRuntimes(db, config, logger, { runWorker: true });
  return {
    postgresReachable: () => reachable(db.pool),
    async close() {
      await webhooks.close();
      for (const runtime of clusterWebhooks.values()) await runtime.close();
      await media.close();
      await purger.close();
      await versions.close();
      await db.close();
    },
  };
}
