// Per-project GraphQL servers: a not-listening fastify instance with mercurius registered on the
// project's generated schema (document cache, JIT, depth limit), built lazily on the project's
// first GraphQL request and kept in a bounded LRU keyed by project, model version and limits
// (server-cache.ts, which loads this module at the first build).
import Fastify, { type FastifyInstance } from 'fastify';
import mercurius from 'mercurius';
import { NoSchemaIntrospectionCustomRule, getNamedType, getOperationAST, getVariableValues, isInputObjectType, typeFromAST, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { ProjectBusyError } from '@cms/errors';
import type { Model } from '@cms/schema';
import { buildProjectSchema, type SchemaOptions } from './build-schema.ts';
import { reservedNamesTaken } from './check-names.ts';
import { operationCost } from './cost.ts';
import { MAX_VARIABLE_DEPTH, nestingExceeds } from './variable-depth.ts';
import { formatExecutionError, fromMercuriusError, GraphqlRequestError, requestError, responseBody } from './errors.ts';
import type { RootResolvers } from './field-resolvers.ts';
import { createRootResolvers } from './resolvers.ts';
import type { GraphqlSettings } from './settings.ts';
import { prepareSubscription, type PreparedSubscription, type RefusedSubscription, type SubscriptionRequest } from './subscription-request.ts';
import type { GraphqlLimits } from './pagination.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** GET requests may only run queries. */
  method: 'GET' | 'POST';
}

export interface GraphqlResponse {
  statusCode: number;
  body: Record<string, unknown>;
  /** Errors answered as INTERNAL_SERVER_ERROR, for the caller to log. */
  internalErrors: unknown[];
  /** The operation ran was a query (nothing written: safe to run again). */
  readOnly: boolean;
  /** Set when a field failed because the project had taken its share of the database: when to try again. */
  retryAfterSeconds?: number;
}

export interface ProjectGraphql {
  schema: GraphQLSchema;
  names: SchemaNames;
  /** Milliseconds the build took (schema generation and mercurius registration). */
  buildMs: number;
  execute(request: GraphqlRequest, context: GraphqlContext): Promise<GraphqlResponse>;
  /**
   * A subscription's operation (graphql-ws), checked as an HTTP request is (validation, depth,
   * cost, variables); run it with graphql-js `subscribe` on `schema`. Anything but a subscription is refused.
   */
  prepareSubscription(request: SubscriptionRequest, limits: GraphqlLimits): PreparedSubscription | RefusedSubscription;
  close(): Promise<void>;
}

interface RequestState {
  method: 'GET' | 'POST';
  onInternal(err: unknown): void;
  operationType?: string;
  retryAfterSeconds?: number;
}

const kState = Symbol('graphql request state');

