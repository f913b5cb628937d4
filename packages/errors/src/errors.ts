// Typed errors. Each has the Strapi error `name` and an HTTP status; `toEnvelope` (envelope.ts)
// is the one place that turns any of them into the `{data:null,error:{…}}` body. Each class also
// has a stable `code` (`CMS_…`, like fastify's `FST_…`) for logs and metrics: clients never see it
// (the envelope is Strapi's), so a code is never renamed or reused (docs/operations.md lists them).

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  /** What logs and metrics group by; one per class. A bare AppError is a 4xx a plugin raised. */
  readonly code: string = 'CMS_ERROR';
  readonly status: number;
  readonly details: ErrorDetails;
  constructor(message: string, status: number, details: ErrorDetails = {}) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

/** One entry of `details.errors` for attribute validation. */
export interface FieldError {
  path: string[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

export class ValidationError extends AppError {
  override name = 'ValidationError';
  override readonly code = 'CMS_VALIDATION';
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, 400, details);
  }
  /** Strapi's shape: one error → its message; several → "N errors occurred". */
  static fromFieldErrors(errors: FieldError[]): ValidationError {
    const message = errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`;
    return new ValidationError(message, { errors });
  }
  /**
   * Strapi's `Invalid key x` (or `Invalid key x at y`) for an unknown query or body key.
   * details: {key, path, source[, param]} — path is a dotted string or null.
   */
  static invalidKey(key: string, opts: { source: 'query' | 'body'; param?: string; path?: string | null; at?: string }): ValidationError {
    const details: ErrorDetails = { key, path: opts.path ?? null, source: opts.source };
    if (opts.param) details.param = opts.param;
    return new ValidationError(opts.at ? `Invalid key ${key} at ${opts.at}` : `Invalid key ${key}`, details);
  }
}

export class SyntaxError_ extends AppError {
  override name = 'SyntaxError';
  override readonly code = 'CMS_SYNTAX';
  constructor(message = 'Malformed JSON in request body') {
    super(message, 400);
  }
}

export class ApplicationError extends AppError {
  override name = 'ApplicationError';
  override readonly code = 'CMS_APPLICATION';
  constructor(message = 'An application error occurred', details: ErrorDetails = {}, status = 400) {
    super(message, status, details);
  }
}

export class PaginationError extends AppError {
  override name = 'PaginationError';
  override readonly code = 'CMS_PAGINATION';
  constructor(message = 'Cannot use both page & offset pagination in the same query') {
    super(message, 400);
  }
}

export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  override readonly code = 'CMS_UNAUTHORIZED';
  constructor(message = 'Missing or invalid credentials', details: ErrorDetails = {}) {
    super(message, 401, details);
  }
}

export class ForbiddenError extends AppError {
  override name = 'ForbiddenError';
  override readonly code = 'CMS_FORBIDDEN';
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(message, 403, details);
  }
}

/** The password was right and the account has two-factor on: sign in again with `code` (docs/two-factor.md). */
export class TwoFactorRequiredError extends AppError {
  override name = 'TwoFactorRequired';
  override readonly code = 'CMS_TWO_FACTOR_REQUIRED';
  constructor(message = 'Enter the code from your authenticator app, or a recovery code') {
    super(message, 401);
  }
}

/** The project requires its members to use two-factor sign-in and this account has it off. */
export class TwoFactorSetupRequiredError extends AppError {
  override name = 'TwoFactorSetupRequired';
  override readonly code = 'CMS_TWO_FACTOR_SETUP_REQUIRED';
  constructor(message = 'This project requires two-factor authentication: turn it on for your account to continue') {
    super(message, 403);
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  override readonly code = 'CMS_NOT_FOUND';
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(message, 404, details);
  }
}

export class MethodNotAllowedError extends AppError {
  override name = 'MethodNotAllowedError';
  override readonly code = 'CMS_METHOD_NOT_ALLOWED';
  /** Methods the resource does accept, for the `Allow` header. */
  readonly allow: readonly string[];
  constructor(allow: readonly string[] = [], message = 'Method Not Allowed') {
    super(message, 405);
    this.allow = allow;
  }
}

export class PayloadTooLargeError extends AppError {
  override name = 'PayloadTooLargeError';
  override readonly code = 'CMS_PAYLOAD_TOO_LARGE';
  constructor(message = 'request entity too large', details: ErrorDetails = {}) {
    super(message, 413, details);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  override name = 'UnsupportedMediaTypeError';
  override readonly code = 'CMS_UNSUPPORTED_MEDIA_TYPE';
  constructor(message = 'Unsupported Media Type') {
    super(message, 415);
  }
}

export class UriTooLongError extends AppError {
  override name = 'URITooLongError';
  override readonly code = 'CMS_URI_TOO_LONG';
  constructor(message = 'URI Too Long') {
    super(message, 414);
  }
}

/** A quota as the `RateLimit-Limit` / `-Remaining` / `-Reset` headers state it (IETF httpapi draft). */
export interface RateLimitQuota {
  limit: number;
  remaining: number;
  /** Seconds until the quota starts again. */
  resetSeconds: number;
}

export class RateLimitError extends AppError {
  override name = 'RateLimitError';
  override readonly code = 'CMS_RATE_LIMIT';
  readonly retryAfterSeconds: number;
  /** The quota that was used up, sent as RateLimit-* headers with the 429. */
  readonly quota?: RateLimitQuota;
  constructor(retryAfterSeconds: number, message = 'Too many requests, please try again later.', quota?: RateLimitQuota) {
    super(message, 429);
    this.retryAfterSeconds = retryAfterSeconds;
    this.quota = quota;
  }
}

/** Requests refused by Node's HTTP parser before any route saw them (http-errors' names). */
export class BadRequestError extends AppError {
  override name = 'BadRequestError';
  override readonly code = 'CMS_BAD_REQUEST';
  constructor(message = 'Bad Request') {
    super(message, 400);
  }
}

export class RequestTimeoutError extends AppError {
  override name = 'RequestTimeoutError';
  override readonly code = 'CMS_REQUEST_TIMEOUT';
  constructor(message = 'Request Timeout') {
    super(message, 408);
  }
}

export class RequestHeaderFieldsTooLargeError extends AppError {
  override name = 'RequestHeaderFieldsTooLargeError';
  override readonly code = 'CMS_HEADERS_TOO_LARGE';
  constructor(message = 'Request Header Fields Too Large') {
    super(message, 431);
  }
}

export class HttpVersionNotSupportedError extends AppError {
  override name = 'HTTPVersionNotSupportedError';
  override readonly code = 'CMS_HTTP_VERSION_NOT_SUPPORTED';
  constructor(message = 'HTTP Version Not Supported') {
    super(message, 505);
  }
}

/** A feature this deployment does not provide (billing without Stripe configured). */
export class NotImplementedError extends AppError {
  override name = 'NotImplementedError';
  override readonly code = 'CMS_NOT_IMPLEMENTED';
  constructor(message = 'Not Implemented') {
    super(message, 501);
  }
}

/** A service the platform depends on (Stripe) failed or refused a request it had to make. */
export class BadGatewayError extends AppError {
  override name = 'BadGatewayError';
  override readonly code = 'CMS_BAD_GATEWAY';
  constructor(message = 'Bad Gateway') {
    super(message, 502);
  }
}

export class ServiceUnavailableError extends AppError {
  override name = 'ServiceUnavailableError';
  override readonly code = 'CMS_SERVICE_UNAVAILABLE';
  constructor(message = 'Service Unavailable') {
    super(message, 503);
  }
}

/**
 * A project's statements waited too long for its share of the database pool (it is running as
 * many at once as it may): retry after `retryAfterSeconds`. Other projects are not affected.
 */
export class ProjectBusyError extends AppError {
  override name = 'ServiceUnavailableError';
  override readonly code = 'CMS_PROJECT_BUSY';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds = 1, message = 'This project is running too many queries at once; please try again shortly.') {
    super(message, 503);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The client went away before its answer: its running queries were cancelled (nginx's 499; nobody reads it). */
export class ClientClosedRequestError extends AppError {
  override name = 'ClientClosedRequestError';
  override readonly code = 'CMS_CLIENT_CLOSED';
  constructor(message = 'Client Closed Request') {
    super(message, 499);
  }
}

export class InternalServerError extends AppError {
  override name = 'InternalServerError';
  override readonly code = 'CMS_INTERNAL';
  constructor(message = 'Internal Server Error') {
    super(message, 500);
  }
}
