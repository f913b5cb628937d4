// `GET /api/openapi.json`: the project's content API as an OpenAPI 3.1 document. Public, as it
// describes the API, not its data (an unknown project is the tenant hook's 404). Also the body
// of the management API's `GET /v1/projects/{slug}/openapi.json`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openApiJson, projectServers } from '@cms/openapi';
import type { ProjectRecord } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import { tenantOf } from './request-context.ts';
import { REST_LIMITS } from './rest-targets.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends the document of the project's current model, with servers as the request's client reaches them. */
export async function sendProjectOpenApi(platform: Platform, request: FastifyRequest, reply: FastifyReply, project: ProjectRecord, hostRouted: boolean): Promise<FastifyReply> {
  const runtime = await platform.runtimes.get(project);
  const servers = projectServers({ slug: project.slug, protocol: request.protocol, host: request.host, baseDomain: platform.config.baseDomain, hostRouted });
  return reply.type(JSON_TYPE).send(openApiJson(runtime, project, servers, REST_LIMITS));
}

export function registerOpenApiRoute(app: FastifyInstance, platform: Platform): void {
  app.get('/api/openapi.json', async (request, reply) => {
    const { project } = tenantOf(request);
    // Host-routed requests were rewritten to `/p/{slug}/…` (see app.ts).
    const hostRouted = !request.originalUrl.startsWith(`/p/${project.slug}/`);
    return sendProjectOpenApi(platform, request, reply, project, hostRouted);
  });
}
