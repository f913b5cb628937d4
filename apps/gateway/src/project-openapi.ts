// The OpenAPI 3.1 document of a project's content API, as its current model describes it: served
// by the content API (`GET /api/openapi.json`, tenant/openapi-route.ts) and by the management API
// to any member (`GET /v1/projects/{slug}/openapi.json`, management/openapi.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openApiJson, projectServers } from '@cms/openapi';
import type { ProjectRecord } from '@cms/tenancy';
import type { Platform } from './platform.ts';
import { REST_LIMITS } from './tenant/rest-targets.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends the document of the project's current model, with servers as the request's client reaches them. */
export async function sendProjectOpenApi(platform: Platform, request: FastifyRequest, reply: FastifyReply, project: ProjectRecord, hostRouted: boolean): Promise<FastifyReply> {
  const runtime = await platform.runtimes.get(project);
  const servers = projectServers({ slug: project.slug, protocol: request.protocol, host: request.host, baseDomain: platform.config.baseDomain, hostRouted });
  return reply.type(JSON_TYPE).send(openApiJson(runtime, project, servers, REST_LIMITS));
}
