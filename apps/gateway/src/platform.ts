// Everything one gateway instance holds: config, logger, the database pool, the bus, and the
// per-instance caches. Built once at start and passed down (no globals).
import type { Config } from '@cms/config';
import { CONTROL_SCHEMA, controlMigrations, createDatabase, runMigrations, type Database } from '@cms/db';
import { GraphqlServers } from '@cms/graphql';
import { createWindowCounters, type WindowCounters } from '@cms/limits';
import { createMediaRuntime, type MediaLibrary } from '@cms/media';
import type { Logger } from '@cms/telemetry';
import { createBus, ProjectRegistry, RuntimeCache, upgradeProjectSchemas, type Bus } from '@cms/tenancy';

export interface Platform {
  config: Config;
  logger: Logger;
  db: Database;
  bus: Bus;
  registry: ProjectRegistry;
  runtimes: RuntimeCache;
  /** Per-project GraphQL servers, built on first use. */
  graphql: GraphqlServers;
  /** Every project's media library (storage, jobs). */
  media: MediaLibrary;
  /** Rate-limit counters shared by every instance (Redis), or this process's own. */
  limitCounters: WindowCounters;
  close(): Promise<void>;
}

export async function createPlatform(config: Config, logger: Logger): Promise<Platform> {
  const db = await createDatabase(config, logger);
  const applied = await runMigrations(db.pool, CONTROL_SCHEMA, controlMigrations);
  if (applied.length) logger.info({ applied }, 'control schema migrated');
  const upgraded = await upgradeProjectSchemas(db.pool);
  if (upgraded) logger.info({ upgraded }, 'project schemas upgraded to the newest base tables');
  const bus = createBus(config.redisUrl, logger, config.redisPrefix);
  const registry = new ProjectRegistry(db.pool, bus);
  await registry.start();
  const runtimes = new RuntimeCache(db.pool, registry, config.runtimeCacheSize);
  const graphql = new GraphqlServers(config.graphqlCacheSize);
  const limitCounters = createWindowCounters(config.redisUrl, config.redisPrefix, logger);
  const media = createMediaRuntime(config, db.pool, logger, { runWorker: config.media.workerInGateway });
  return {
    config,
    logger,
    db,
    bus,
    registry,
    runtimes,
    graphql,
    media: media.library,
    limitCounters,
    async close() {
      graphql.clear();
      await limitCounters.close();
      await media.close();
      await bus.close();
      await db.close();
    },
  };
}
