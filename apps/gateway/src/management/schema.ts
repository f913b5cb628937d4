// The content-type builder: declarative pushes of the whole model, or one type/component at a time.
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '@cms/errors';
import { toRawModel, type ProjectRecord } from '@cms/tenancy';
import type { RawModel } from '@cms/schema';
import type { ManagementOptions } from './index.ts';

const anyObject = { type: 'object' } as const;
const UID_MAX = 200;

export function registerSchemaRoutes(app: FastifyInstance, { services }: ManagementOptions): void {
  const project = (accountId: number, slug: string) => services.projects.getForAccount(accountId, slug);

  /** Replace (in place, keeping declaration order) or add one entry of the model and push. */
  async function pushWith(p: ProjectRecord, section: keyof RawModel, uid: string, value: Record<string, unknown> | undefined) {
    const { raw } = await services.models.current(p.id);
    const entries = { ...raw[section] };
    if (value === undefined) delete entries[uid];
    else entries[uid] = value;
    return services.models.push(p, { ...raw, [section]: entries });
  }

  app.get<{ Params: { slug: string } }>('/projects/:slug/schema', async (request) => {
    const { raw, version } = await services.models.current((await project(request.accountId, request.params.slug)).id);
    return { contentTypes: raw.contentTypes, components: raw.components, version };
  });

  app.put<{ Params: { slug: string }; Body: { contentTypes: RawModel['contentTypes']; components?: RawModel['components']; renames?: Record<string, Record<string, string>> } }>(
    '/projects/:slug/schema',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['contentTypes'],
          properties: {
            contentTypes: anyObject,
            components: anyObject,
            renames: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } },
          },
        },
      },
    },
    async (request) => {
      const p = await project(request.accountId, request.params.slug);
      const result = await services.models.push(p, toRawModel(request.body), { renames: request.body.renames });
      return { contentTypes: result.raw.contentTypes, components: result.raw.components, version: result.version };
    },
  );

  app.put<{ Params: { slug: string; uid: string }; Body: Record<string, unknown> }>(
    '/projects/:slug/content-types/:uid',
    { schema: { body: anyObject, params: { type: 'object', properties: { uid: { type: 'string', maxLength: UID_MAX } } } } },
    async (request) => {
      const result = await pushWith(await project(request.accountId, request.params.slug), 'contentTypes', request.params.uid, request.body);
      return { contentType: result.raw.contentTypes[request.params.uid], version: result.version };
    },
  );

  app.delete<{ Params: { slug: string; uid: string } }>('/projects/:slug/content-types/:uid', async (request, reply) => {
    const p = await project(request.accountId, request.params.slug);
    const { raw } = await services.models.current(p.id);
    if (!Object.hasOwn(raw.contentTypes, request.params.uid)) throw new NotFoundError();
    await pushWith(p, 'contentTypes', request.params.uid, undefined);
    return reply.status(204).send();
  });

  app.put<{ Params: { slug: string; uid: string }; Body: Record<string, unknown> }>(
    '/projects/:slug/components/:uid',
    { schema: { body: anyObject, params: { type: 'object', properties: { uid: { type: 'string', maxLength: UID_MAX } } } } },
    async (request) => {
      const result = await pushWith(await project(request.accountId, request.params.slug), 'components', request.params.uid, request.body);
      return { component: result.raw.components[request.params.uid], version: result.version };
    },
  );
}
