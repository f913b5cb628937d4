// A project's GraphQL settings: page size default and maximum (Strapi's `graphql.config.defaultLimit`
// and `maxLimit`), depth and cost limits, introspection and the GraphiQL playground.
import type { FastifyInstance } from 'fastify';
import { graphqlSettingsOf, parseGraphqlSettings } from '@cms/graphql';
import type { ManagementOptions } from './index.ts';
import { projectOf } from './request-context.ts';

export function registerSettingsRoutes(app: FastifyInstance, { services }: ManagementOptions): void {
  app.get('/projects/:slug/settings/graphql', async (request) => ({ graphql: graphqlSettingsOf(projectOf(request).settings) }));

  app.put('/projects/:slug/settings/graphql', async (request) => {
    const project = projectOf(request);
    const graphql = parseGraphqlSettings(request.body, graphqlSettingsOf(project.settings));
    await services.projects.updateSettings(project, 'graphql', graphql);
    return { graphql };
  });
}
