// Scheduled actions (management-api.md § Releases and scheduled publishing, docs/releases.md
// § Scheduling): publish or unpublish one document-locale at a set instant, in Contentful's shape.
// @cms/releases stores each with its row of the due index in one transaction; this module routes
// and wakes the scheduler. Any member reads; owners and editors write (access.ts, by method).
import type { FastifyInstance } from 'fastify';
import { scheduledActionRoutes as schemas } from '@cms/management-api';
import { cancelScheduledAction, createScheduledAction, listScheduledActions, parseScheduledActionQuery, type ScheduledActionBody } from '@cms/releases';
import type { ManagementOptions } from './options.ts';
import { releaseProjectOf } from './releases.ts';

export async function scheduledActionRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.post<{ Params: { slug: string }; Body: ScheduledActionBody }>('/projects/:slug/scheduled-actions', { schema: schemas.create }, async (request, reply) => {
    const { project, target } = await releaseProjectOf(platform, request);
    const locales = new Set((await platform.locales.list(project.id)).map((l) => l.code));
    const action = await createScheduledAction(target, request.body, { createdBy: request.accountId, locales });
    // Committed with its row of the due index; the wake-up is only a timer on top (scheduler.ts).
    platform.scheduler.wake(project.cluster, { projectId: project.id, kind: 'action', targetId: action.id }, action.scheduledFor.datetime);
    return reply.status(201).send({ data: action });
  });

  // The query is parsed by @cms/releases, in its words: the schema's verdict is attached and left to it.
  app.get('/projects/:slug/scheduled-actions', { schema: schemas.list, attachValidation: true }, async (request) => {
    const query = parseScheduledActionQuery(request.query as Record<string, unknown>);
    return listScheduledActions((await releaseProjectOf(platform, request)).target, query);
  });

  app.delete<{ Params: { slug: string; id: string } }>('/projects/:slug/scheduled-actions/:id', { schema: schemas.cancel }, async (request, reply) => {
    await cancelScheduledAction((await releaseProjectOf(platform, request)).target, request.params.id);
    return reply.status(204).send();
  });
}
