// @cms/graphql: each project's GraphQL API, generated from its model with Strapi v5's names,
// served by mercurius, and read through the same planner and SQL renderer as REST.
// Modules a gateway loads at start import '@cms/graphql/lazy' (lazy.ts) instead.
export { buildProjectSchema } from './build-schema.ts';
export { NO_RESOLVERS } from './field-resolvers.ts';
export { buildProjectGraphql, type GraphqlRequest, type GraphqlResponse, type ProjectGraphql } from './servers.ts';
export { checkGraphqlNamesLazily, GraphqlServers } from './server-cache.ts';
export { DEFAULT_GRAPHQL_SETTINGS, graphqlSettingsOf, parseGraphqlSettings, type GraphqlSettings } from './settings.ts';
export { GRAPHIQL_ASSETS } from './graphiql.ts';
export type { UserRole } from './user-roles.ts';
export { checkGraphqlNames } from './check-names.ts';
export type { AuthOutcome, ChangeMemo, ChangeRef, ChangeSource, FollowRequest, GraphqlContext, LiveFeed, ProjectRoles, ProjectUsers, ReadObserver, RoleView, SchemaNames, UploadFiles } from './context.ts';
export { failedSubscription, formatExecutionError, type FormattedError } from './errors.ts';
export type { PreparedSubscription, RefusedSubscription, SubscriptionRequest } from './subscription-request.ts';
