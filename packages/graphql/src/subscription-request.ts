// A subscription's operation, checked like an HTTP one before it starts (graphql-ws `subscribe`
// messages do not go through mercurius): parsed, validated (introspection as the project's
// settings say), its depth and cost limited, its variables coerced; only subscriptions — queries
// and mutations are served by HTTP, where answers, writes' change notes and purges are handled.
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, getOperationAST, getVariableValues, parse, specifiedRules, validate, type DefinitionNode, type DocumentNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { operationCost } from './cost.ts';
import { MAX_VARIABLE_DEPTH, nestingExceeds } from './variable-depth.ts';
import type { GraphqlLimits } from './pagination.ts';
import type { GraphqlSettings } from './settings.ts';

export interface SubscriptionRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface PreparedSubscription {
  document: DocumentNode;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/** Tokens of one operation's text (graphql-js stops parsing past it). */
const MAX_TOKENS = 20_000;

/** Refused: graphql-ws answers an `error` message with these (their `extensions.code` as on HTTP). */
export interface RefusedSubscription {
  errors: GraphQLError[];
}

const errorOf = (message: string, code: string, error?: GraphQLError): GraphQLError =>
  new GraphQLError(message, { ...(error ? { nodes: error.nodes, source: error.source, positions: error.positions } : {}), extensions: { code } });
const refused = (message: string, code: string, error?: GraphQLError): RefusedSubscription => ({ errors: [errorOf(message, code, error)] });

export function prepareSubscription(schema: GraphQLSchema, settings: GraphqlSettings, limits: GraphqlLimits, request: SubscriptionRequest): PreparedSubscription | RefusedSubscription {
  const { query, variables, operationName } = request;
  if (typeof query !== 'string' || query === '') return refused('GraphQL operations must contain a non-empty `query`.', 'BAD_REQUEST');
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return refused('`variables` should be an object if provided.', 'BAD_REQUEST');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return refused('`operationName` must be a string if provided.', 'BAD_REQUEST');
  if (nestingExceeds(variables, MAX_VARIABLE_DEPTH)) return refused(`Variables are nested more than ${MAX_VARIABLE_DEPTH} levels deep`, 'BAD_USER_INPUT');
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: MAX_TOKENS });
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    return refused(err.message, 'GRAPHQL_PARSE_FAILED', err);
  }
  const rules = settings.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  const invalid = validate(schema, document, rules, { maxErrors: 20 });
  if (invalid.length) return { errors: invalid.map((e) => errorOf(e.message, 'GRAPHQL_VALIDATION_FAILED', e)) };
  const name = typeof operationName === 'string' ? operationName : undefined;
  if (settings.depthLimit > 0) {
    const deepest = depthOf(document.definitions);
    if (deepest.depth > settings.depthLimit) {
      return refused(`\`${deepest.name} query depth (${deepest.depth}) exceeds the query depth limit of ${settings.depthLimit}\``, 'GRAPHQL_VALIDATION_FAILED');
    }
  }
  const operation = getOperationAST(document, name);
  if (!operation) {
    return refused(name ? `Unknown operation named "${name}".` : 'Must provide operation name if query contains multiple operations.', 'OPERATION_RESOLUTION_FAILURE');
  }
  if (operation.operation !== 'subscription') {
    return refused(`Only subscriptions are served over WebSocket: send ${operation.operation === 'query' ? 'queries' : 'mutations'} by HTTP (POST /graphql).`, 'BAD_REQUEST');
  }
  const vars = (variables ?? undefined) as Record<string, unknown> | undefined;
  if (operation.variableDefinitions?.length) {
    const coerced = getVariableValues(schema, operation.variableDefinitions, vars ?? {}, { maxErrors: 20 });
    if (coerced.errors) return { errors: coerced.errors.map((e) => errorOf(e.message, 'BAD_USER_INPUT', e)) };
  }
  if (settings.costLimit > 0) {
    const cost = operationCost(schema, document, vars, name, limits);
    if (cost > settings.costLimit) {
      return refused(`The query is too expensive: its estimated cost ${cost} exceeds the limit of ${settings.costLimit}.`, 'GRAPHQL_VALIDATION_FAILED');
    }
  }
  return { document, operationName: name, variables: vars };
}

/**
 * The deepest operation's nesting, counted as mercurius's `queryDepth` counts it (fields and
 * inline fragments add a level, fragment spreads none). Runs after validation: fragments exist and do not cycle.
 */
function depthOf(definitions: readonly DefinitionNode[]): { name: string; depth: number } {
  const fragments = new Map<string, SelectionSetNode>();
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
  const known = new Map<string, number>();
  const deepest = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): number => {
    let max = 0;
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        max = Math.max(max, 1 + deepest(selection.selectionSet, seen));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, 1 + deepest(selection.selectionSet, seen));
      } else {
        const name = selection.name.value;
        if (seen.has(name)) continue;
        let depth = known.get(name);
        if (depth === undefined) known.set(name, (depth = deepest(fragments.get(name), new Set([...seen, name]))));
        max = Math.max(max, depth);
      }
    }
    return max;
  };
  let out = { name: 'unnamedQuery', depth: 0 };
  for (const d of definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const depth = deepest(d.selectionSet, new Set());
    if (depth > out.depth) out = { name: d.name?.value ?? 'unnamedQuery', depth };
  }
  return out;
}
