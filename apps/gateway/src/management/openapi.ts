// `GET /v1/projects/{slug}/openapi.json`: the OpenAPI 3.1 document of a project's content API,
// for any member (`cms openapi` writes it to a file). Non-members get the project routes' 404.
import type { FastifyInstance } from 'fastify';
import { openApiRoutes as schemas } from '@cms/management-api';
import { sendProjectOpenApi } from '../project-openapi.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

export async function openApiRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/openapi.json', { schema: schemas.project }, async (request, reply) => sendProjectOpenApi(platform, request, reply, projectOf(request), false));
}
