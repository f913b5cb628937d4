// A project's settings. GraphQL: page size default and maximum (Strapi's `graphql.config.defaultLimit`
// and `maxLimit`), depth and cost limits, introspection and the GraphiQL playground. Users-permissions:
// registration, e-mail confirmation, default role, JWT lifetime and the URLs of its e-mails. CORS: the
// origins whose pages may call the project's APIs (Strapi's `strapi::cors`). Delivery: how long CDNs
// keep public answers (`sMaxAge`) and whether the gateways keep answers in memory (`answerCache`).
import type { FastifyInstance } from 'fastify';
import { graphqlSettingsOf, parseGraphqlSettings } from '@cms/graphql/lazy';
import { settingsRoutes as schemas } from '@cms/management-api';
import { parseUsersSettings, usersSettingsOf } from '@cms/users';
import { corsSettingsOf, parseCorsSettings, storedCors } from '../http/cors-settings.ts';
import { deliverySettingsOf, parseDeliverySettings, storedDelivery } from '../delivery-settings.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

export async function settingsRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/settings/graphql', { schema: schemas.getGraphql }, async (request) => ({ graphql: graphqlSettingsOf(projectOf(request).settings) }));

  app.put('/projects/:slug/settings/graphql', { schema: schemas.updateGraphql }, async (request) => {
    const project = projectOf(request);
    const graphql = parseGraphqlSettings(request.body, graphqlSettingsOf(project.settings));
    await platform.projects.updateSettings(project, 'graphql', graphql);
    return { graphql };
  });

  app.get('/projects/:slug/settings/users-permissions', { schema: schemas.getUsersPermissions }, async (request) => ({ usersPermissions: usersSettingsOf(projectOf(request).settings) }));

  app.put('/projects/:slug/settings/users-permissions', { schema: schemas.updateUsersPermissions }, async (request) => {
    const project = projectOf(request);
    const roleTypes = (await platform.roles.list(project.id)).map((r) => r.type);
    const usersPermissions = parseUsersSettings(request.body, usersSettingsOf(project.settings), roleTypes);
    await platform.projects.updateSettings(project, 'usersPermissions', usersPermissions);
    return { usersPermissions };
  });

  app.get('/projects/:slug/settings/cors', { schema: schemas.getCors }, async (request) => ({ cors: storedCors(corsSettingsOf(projectOf(request).settings)) }));

  app.put('/projects/:slug/settings/cors', { schema: schemas.updateCors }, async (request) => {
    const project = projectOf(request);
    const cors = parseCorsSettings(request.body, corsSettingsOf(project.settings));
    await platform.projects.updateSettings(project, 'cors', cors);
    return { cors };
  });

  app.get('/projects/:slug/settings/delivery', { schema: schemas.getDelivery }, async (request) => ({ delivery: storedDelivery(deliverySettingsOf(projectOf(request).settings)) }));

  app.put('/projects/:slug/settings/delivery', { schema: schemas.updateDelivery }, async (request) => {
    const project = projectOf(request);
    const delivery = parseDeliverySettings(request.body, deliverySettingsOf(project.settings));
    await platform.projects.updateSettings(project, 'delivery', delivery);
    return { delivery };
  });
}
