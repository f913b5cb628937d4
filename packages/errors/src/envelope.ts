import {
  AppError,
  BadRequestError,
  HttpVersionNotSupportedError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  SyntaxError_,
  UnsupportedMediaTypeError,
  UriTooLongError,
  ValidationError,
} from './errors.ts';

export interface ErrorEnvelope {
  data: null;
  error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

// SQLSTATEs that are the caller's fault, never a 500.
const SQLSTATE_TO_ERROR: Record<string, () => AppError> = {
  '23505': () => new ValidationError('This attribute must be unique'),
  '23503': () => new ValidationError('A related document was deleted while this one was being written'),
  '22021': () => new ValidationError('Invalid character in input (invalid byte sequence)'),
  '22P05': () => new ValidationError('Invalid character in input (untranslatable character)'),
  '22003': () => new ValidationError('Numeric value out of range'),
  '22007': () => new ValidationError('Invalid date or time value'),
  '22008': () => new ValidationError('Date or time value out of range'),
  '22P02': () => new ValidationError('Invalid input value'),
  '54001': () => new ValidationError('Query too complex'),
  '57014': () => new ServiceUnavailableError('Query took too long and was cancelled'),
  // The request's database connection was closed under it (an operator's terminate, a restart):
  // a transaction in flight rolled back; the client may try again.
  '57P01': () => new ServiceUnavailableError('The database connection was interrupted; try again'),
  '57P02': () => new ServiceUnavailableError('The database connection was interrupted; try again'),
  '57P03': () => new ServiceUnavailableError('The database is not accepting connections yet; try again'),
};

/** The SQLSTATE code carried by an error or one of its causes (driver wrappers nest them). */
export function sqlStateOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * Thrown (before anything is read or written) by a request that found its project's in-memory
 * copy older than a change another instance already recorded: it runs again on a fresh copy.
 */
export class StaleProjectError extends Error {
  override name = 'StaleProjectError';
  constructor() {
    super('The project changed on another instance; reloading it');
  }
}

// SQLSTATEs of a statement built for an older model than the database now has: a column or table
// dropped or renamed, a type changed, a prepared plan invalidated by DDL.
const STALE_MODEL_STATES = new Set(['42703', '42P01', '42804', '42883', '0A000']);

/**
 * Whether `err` is what a request gets when its project's model changed under it (another instance
 * committed a migration and this one has not heard yet): reload the model and run it again.
 */
export function isStaleModelError(err: unknown): boolean {
  if (err instanceof StaleProjectError) return true;
  const state = sqlStateOf(err);
  return state !== undefined && STALE_MODEL_STATES.has(state);
}

/** Turn anything thrown into one of our typed errors. */
export function normalizeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string; name?: string; validation?: AjvIssue[] };
  switch (e?.code) {
    case 'FST_ERR_VALIDATION':
      return fromSchemaValidation(e.validation ?? [], (e as { validationContext?: string }).validationContext);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeError();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError();
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new SyntaxError_('Body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new SyntaxError_('Body cannot be empty when content-type is set to application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ValidationError('Request body size did not match Content-Length');
    case 'FST_ERR_NOT_FOUND':
      return new NotFoundError();
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new UriTooLongError();
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new ValidationError('Malformed URL');
  }
  if (e?.name === 'SyntaxError' && e.statusCode === 400) return new SyntaxError_(shortJsonMessage(e.message));
  if (e?.statusCode === 413) return new PayloadTooLargeError();
  if (e?.statusCode === 405) return new MethodNotAllowedError();
  const state = sqlStateOf(err);
  if (state && SQLSTATE_TO_ERROR[state]) return SQLSTATE_TO_ERROR[state]!();
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError(e.message ?? 'Bad Request', e.statusCode);
  }
  return new InternalServerError();
}

/** An error of Node's HTTP parser (llhttp `HPE_*` codes) → what the client is told. */
export function clientErrorOf(err: { code?: string }): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new RequestHeaderFieldsTooLargeError();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new RequestTimeoutError();
    case 'HPE_INVALID_VERSION':
      return new HttpVersionNotSupportedError();
    case 'HPE_INVALID_METHOD':
      return new BadRequestError('Invalid HTTP method');
    default:
      return new BadRequestError('Malformed HTTP request');
  }
}

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** JSON-schema (ajv) failures from fastify route schemas → ValidationError with paths. */
function fromSchemaValidation(issues: AjvIssue[], context = 'body'): ValidationError {
  const errors = issues.slice(0, 50).map((issue) => {
    const path = (issue.instancePath ?? '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const params = issue.params ?? {};
    if (issue.keyword === 'required' && typeof params.missingProperty === 'string') path.push(params.missingProperty);
    if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      path.push(params.additionalProperty);
      return { path, message: `${path.join('.')} is not a valid key`, name: 'ValidationError' as const };
    }
    const where = path.length ? path.join('.') : context;
    const message = issue.keyword === 'required' ? `${where} is a required field` : `${where} ${issue.message ?? 'is invalid'}`;
    return { path, message, name: 'ValidationError' as const };
  });
  return ValidationError.fromFieldErrors(errors.length ? errors : [{ path: [], message: 'Invalid request', name: 'ValidationError' }]);
}

function shortJsonMessage(message: string | undefined): string {
  return (message ?? 'Malformed JSON').slice(0, 200);
}

export function toEnvelope(err: AppError): ErrorEnvelope {
  return { data: null, error: { status: err.status, name: err.name, message: err.message, details: err.details } };
}
