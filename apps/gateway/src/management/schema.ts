// The content-type builder: declarative pushes of the whole model, or one type/component at a
// time. Every change goes through ModelStore (validated, migrated and versioned in one transaction);
// one that deletes data is preceded by a manual backup (docs/export.md).
import type { FastifyInstance } from 'fastify';
import { backupRetentionDays } from '@cms/billing';
import { ApplicationError, NotFoundError } from '@cms/errors';
import { schemaRoutes as schemas } from '@cms/management-api';
import { toRawModel, type ModelChange, type ProjectRecord, type PushOptions } from '@cms/tenancy';
import type { RawModel } from '@cms/schema';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

interface ModelBody {
  contentTypes: RawModel['contentTypes'];
  components?: RawModel['components'];
  renames?: Record<string, Record<string, string>>;
  expectedVersion?: number;
}

interface UidRoute {
  Params: { slug: string; uid: string };
  Body: Record<string, unknown>;
}

export async function schemaRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  /**
   * A model change, with a manual backup first when its plan deletes data: the change is applied
   * once the backup is done, at the model version it was planned against (a change by someone
   * else in between is refused as a conflict), and refused when the backup failed.
   */
  async function push(p: ProjectRecord, change: ModelChange, options: PushOptions = {}) {
    const { version, destructive } = await platform.models.plannedAgainst(p.id, change, options);
    if (!destructive) return platform.models.push(p, change, options);
    const backup = await platform.archives.start(p, 'manual', { keepDays: backupRetentionDays(p) });
    await platform.archives.finished(backup.id);
    const done = await platform.archiveStore.get(p.id, backup.id);
    if (done?.status !== 'done') {
      throw new ApplicationError(`The backup taken before this change failed (${done?.error ?? 'unknown reason'}): nothing was changed`, {}, 503);
    }
    return platform.models.push(p, change, { ...options, expectedVersion: options.expectedVersion ?? version });
  }

  /** Replace (in place, keeping declaration order), add or remove one entry of the model and push. */
  // The edit is applied to the model current under the push's lock: concurrent edits both count.
  function pushWith(p: ProjectRecord, section: keyof RawModel, uid: string, value: Record<string, unknown> | undefined) {
    return push(p, (raw) => {
      if (value === undefined && !Object.hasOwn(raw[section], uid)) throw new NotFoundError();
      const entries = { ...raw[section] };
      if (value === undefined) delete entries[uid];
      else entries[uid] = value;
      return { ...raw, [section]: entries };
    });
  }

  app.get('/projects/:slug/schema', { schema: schemas.get }, async (request) => {
    const { raw, version } = await platform.models.current(projectOf(request).id);
    return { contentTypes: raw.contentTypes, components: raw.components, version };
  });

  app.put<{ Body: ModelBody }>('/projects/:slug/schema', { schema: schemas.put }, async (request) => {
    const { renames, expectedVersion } = request.body;
    const result = await push(projectOf(request), toRawModel(request.body), { renames, expectedVersion });
    return { contentTypes: result.raw.contentTypes, components: result.raw.components, version: result.version };
  });

  // What PUT /schema would do with the same body, without doing it: the migration is run and
  // rolled back, so a change refused for the data it would lose is refused here too.
  app.post<{ Body: ModelBody }>('/projects/:slug/schema/plan', { schema: schemas.plan }, async (request) => {
    const { renames, expectedVersion } = request.body;
    const { changed, changes } = await platform.models.rehearse(projectOf(request), toRawModel(request.body), { renames, expectedVersion });
    return { changed, destructive: changes.some((c) => c.destructive), changes };
  });

  app.put<UidRoute>('/projects/:slug/content-types/:uid', { schema: schemas.putContentType }, async (request) => {
    const result = await pushWith(projectOf(request), 'contentTypes', request.params.uid, request.body);
    return { contentType: result.raw.contentTypes[request.params.uid], version: result.version };
  });

  app.delete<UidRoute>('/projects/:slug/content-types/:uid', { schema: schemas.deleteContentType }, async (request, reply) => {
    await pushWith(projectOf(request), 'contentTypes', request.params.uid, undefined);
    return reply.status(204).send();
  });

  app.put<UidRoute>('/projects/:slug/components/:uid', { schema: schemas.putComponent }, async (request) => {
    const result = await pushWith(projectOf(request), 'components', request.params.uid, request.body);
    return { component: result.raw.components[request.params.uid], version: result.version };
  });
}
