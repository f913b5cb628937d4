// The media pieces of one process, wired from the configuration: storage driver, job queue
// (BullMQ with Redis, in-process without), the library, and optionally a worker for the queue.
import type { Config } from '@cms/config';
import type { Db } from '@cms/db';
import type { Logger } from '@cms/telemetry';
import { createMediaStorage } from './create.ts';
import { BullmqJobQueue, InProcessJobQueue, startMediaWorker, type ImageJob, type MediaJobQueue } from './jobs.ts';
import { MediaLibrary } from './library.ts';

export interface MediaRuntime {
  library: MediaLibrary;
  close(): Promise<void>;
}

/** BullMQ keys live under the deployment's Redis prefix. */
export const bullPrefix = (config: Config) => `${config.redisPrefix}bull`;

/**
 * `runWorker`: also process the Redis queue in this process (the gateway unless MEDIA_WORKER is
 * off, and apps/worker). Without Redis, jobs always run in this process.
 */
export function createMediaRuntime(
  config: Config, db: Db, logger: Logger,
  options: {
    runWorker: boolean;
    /** The pool holding a project's schema (its cluster's), when not `db`. */
    dbOf?: (projectId: number) => Promise<Db>;
    /** Told after a file's formats were recorded (see MediaLibraryOptions). */
    onProcessed?: (projectId: number) => Promise<void>;
    /** The schemas sharing a project's stored objects (see MediaLibraryOptions). */
    sharingSchemas?: (db: Db, projectId: number) => Promise<string[]>;
  },
): MediaRuntime {
  const storage = createMediaStorage({
    publicUrl: config.media.publicUrl,
    localDir: config.media.dir,
    s3: config.s3,
  });
  // The processor belongs to the library, which needs the queue: bound once both exist.
  const dbOf = options.dbOf;
  const process = dbOf ? async (job: ImageJob) => library.processor(await dbOf(job.projectId))(job) : (job: ImageJob) => library.processor(db)(job);
  const jobs: MediaJobQueue = config.redisUrl
    ? new BullmqJobQueue({ redisUrl: config.redisUrl, prefix: bullPrefix(config) }, logger)
    : new InProcessJobQueue(process, logger);
  const library: MediaLibrary = new MediaLibrary({
    storage,
    jobs,
    relativeUrls: storage.provider === 'local' && !config.media.publicUrl,
    processingWaitMs: config.media.processingWaitMs,
    logger,
    ...(options.onProcessed ? { onProcessed: options.onProcessed } : {}),
    ...(options.sharingSchemas ? { sharingSchemas: options.sharingSchemas } : {}),
  });
  const worker = config.redisUrl && options.runWorker
    ? startMediaWorker(process, { redisUrl: config.redisUrl, prefix: bullPrefix(config), lockDurationMs: config.media.jobLockMs, stalledIntervalMs: config.media.jobLockMs }, logger)
    : null;
  return {
    library,
    async close() {
      await worker?.close();
      await jobs.close();
      (storage as { destroy?: () => void }).destroy?.();
    },
  };
}
