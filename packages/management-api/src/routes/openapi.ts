// A project's content API document through the management API (apps/gateway/src/management/openapi.ts).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';

export const openApiRoutes = {
  project: defineRoute({
    tags: ['OpenAPI'],
    summary: 'Get a project\'s content API document',
    description: 'The OpenAPI 3.1 document of the project\'s REST API for its current model, with `servers` as seen from the request\'s origin: the same as the public `GET /p/{slug}/api/openapi.json`. Any member (`cms openapi <out.json>` writes it to a file).',
    response: withErrors({
      // Sent as a ready JSON string (cached per model): fastify does not serialize it.
      200: { description: 'An OpenAPI 3.1 document', type: 'object', additionalProperties: true },
    }, { 404: NO_PROJECT }),
  }),
};
