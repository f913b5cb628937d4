// Writing a project's archive in the background: the record is created (status `running`), the
// archive is streamed into the media storage while it is written (never held whole: S3 gets it
// in parts), then the record says `done` with its size and counts, or `failed` with the reason.
// The project is read in one REPEATABLE READ READ ONLY transaction: the archive is one point in
// time while reads and writes go on. A heartbeat marks the record alive; one whose process died
// is reported failed by the store.
import { compiledQuery, detached } from '@cms/db';
import type { MediaLibrary } from '@cms/media';
import type { Logger } from '@cms/telemetry';
import type { DatabasePool } from 'slonik';
import { ArchiveWriter } from './archive.ts';
import type { ArchiveKind, ArchiveRecord, ArchiveStore } from './archive-store.ts';
import { writeProjectArchive, type ProjectSnapshot } from './project-archive.ts';

const HEARTBEAT_MS = 10_000;

/** What an archive of a project reads, resolved when it starts (the model of that moment). */
export interface PreparedProject extends Omit<ProjectSnapshot, 'db'> {
  /** The pool of the cluster holding the project's schema. */
  pool: DatabasePool;
}

export interface ArchiveRunnerOptions<P extends { id: number }> {
  store: ArchiveStore;
  media: MediaLibrary;
  logger: Logger;
  prepare(project: P): Promise<PreparedProject>;
}

export class ArchiveRunner<P extends { id: number }> {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly options: ArchiveRunnerOptions<P>) {}

  /** Creates the record and starts writing; resolves with the record (still `running`). */
  async start(project: P, kind: ArchiveKind, times: { keepDays?: number; createdAt?: Date } = {}): Promise<ArchiveRecord> {
    const { store, media } = this.options;
    return this.write(project, await store.create(project.id, kind, (name) => media.archiveKey(project.id, name), times));
  }

  /** Starts writing the archive of a record created by the caller (in its own transaction); resolves with it. */
  write(project: P, record: ArchiveRecord): ArchiveRecord {
    // Outside the request's database scope: the archive outlives the request that asked for it.
    const run = detached(() => this.run(record, project));
    this.running.set(record.id, run);
    void run.finally(() => this.running.delete(record.id));
    return record;
  }

  /** Resolves once the archive `id` (written by this process) has ended, done or failed. */
  async finished(id: string): Promise<void> {
    await this.running.get(id);
  }

  /** Resolves once the archives this process is writing now have ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private async run(record: ArchiveRecord, project: P): Promise<void> {
    const { store, media, logger } = this.options;
    const heartbeat = setInterval(() => void store.heartbeat(record.id).catch(() => {}), HEARTBEAT_MS);
    heartbeat.unref();
    const log = logger.child({ projectId: record.projectId, archiveId: record.id, kind: record.kind });
    try {
      const prepared = await this.options.prepare(project);
      const archive = new ArchiveWriter();
      const upload = media.putArchive(record.storageKey, archive.output);
      // A failed upload stops the writing (it would wait for a reader forever).
      upload.catch((err: Error) => archive.abort(err));
      let counts;
      try {
        counts = await prepared.pool.transaction(async (tx) => {
          await tx.query(compiledQuery({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY', values: [] }));
          return writeProjectArchive({ ...prepared, db: tx }, archive);
        });
        archive.finish();
      } catch (err) {
        archive.abort(err as Error);
        await upload.catch(() => {});
        throw err;
      }
      const { size } = await upload;
      await store.finish(record.id, size, counts);
      log.info({ size, links: counts.links, assets: counts.assets }, 'project archive written');
    } catch (err) {
      log.error({ err }, 'project archive failed');
      await media.deleteArchive(record.storageKey).catch(() => {});
      await store.fail(record.id, (err as Error).message ?? String(err)).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Waits for the archives being written by this process (shutdown). */
  async close(): Promise<void> {
    await this.settled();
  }
}
