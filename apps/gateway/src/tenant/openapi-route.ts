// `GET /api/openapi.json`: the project's content API as an OpenAPI 3.1 document (project-openapi.ts).
// Public, as it describes the API, not its data (an unknown project is the tenant hook's 404).
import type { FastifyInstance } from 'fastify';
import { sendProjectOpenApi } from '../project-openapi.ts';
import type { TenantOptions } from './options.ts';
import { tenantOf } from './request-context.ts';

export async function openApiRoute(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  app.get('/api/openapi.json', async (request, reply) => {
    const { project } = tenantOf(request);
    // Host-routed requests were rewritten to `/p/{slug}/…` (see app.ts).
    const hostRouted = !request.originalUrl.startsWith(`/p/${project.slug}/`);
    return sendProjectOpenApi(platform, request, reply, project, hostRouted);
  });
}
