// @cms/graphql/lazy: what a gateway needs of @cms/graphql when it starts (the servers' cache, the
// names check of schema pushes, the settings, GraphiQL's files), without graphql-js, mercurius and
// graphql-jit: they load with the first GraphQL request or schema push (server-cache.ts), and an
// idle gateway is about 10 MB smaller. Modules loaded at start import this entry, never the
// package's own ('@cms/graphql', type imports aside): in the bundle (esbuild's code splitting),
// even an unused re-export of it puts those modules in the chunks every start loads.
export { checkGraphqlNamesLazily, GraphqlServers } from './server-cache.ts';
export { DEFAULT_GRAPHQL_SETTINGS, graphqlSettingsOf, parseGraphqlSettings, type GraphqlSettings } from './settings.ts';
export { GRAPHIQL_ASSETS } from './graphiql.ts';
