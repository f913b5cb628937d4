// Releases (management-api.md § Releases and scheduled publishing, docs/releases.md): a project's
// releases and their actions, and publishing one — all of it @cms/releases'; this module routes.
// Any member reads; owners and editors write (viewers get 403 from access.ts, by method). Releases
// live in the project's own schema, so another project's ids name nothing here (404).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '@cms/errors';
import {
  addAction, createRelease, deleteRelease, getRelease, listActions, listReleases, MAX_NAME_LENGTH, parseActionListQuery,
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

const nullableText = (maxLength: number) => ({ type: ['string', 'null'], maxLength });
const RELEASE_FIELDS = {
  name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH },
  scheduledAt: nullableText(64),
  timezone: nullableText(64),
};
const ACTION_TYPE = { type: 'string', enum: ['publish', 'unpublish'] };

const CREATE_RELEASE = { body: { type: 'object', additionalProperties: false, required: ['name'], properties: RELEASE_FIELDS } };
const UPDATE_RELEASE = { body: { type: 'object', additionalProperties: false, properties: RELEASE_FIELDS } };
const CREATE_ACTION = {
  body: {
    type: 'object', additionalProperties: false, required: ['contentType', 'entryDocumentId', 'type'],
    properties: {
      contentType: { type: 'string', minLength: 1, maxLength: 200 },
      entryDocumentId: { type: 'string', minLength: 1, maxLength: 64 },
      locale: nullableText(50),
      type: ACTION_TYPE,
    },
  },
};
const UPDATE_ACTION = { body: { type: 'object', additionalProperties: false, required: ['type'], properties: { type: ACTION_TYPE } } };

/** The request's project as @cms/releases works on it: its schema and current model, on its cluster. */
export async function releaseProjectOf(platform: Platform, request: FastifyRequest) {
  const project = projectOf(request);
  const runtime = await platform.runtimes.get(project);
  const target: ReleaseProject = {
    projectId: project.id, pool: platform.db.tenantPool, schema: runtime.schemaName, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale,
  };
  return { project, runtime, target };
}

export function registerReleaseRoutes(app: FastifyInstance, { platform }: ManagementOptions): void {
  const releaseProject = (request: FastifyRequest) => releaseProjectOf(platform, request);

  app.post<{ Params: ReleaseParams; Body: ReleaseBody & { name: string } }>('/projects/:slug/releases', { schema: CREATE_RELEASE }, async (request, reply) => {
    const { project, target } = await releaseProject(request);
    const limit = platform.config.limits.plans ? pendingReleasesLimit(project) : null;
    const release = await createRelease(target, request.body, { createdBy: request.accountId, limit });
    // Committed with its row of the due index; the wake-up is only a timer on top (scheduler.ts).
    platform.scheduler.wake(project.cluster, { projectId: project.id, kind: 'release', targetId: release.id }, release.scheduledAt);
    return reply.status(201).send({ data: release });
  });

  app.get('/projects/:slug/releases', async (request) => {
    const query = parseReleaseListQuery(request.query as Record<string, unknown>);
    return listReleases((await releaseProject(request)).target, query);
  });

  app.get<{ Params: ReleaseParams }>('/projects/:slug/releases/:id', async (request) => ({
    data: await getRelease((await releaseProject(request)).target, request.params.id),
  }));

  app.put<{ Params: ReleaseParams; Body: ReleaseBody }>('/projects/:slug/releases/:id', { schema: UPDATE_RELEASE }, async (request) => {
    const { project, target } = await releaseProject(request);
    const release = await updateRelease(target, request.params.id, request.body ?? {});
    // A new time: a new wake-up (the old one, if any, finds nothing due then).
    if (request.body?.scheduledAt) platform.scheduler.wake(project.cluster, { projectId: project.id, kind: 'release', targetId: release.id }, release.scheduledAt);
    return { data: release };
  });

  app.delete<{ Params: ReleaseParams }>('/projects/:slug/releases/:id', async (request, reply) => {
    await deleteRelease((await releaseProject(request)).target, request.params.id);
    return reply.status(204).send();
  });

  app.post<{ Params: ReleaseParams; Body: ActionBody }>('/projects/:slug/releases/:id/actions', { schema: CREATE_ACTION }, async (request, reply) => {
    const { project, target } = await releaseProject(request);
    const locales = new Set((await platform.locales.list(project.id)).map((l) => l.code));
    return reply.status(201).send({ data: await addAction(target, request.params.id, request.body, locales) });
  });

  app.get<{ Params: ReleaseParams }>('/projects/:slug/releases/:id/actions', async (request) => {
    const query = parseActionListQuery(request.query as Record<string, unknown>);
    return listActions((await releaseProject(request)).target, request.params.id, query);
  });

  app.put<{ Params: ActionParams; Body: { type: ActionType } }>('/projects/:slug/releases/:id/actions/:actionId', { schema: UPDATE_ACTION }, async (request) => ({
    data: await updateAction((await releaseProject(request)).target, request.params.id, request.params.actionId, request.body.type),
  }));

  app.delete<{ Params: ActionParams }>('/projects/:slug/releases/:id/actions/:actionId', async (request, reply) => {
    await removeAction((await releaseProject(request)).target, request.params.id, request.params.actionId);
    return reply.status(204).send();
  });

  app.post<{ Params: ReleaseParams }>('/projects/:slug/releases/:id/publish', async (request) => {
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
