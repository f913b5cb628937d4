// A model must also make a valid GraphQL schema: generated names may collide with each other or
// with the built-in types (a content type `error` or `pagination`, a type `component-shared-seo`
// next to component `shared.seo`) or with the users-permissions plugin's names (a type `me`, a
// type `users-permissions-user`). Schema pushes run this check, so a project can never hold a
// model its GraphQL endpoint cannot serve.
import { validateSchema, type GraphQLSchema } from 'graphql';
import { ValidationError } from '@cms/errors';
import type { Model } from '@cms/schema';
import { buildProjectSchema } from './build-schema.ts';
import { NO_RESOLVERS } from './field-resolvers.ts';
import { ROLE_MUTATION_FIELDS, ROLE_QUERY_FIELDS, ROLE_TYPE_NAMES } from './roles.ts';
import { USERS_MUTATION_FIELDS, USERS_QUERY_FIELDS, USERS_TYPE_NAMES } from './users-types.ts';

/** The users-permissions names a schema built without the plugin already uses. */
export function reservedNamesTaken(schema: GraphQLSchema): string[] {
  const queries = schema.getQueryType()?.getFields() ?? {};
  const mutations = schema.getMutationType()?.getFields() ?? {};
  return [
    ...[...USERS_TYPE_NAMES, ...ROLE_TYPE_NAMES].filter((name) => schema.getType(name)).map((name) => `the type name ${name}`),
    ...[...USERS_QUERY_FIELDS, ...ROLE_QUERY_FIELDS].filter((name) => Object.hasOwn(queries, name)).map((name) => `the query ${name}`),
    ...[...USERS_MUTATION_FIELDS, ...ROLE_MUTATION_FIELDS].filter((name) => Object.hasOwn(mutations, name)).map((name) => `the mutation ${name}`),
  ].map((what) => `${what} is reserved for the users-permissions plugin`);
}

function problemsOf(model: Model): string[] {
  try {
    const taken = reservedNamesTaken(buildProjectSchema(model, NO_RESOLVERS, { usersPermissions: false }).schema);
    if (taken.length) return taken;
    return validateSchema(buildProjectSchema(model, NO_RESOLVERS).schema).map((e) => e.message);
  } catch (err) {
    return [(err as Error).message];
  }
}

export function checkGraphqlNames(model: Model): void {
  const problems = problemsOf(model);
  if (problems.length === 0) return;
  throw ValidationError.fromFieldErrors(problems.slice(0, 20).map((message) => ({
    path: [], message: `The model cannot be served over GraphQL: ${message}`, name: 'ValidationError' as const,
  })));
}
