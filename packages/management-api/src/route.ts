// The schema of one `/v1` route, as fastify takes it (`schema:` of the route options) and as the
// OpenAPI document shows it. `defineRoute` only checks the shape: a tag of the document, a summary,
// responses (with the error envelope: `withErrors`).
import type { Tag } from './document.ts';

export interface RouteSchema {
  tags: readonly [Tag];
  /** A few words, as a title ("Create an API token"). */
  summary: string;
  /** What it does, who may call it, what it refuses; Markdown. */
  description?: string;
  /** `PUBLIC` for a route without a session; absent: a session is required (the document says so). */
  security?: ReadonlyArray<Record<string, readonly string[]>>;
  body?: object;
  /**
   * The body as the document shows it, for a route that checks its body by hand (its own error
   * messages): fastify does not validate with it, only the OpenAPI document shows it. A write
   * route that reads no body says so with `noBody()`.
   */
  docBody?: object;
  querystring?: object;
  headers?: object;
  params?: object;
  response: Record<string, object>;
}

export const defineRoute = <const S extends RouteSchema>(schema: S): S => schema;

/**
 * The `docBody` of a write route that reads no body: shown as an optional empty object. A route's
 * body schema that admits `null` is an optional body (fastify validates a missing body as null),
 * and the document says so (`requestBody.required: false`).
 */
export const noBody = (description = 'None: the route reads no body (one sent is ignored)') =>
  ({ type: ['object', 'null'], description }) as const;

/** A response without a body (204, or 202 when nothing is answered). */
export const noContent = (description: string) => ({ description, type: 'null' }) as const;
