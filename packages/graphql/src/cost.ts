// The cost limit: an estimate of the rows and values an operation can produce, refused before
// any SQL runs. Lists multiply their children by the rows they may return (their pagination,
// else the default limit); an unbounded list counts as UNBOUNDED_ROWS.
import { getNullableType, isListType, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getComplexity, type ComplexityEstimatorArgs } from 'graphql-query-complexity';
import { connectionSuffix } from './names.ts';
import { rowWindow, type GraphqlLimits, type PaginationArgs } from './pagination.ts';

const UNBOUNDED_ROWS = 1000;
/** Lists without pagination arguments (dynamic zones): a typical item count. */
const UNPAGED_ROWS = 10;

function rows(args: Record<string, unknown>, limits: GraphqlLimits): number {
  try {
    const { limit } = rowWindow(args.pagination as PaginationArgs | undefined, limits);
    return limit === -1 ? UNBOUNDED_ROWS : Math.min(limit, UNBOUNDED_ROWS * 100);
  } catch {
    // Mixed pagination fails in the resolver with its own error; cost it as a default page.
    return limits.defaultLimit;
  }
}

export function operationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | undefined, limits: GraphqlLimits): number {
  return getComplexity({
    schema, query: document, variables, operationName,
    estimators: [
      ({ args, childComplexity, field }: ComplexityEstimatorArgs) => {
        const paged = 'pagination' in (args ?? {}) || field.args.some((a) => a.name === 'pagination');
        if (field.name.endsWith(connectionSuffix)) return 1 + rows(args, limits) * childComplexity;
        if (!isListType(getNullableType(field.type))) return 1 + childComplexity;
        if (field.name === 'nodes') return 1 + childComplexity;
        return 1 + (paged ? rows(args, limits) : UNPAGED_ROWS) * childComplexity;
      },
    ],
  });
}
