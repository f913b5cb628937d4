// Restoring a backup (management-api.md § Exports, backups and deleted projects), owners only:
// - `in-place`: the archive is imported into a staged project (on the project's cluster, seen by
//   no one) while the project keeps serving reads and writes; then, in one switch, the project
//   takes the staged schema (content, end users), model and locales, and its previous schema and
//   files are dropped. Its API tokens, members, settings and webhooks stay.
// - `new-project`: the archive is imported into a new project of the caller's.
// The import is the one `cms import strapi --data` runs (@cms/strapi-import), in this process.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { detached } from '@cms/db';
import { ApplicationError, NotFoundError, ValidationError } from '@cms/errors';
import { restoreRoutes as schemas } from '@cms/management-api';
import { ArchiveSource, modelFromArchive, runImport } from '@cms/strapi-import';
import type { MemberProject, ProjectRecord } from '@cms/tenancy';
import { RestoreStore, type ArchiveRecord, type RestoreRecord, type RestoreTarget } from '@cms/transfer';
import type { Platform } from '../platform.ts';
import { continueLiveLog } from '@cms/live';
import { copyHistory } from '@cms/documents';
import { serverImportTarget } from './import-target.ts';
import type { ManagementOptions } from './options.ts';
import { projectJson } from './projects.ts';
import { projectOf } from './request-context.ts';

const OWNERS = { access: 'owner' as const };
const HEARTBEAT_MS = 10_000;
const TARGETS = new Set<RestoreTarget>(['in-place', 'new-project']);

interface RestoreBody {
  target: RestoreTarget;
  name?: string;
}

function parseRestore(body: unknown): RestoreBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  const { target, name, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(`Unknown key ${unknown.slice(0, 100)}`, { key: unknown.slice(0, 100) });
  // Field errors with their path: the dashboard shows each next to its field.
  const fail = (field: string, message: string, value: unknown): never => {
    throw ValidationError.fromFieldErrors([{ path: [field], message, name: 'ValidationError', value: String(value).slice(0, 100) }]);
  };
  if (typeof target !== 'string' || !TARGETS.has(target as RestoreTarget)) fail('target', 'target must be "in-place" or "new-project"', target);
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 100)) fail('name', 'name must be a text of 1 to 100 characters', name);
  if (name !== undefined && target === 'in-place') fail('name', 'name is only for a restore as a new project', name);
  return { target: target as RestoreTarget, ...(name === undefined ? {} : { name: (name as string).trim() }) };
}

/** Writes restores in the background of this process; `close` waits for them. */
export class RestoreRunner {
  private readonly running = new Set<Promise<void>>();
  readonly store: RestoreStore;

  constructor(private readonly platform: Platform) {
    this.store = new RestoreStore(platform.db.pool);
  }

  async start(project: ProjectRecord, accountId: number, backup: ArchiveRecord, body: RestoreBody): Promise<RestoreRecord> {
    if (await this.store.running(project.id)) throw new ApplicationError('A restore of this project is already running', {}, 409);
    const record = await this.store.create(project.id, backup.id, body.target);
    const run = detached(() => this.run(record, project, accountId, backup, body));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return record;
  }

