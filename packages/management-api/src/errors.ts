// The error envelope of every `/v1` answer that is not a success, and the helper that adds it to a
// route's `response` map. Exactly the keys `toEnvelope` (@cms/errors) writes: with a response
// schema fastify serializes through it, so a key missing here would vanish from the answer.

/** `{data: null, error: {status, name, message, details}}`, Strapi's error envelope. */
export const ErrorEnvelope = {
  $id: 'ErrorEnvelope',
  description: "An error, in the content API's envelope (Strapi v5's)",
  type: 'object',
  required: ['data', 'error'],
  properties: {
    data: { type: 'null' },
    error: {
      type: 'object',
      required: ['status', 'name', 'message', 'details'],
      properties: {
        status: { type: 'integer', description: 'The HTTP status, again' },
        name: { type: 'string', description: 'The error class: `ValidationError`, `UnauthorizedError`, `ForbiddenError`, `NotFoundError`, `ApplicationError`, `RateLimitError`, `TwoFactorRequired`, …' },
        message: { type: 'string' },
        details: {
          type: 'object',
          additionalProperties: true,
          description: 'More about it: `errors: [{path, message, name}]` for a validation error, the limit and plan of a refused plan feature, …',
        },
      },
    },
  },
  examples: [{
    data: null,
    error: {
      status: 400, name: 'ValidationError', message: 'password must be at least 8 characters',
      details: { errors: [{ path: ['password'], message: 'password must be at least 8 characters', name: 'ValidationError' }] },
    },
  }],
} as const;

/** The 404 of every project route: a project the caller cannot see is not told apart from none. */
export const NO_PROJECT = 'No such project, or the caller is no member of it';

/** A reference to the envelope, as a response of `status` (fastify resolves it from `app.addSchema`). */
export const errorResponse = (description: string) => ({ description, $ref: 'ErrorEnvelope#' }) as const;

/** The error statuses a route may name with what they mean there; every other 4xx/5xx is the generic one. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

/**
 * A route's `response` map: its successes as given, the errors it names (status → what it means
 * on this route), and the envelope for any other 4xx and 5xx.
 *
 *     response: withErrors({ 200: { description: 'The account', ... } }, { 401: 'No valid session' })
 */
export function withErrors<S extends Record<number, object>>(success: S, errors: Partial<Record<ErrorStatus, string>> = {}) {
  const named: Record<string, ReturnType<typeof errorResponse>> = {};
  for (const [status, description] of Object.entries(errors)) named[status] = errorResponse(description as string);
  return {
    ...success,
    ...named,
    '4xx': errorResponse('Refused: the request is not valid, not allowed or too frequent'),
    '5xx': errorResponse('Failed, or unavailable for now (503: try again)'),
  };
}
