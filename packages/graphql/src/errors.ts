// GraphQL errors in Strapi's shape. Resolver errors: HTTP 200, `errors[]` with
// `extensions.code` and `extensions.error` {name, message, details}; request errors (syntax,
// validation, variables, limits): HTTP 400 with an Apollo code and no data.
import { GraphQLError, type ExecutionResult } from 'graphql';
import { AppError, normalizeError } from '@cms/errors';

export interface FormattedError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions: Record<string, unknown>;
}

const FORBIDDEN_NAMES = new Set(['ForbiddenError', 'PolicyError', 'UnauthorizedError']);

const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** `extensions.code` of one of our typed errors. */
function codeOf(err: AppError): string {
  if (FORBIDDEN_NAMES.has(err.name)) return 'FORBIDDEN';
  if (err.name === 'ValidationError') return 'BAD_USER_INPUT';
  return `STRAPI_${upperSnake(err.name)}`;
}

const where = (err: GraphQLError) => ({
  ...(err.locations ? { locations: err.locations } : {}),
  ...(err.path ? { path: err.path } : {}),
});

/** One execution error; `onInternal` sees the errors that become INTERNAL_SERVER_ERROR (to log them). */
export function formatExecutionError(err: GraphQLError, onInternal: (err: unknown) => void): FormattedError {
  const original = err.originalError;
  if (!original) return { message: err.message, ...where(err), extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  const typed = normalizeError(original);
  if (typed.status >= 500 && !(original instanceof AppError)) {
    // Ours: unlike Strapi, the original error's name and message never leak.
    onInternal(original);
    return { message: 'Internal Server Error', ...where(err), extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return {
    message: typed.message,
    ...where(err),
    extensions: { code: codeOf(typed), error: { name: typed.name, message: typed.message, details: typed.details } },
  };
}

/**
 * An error met before a subscription starts (graphql-ws sends an `error` message of GraphQLErrors),
 * formatted as a resolver's: typed errors keep their code, anything else is INTERNAL_SERVER_ERROR.
 */
export function failedSubscription(err: unknown, onInternal: (err: unknown) => void): GraphQLError[] {
  const original = err instanceof Error ? err : new Error(String(err));
  const formatted = formatExecutionError(new GraphQLError(original.message, { originalError: original }), onInternal);
  return [new GraphQLError(formatted.message, { extensions: formatted.extensions })];
}

/** Errors that stop a request before execution. */
export class GraphqlRequestError extends Error {
  constructor(readonly statusCode: number, readonly errors: FormattedError[]) {
    super(errors[0]?.message ?? 'Bad Request');
  }
}

export function requestError(message: string, code: string, statusCode = 400, nodes?: GraphQLError): GraphqlRequestError {
  return new GraphqlRequestError(statusCode, [{ message, ...(nodes?.locations ? { locations: nodes.locations } : {}), extensions: { code } }]);
}

/** Variable coercion (a bad value), as opposed to validation rules about variables (never used, undefined…). */
const BAD_VARIABLE_VALUE = /^Variable "\$[^"]+" (got invalid value|of required type|of non-null type)/;

/** mercurius's MER_ERR_GQL_VALIDATION (syntax, validation, depth, variable coercion) → Apollo codes. */
export function fromMercuriusError(err: unknown): GraphqlRequestError | null {
  const e = err as { code?: string; errors?: unknown };
  if (e?.code !== 'MER_ERR_GQL_VALIDATION' || !Array.isArray(e.errors)) return null;
  const errors = (e.errors as GraphQLError[]).map((g): FormattedError => {
    const message = String(g.message);
    const code = message.startsWith('Syntax Error') ? 'GRAPHQL_PARSE_FAILED'
      : BAD_VARIABLE_VALUE.test(message) ? 'BAD_USER_INPUT'
      : 'GRAPHQL_VALIDATION_FAILED';
    return { message, ...(g.locations ? { locations: g.locations } : {}), extensions: { code } };
  });
  return new GraphqlRequestError(400, errors);
}

/** The response body: `errors` first, as Apollo orders it. */
export function responseBody(result: ExecutionResult): Record<string, unknown> {
  return result.errors?.length ? { errors: result.errors, data: result.data ?? null } : { data: result.data ?? null };
}