  private async run(record: RestoreRecord, live: ProjectRecord, accountId: number, backup: ArchiveRecord, body: RestoreBody): Promise<void> {
    const { platform, store } = this;
    const log = platform.logger.child({ projectId: live.id, restoreId: record.id, target: body.target });
    const heartbeat = setInterval(() => void store.heartbeat(record.id).catch(() => {}), HEARTBEAT_MS);
    heartbeat.unref();
    const file = join(tmpdir(), `cms-restore-${record.id}.tar.gz`);
    let into: ProjectRecord | null = null;
    try {
      const stored = await platform.media.readArchive(backup.storageKey);
      if (!stored) throw new Error('the backup\'s archive is missing from storage');
      await pipeline(stored.body, createWriteStream(file));
      const model = await modelFromArchive(file);
      const source = new ArchiveSource(file, model);
      const { defaultLocale } = await source.locales();
      into = body.target === 'in-place'
        // Staged on the project's cluster and plan, with no member: nobody sees it; its files are
        // stored under the project's own prefix, where its rows will point after the switch.
        ? await platform.projects.create(live.accountId, { name: `Restore of ${live.slug}`, slug: `restore-${record.id.slice(0, 20)}`, defaultLocale: defaultLocale ?? live.defaultLocale, stagedFor: live })
        : await platform.projects.create(accountId, { name: body.name ?? `${live.name} (restored)`, ...(defaultLocale ? { defaultLocale } : {}) });
      await store.writingInto(record.id, into.id);
      await runImport({
        target: serverImportTarget(platform, into, {
          mediaProjectId: body.target === 'in-place' ? live.id : into.id, origin: { origin: 'restore', createdBy: { type: 'account', id: accountId } },
        }),
        model, source, projectName: into.name, batchSize: 200, yes: true,
      });
      if (body.target === 'in-place') {
        // The project's history goes along (and the restore's own versions are its newest).
        // …and its live log's positions go on past a gap: every stream is told to start again.
        const head = await platform.db.poolOf(live.cluster).transaction(async (tx) => {
          await copyHistory(tx, live.schemaName, into!.schemaName);
          return continueLiveLog(tx, live.schemaName, into!.schemaName);
        });
        await platform.projects.adoptStagedSchema(live, into);
        await platform.live.restartAll(live.id, head);
        // From here `into` names the project's previous schema: never purged as a failed restore.
        const previous = into;
        into = null;
        await this.dropPrevious(live, previous).catch((err: unknown) => log.error({ err }, 'could not drop the schema a restore replaced'));
      }
      await store.finish(record.id);
      log.info('backup restored');
    } catch (err) {
      log.error({ err }, 'restore failed');
      // A half-written project is of no use: the staged or new project goes (the live one was not touched).
      if (into) await platform.projects.purge(into).catch((e: unknown) => log.error({ err: e }, 'could not drop the half-restored project'));
      await store.fail(record.id, (err as Error).message ?? String(err)).catch(() => {});
    } finally {
      clearInterval(heartbeat);
      await rm(file, { force: true });
    }
  }

  /** After the switch: the files of the project's previous schema (under its prefix), then that schema. */
  private async dropPrevious(live: ProjectRecord, staged: ProjectRecord): Promise<void> {
    const { platform } = this;
    // Read again: the staged project's row now names the previous schema.
    const previous = (await platform.registry.resolve(staged.slug))?.project;
    if (!previous || previous.schemaName === staged.schemaName) throw new Error('the staged project did not take the previous schema');
    await platform.media.removeSchemaFiles(platform.db.poolOf(previous.cluster), previous.schemaName, live.id);
    await platform.projects.purge(previous);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

function restoreJson(request: FastifyRequest, record: RestoreRecord, project: MemberProject | null) {
  return {
    id: record.id,
    status: record.status,
    target: record.target,
    backupId: record.archiveId,
    project: project && projectJson(request, project),
    error: record.error,
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
  };
}

interface RestoreRoute {
  Params: { slug: string; id: string };
}

export async function restoreRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const runner = new RestoreRunner(platform);
  app.addHook('onClose', () => runner.close());

  /** The project a restore writes into, as the caller sees it (the same one in place). */
  async function projectOfRestore(request: FastifyRequest, record: RestoreRecord): Promise<MemberProject | null> {
    const project = projectOf(request);
    if (record.target === 'in-place') return project;
    if (record.status !== 'done' || record.intoProjectId === null) return null;
    const mine = await platform.projects.listForAccount(request.accountId);
    return mine.find((p) => p.id === record.intoProjectId) ?? null;
  }

  // parseRestore names a bad field in its own words: the schema's verdict is attached and left to it.
  app.post<RestoreRoute>('/projects/:slug/backups/:id/restore', { config: OWNERS, schema: schemas.start, attachValidation: true }, async (request, reply) => {
    const body = parseRestore(request.body);
    const project = projectOf(request);
    const backup = await platform.archiveStore.get(project.id, request.params.id);
    if (!backup || backup.kind === 'export') throw new NotFoundError('backup.notFound');
    if (backup.status !== 'done') throw new ApplicationError(`This backup cannot be restored: it is ${backup.status}`, {}, 409);
    const record = await runner.start(project, request.accountId, backup, body);
    return reply.status(202).send({ restore: restoreJson(request, record, await projectOfRestore(request, record)) });
  });

  app.get<RestoreRoute>('/projects/:slug/restores/:id', { config: OWNERS, schema: schemas.get }, async (request) => {
    const record = await runner.store.get(projectOf(request).id, request.params.id);
    if (!record) throw new NotFoundError('restore.notFound');
    return { restore: restoreJson(request, record, await projectOfRestore(request, record)) };
  });
}
