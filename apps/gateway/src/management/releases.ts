// Releases (management-api.md § Releases and scheduled publishing, docs/releases.md): a project's
// releases and their actions, and publishing one — all of it @cms/releases'; this module routes.
// Any member reads; owners and editors write (viewers get 403 from access.ts, by method). Releases
// live in the project's own schema, so another project's ids name nothing here (404).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '@cms/errors';
import { releaseRoutes as schemas } from '@cms/management-api';
import {
  addAction, createRelease, deleteRelease, getRelease, listActions, listReleases, parseActionListQuery,
  parseReleaseListQuery, pendingReleasesLimit, publishRelease, removeAction, updateAction, updateRelease,
  type ActionBody, type ActionType, type ReleaseBody, type ReleaseProject,
} from '@cms/releases';
import { documentEvents, releaseEvents } from '../webhook-events.ts';
import { auditWhoOf } from '../audit/audit-context.ts';
import type { Platform } from '../platform.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

interface ReleaseParams { slug: string; id: string }
interface ActionParams extends ReleaseParams { actionId: string }

// List queries are parsed by @cms/releases, which names a bad key in its own words: the schema's
// verdict is attached (attachValidation) and left to it.
const PARSED_HERE = { attachValidation: true } as const;

/** The request's project as @cms/releases works on it: its schema and current model, on its cluster. */
export async function releaseProjectOf(platform: Platform, request: FastifyRequest) {
  const project = projectOf(request);
  const runtime = await platform.runtimes.get(project);
  const target: ReleaseProject = {
    projectId: project.id, pool: platform.db.tenantPool, schema: runtime.schemaName, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale,
  };
  return { project, runtime, target };
}

export async function releaseRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const releaseProject = (request: FastifyRequest) => releaseProjectOf(platform, request);

  app.post<{ Params: ReleaseParams; Body: ReleaseBody & { name: string } }>('/projects/:slug/releases', { schema: schemas.create }, async (request, reply) => {
    const { project, target } = await releaseProject(request);
    const limit = platform.config.limits.plans ? pendingReleasesLimit(project) : null;
    const release = await createRelease(target, request.body, { createdBy: request.accountId, limit });
    // Committed with its row of the due index; the wake-up is only a timer on top (scheduler.ts).
    platform.scheduler.wake(project.cluster, { projectId: project.id, kind: 'release', targetId: release.id }, release.scheduledAt);
    return reply.status(201).send({ data: release });
  });

  app.get('/projects/:slug/releases', { schema: schemas.list, ...PARSED_HERE }, async (request) => {
    const query = parseReleaseListQuery(request.query as Record<string, unknown>);
    return listReleases((await releaseProject(request)).target, query);
  });

  app.get<{ Params: ReleaseParams }>('/projects/:slug/releases/:id', { schema: schemas.get }, async (request) => ({
    data: await getRelease((await releaseProject(request)).target, request.params.id),
  }));

  app.put<{ Params: ReleaseParams; Body: ReleaseBody }>('/projects/:slug/releases/:id', { schema: schemas.update }, async (request) => {
    const { project, target } = await releaseProject(request);
    const release = await updateRelease(target, request.params.id, request.body ?? {});
    // A new time: a new wake-up (the old one, if any, finds nothing due then).
    if (request.body?.scheduledAt) platform.scheduler.wake(project.cluster, { projectId: project.id, kind: 'release', targetId: release.id }, release.scheduledAt);
    return { data: release };
  });

  app.delete<{ Params: ReleaseParams }>('/projects/:slug/releases/:id', { schema: schemas.remove }, async (request, reply) => {
    await deleteRelease((await releaseProject(request)).target, request.params.id);
    return reply.status(204).send();
  });

  app.post<{ Params: ReleaseParams; Body: ActionBody }>('/projects/:slug/releases/:id/actions', { schema: schemas.addAction }, async (request, reply) => {
    const { project, target } = await releaseProject(request);
    const locales = new Set((await platform.locales.list(project.id)).map((l) => l.code));
    return reply.status(201).send({ data: await addAction(target, request.params.id, request.body, locales) });
  });

  app.get<{ Params: ReleaseParams }>('/projects/:slug/releases/:id/actions', { schema: schemas.listActions, ...PARSED_HERE }, async (request) => {
    const query = parseActionListQuery(request.query as Record<string, unknown>);
    return listActions((await releaseProject(request)).target, request.params.id, query);
  });

  app.put<{ Params: ActionParams; Body: { type: ActionType } }>('/projects/:slug/releases/:id/actions/:actionId', { schema: schemas.updateAction }, async (request) => ({
    data: await updateAction((await releaseProject(request)).target, request.params.id, request.params.actionId, request.body.type),
  }));

  app.delete<{ Params: ActionParams }>('/projects/:slug/releases/:id/actions/:actionId', { schema: schemas.removeAction }, async (request, reply) => {
    await removeAction((await releaseProject(request)).target, request.params.id, request.params.actionId);
    return reply.status(204).send();
  });

  app.post<{ Params: ReleaseParams }>('/projects/:slug/releases/:id/publish', { schema: schemas.publish }, async (request) => {
    const { project, runtime, target } = await releaseProject(request);
    const result = await publishRelease({
      ...target,
      releaseId: request.params.id,
      emit: documentEvents(platform, project, runtime, auditWhoOf(request)),
      emitRelease: releaseEvents(platform, project),
      history: platform.config.contentHistory ? { origin: 'release', createdBy: { type: 'account', id: request.accountId } } : null,
    });
    if (result.outcome === 'failed') throw result.error;
    // Published by another call meanwhile: as any change to a done release, refused.
    if (result.outcome === 'done') throw new ValidationError('This release is already published');
    return { data: result.release };
  });
}
