// @cms/graphql: each project's GraphQL API, generated from its model with Strapi v5's names,
// served by mercurius, and read through the same planner and SQL renderer as REST.
export { buildProjectSchema, type SchemaNames } from './build-schema.ts';
export { NO_RESOLVERS } from './field-resolvers.ts';
export { buildProjectGraphql, GraphqlServers, type GraphqlRequest, type GraphqlResponse, type ProjectGraphql } from './servers.ts';
export { DEFAULT_GRAPHQL_SETTINGS, graphqlSettingsOf, parseGraphqlSettings, type GraphqlSettings } from './settings.ts';
export { GRAPHIQL_ASSETS } from './graphiql.ts';
export type { GraphqlContext, UploadFiles } from './resolvers.ts';
export type { AuthOutcome, ProjectUsers } from './users-resolvers.ts';
export type { UserRole } from './user-roles.ts';
export type { ProjectRoles, RoleView } from './roles.ts';
export { checkGraphqlNames } from './check-names.ts';