export async function buildProjectGraphql(model: Model, settings: GraphqlSettings): Promise<ProjectGraphql> {
  const started = performance.now();
  let names: SchemaNames | undefined;
  const { schema, names: built } = servedSchema(model, createRootResolvers(model, () => names!));
  names = built;
  const app: FastifyInstance = Fastify({ logger: false });
  await app.register(mercurius, {
    schema,
    // The gateway owns the HTTP side (tenant, auth, CSRF, GraphiQL); without mercurius's routes
    // (static files, websocket) a build takes a fraction of the time.
    routes: false,
    jit: 1,
    // Parsed and validated documents per project: bounded, since every cached server keeps its own.
    cache: 256,
    queryDepth: settings.depthLimit > 0 ? settings.depthLimit : undefined,
    validationRules: settings.introspection ? [] : [NoSchemaIntrospectionCustomRule],
    errorFormatter: (execution, context) => {
      const state = (context as unknown as Record<symbol, RequestState>)[kState];
      const errors = (execution.errors ?? []).map((e) => {
        const original = (e as GraphQLError).originalError;
        // Resolver errors answer 200 as Strapi's do; a busy project still tells the client when to retry.
        if (state && original instanceof ProjectBusyError) state.retryAfterSeconds = Math.max(state.retryAfterSeconds ?? 0, original.retryAfterSeconds);
        return formatExecutionError(e as GraphQLError, (err) => state?.onInternal(err));
      });
      return { statusCode: 200, response: { data: execution.data ?? null, errors: errors as unknown as GraphQLError[] } };
    },
  });
  // Limits that need the variables run after validation, before any resolver. An operation
  // without variables has one cost, kept with it (a document may hold several operations).
  const costs = new WeakMap<OperationDefinitionNode, number>();
  app.graphql.addHook('preExecution', async (_schema, document, context, variables) => {
    const state = (context as unknown as Record<symbol, RequestState>)[kState];
    const operationName = (context as unknown as { operationName?: string }).operationName;
    const operation = getOperationAST(document, operationName);
    if (!operation) {
      throw requestError(operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.', 'OPERATION_RESOLUTION_FAILURE');
    }
    if (state) state.operationType = operation.operation;
    if (operation.operation === 'subscription') {
      throw requestError('Subscriptions are served over WebSocket (graphql-transport-ws) at this path, not by HTTP.', 'BAD_REQUEST');
    }
    if (state?.method === 'GET' && operation.operation !== 'query') {
      throw requestError('Can only perform a mutation operation from a POST request.', 'BAD_REQUEST', 405);
    }
    // Variables are coerced here on every request: mercurius skips it on the request that
    // JIT-compiles a document, and the cost estimate below needs valid values.
    if (operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, operation.variableDefinitions, (variables ?? {}) as Record<string, unknown>, { maxErrors: 20 });
      if (coerced.errors) {
        throw new GraphqlRequestError(400, coerced.errors.map((e) => ({ message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions: { code: 'BAD_USER_INPUT' } })));
      }
    }
    // graphql-jit 0.8.9 compiles variable coercion recursively without a cycle guard, and every
    // filter input is recursive (and/or/not): such operations run on graphql-js instead. Handing
    // the same document back as "modified" is how mercurius is told not to compile it.
    const interpreted = hasInputObjectVariables(schema, operation) ? { document } : undefined;
    if (settings.costLimit <= 0) return interpreted;
    const gqlContext = context as unknown as GraphqlContext;
    const constant = !operation.variableDefinitions?.length;
    let cost = constant ? costs.get(operation) : undefined;
    if (cost === undefined) {
      cost = operationCost(schema, document, variables as Record<string, unknown> | undefined, operationName, gqlContext.limits);
      if (constant) costs.set(operation, cost);
    }
    if (cost > settings.costLimit) {
      throw requestError(`The query is too expensive: its estimated cost ${cost} exceeds the limit of ${settings.costLimit}.`, 'GRAPHQL_VALIDATION_FAILED');
    }
    return interpreted;
  });
  await app.ready();
  const buildMs = performance.now() - started;

  return {
    schema,
    names,
    buildMs,
    async execute(request, context) {
      // graphql-js coerces variables recursively: refuse absurd nesting before it does.
      if (nestingExceeds(request.variables, MAX_VARIABLE_DEPTH)) {
        const known = requestError(`Variables are nested more than ${MAX_VARIABLE_DEPTH} levels deep`, 'BAD_USER_INPUT');
        return { statusCode: known.statusCode, body: { errors: known.errors }, internalErrors: [], readOnly: true };
      }
      const failures: unknown[] = [];
      const state: RequestState = { method: request.method, onInternal: (err) => failures.push(err) };
      Object.assign(context, { [kState]: state, operationName: request.operationName });
      try {
        const result = await app.graphql(request.query, context as never, request.variables, request.operationName);
        return { statusCode: 200, body: responseBody(result), internalErrors: failures, readOnly: state.operationType === 'query', ...(state.retryAfterSeconds ? { retryAfterSeconds: state.retryAfterSeconds } : {}) };
      } catch (err) {
        const known = err instanceof GraphqlRequestError ? err : fromMercuriusError(err);
        if (!known) throw err;
        return { statusCode: known.statusCode, body: { errors: known.errors }, internalErrors: failures, readOnly: state.operationType !== 'mutation' };
      }
    },
    prepareSubscription: (request, limits) => prepareSubscription(schema, settings, limits, request),
    close: () => app.close(),
  };
}

/**
 * The project's schema. A model stored before the users-permissions names were reserved may
 * generate one of them (check-names.ts refuses that now): it keeps its content API without the
 * plugin. So does one stored before subscriptions whose names clash with theirs: it is served without them.
 */
function servedSchema(model: Model, resolvers: RootResolvers): ReturnType<typeof buildProjectSchema> {
  try {
    return buildProjectSchema(model, resolvers);
  } catch (err) {
    const attempt = (options: SchemaOptions) => {
      try {
        return buildProjectSchema(model, resolvers, options);
      } catch {
        return null;
      }
    };
    const withoutSubscriptions = attempt({ subscriptions: false });
    if (withoutSubscriptions) return withoutSubscriptions;
    const withoutPlugin = attempt({ usersPermissions: false }) ?? attempt({ usersPermissions: false, subscriptions: false });
    if (!withoutPlugin || reservedNamesTaken(withoutPlugin.schema).length === 0) throw err;
    return withoutPlugin;
  }
}

const inputObjectVariables = new WeakMap<OperationDefinitionNode, boolean>();

/** Does the operation declare a variable of an input object type (directly or in a list)? */
function hasInputObjectVariables(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  let known = inputObjectVariables.get(operation);
  if (known === undefined) {
    known = (operation.variableDefinitions ?? []).some((v) => {
      const type = typeFromAST(schema, v.type);
      return type !== undefined && isInputObjectType(getNamedType(type));
    });
    inputObjectVariables.set(operation, known);
  }
  return known;
}
