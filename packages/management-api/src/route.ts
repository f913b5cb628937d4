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
   * messages): fastify does not validate with it, only the OpenAPI document shows it (instead of
   * `body`, when there is one: `shownBody`). A write route that reads no body says so with `noBody()`.
   */
  docBody?: object;
  querystring?: object;
  /**
   * Query parameters as the document shows them, over `querystring`'s (or alone): their real
   * types (integers in range, enums, dates) where the handler reads the text itself and answers a
   * bad value in its own words (fastify coerces nothing here: an integer type would refuse every
   * value, in its words). Fastify never validates with these, only the OpenAPI document shows them.
   */
  docQuery?: Record<string, object>;
  headers?: object;
  params?: object;
  /**
   * Path parameters as the document shows them (an id the handler parses: `positiveId`); fastify
   * does not validate with them (a malformed id answers as the handler says). The path's other
   * parameters are shown as `params` has them, else as strings.
   */
  docParams?: Record<string, object>;
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

/**
 * An id in a path as the document shows it (`docParams`): a positive integer. The handler reads
 * the text (a malformed one names nothing: 404, or its 400); typed clients send a number.
 */
export const positiveId = (description?: string) =>
  ({ type: 'integer', minimum: 1, ...(description === undefined ? {} : { description }) }) as const;

/**
 * `page` and `pageSize` of a paged list as the document shows them (`docQuery`): integers from 1,
 * as the handler checks them (`page` up to 1,000,000, `pageSize` up to `maxSize`).
 */
export const pageQuery = (defaultSize: number, maxSize: number) => ({
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1, description: 'From 1 (default 1)' },
  pageSize: { type: 'integer', minimum: 1, maximum: maxSize, default: defaultSize, description: `Items per page, from 1 to ${maxSize} (default ${defaultSize})` },
}) as const;

/**
 * A request body as the document shows it (`docBody`) when fastify validates it with `body` but
 * the handler checks some of its properties itself, in its own words: `properties` typed there
 * (an enum, a `$ref`) replace the body's loose ones, only in the document.
 */
export const shownBody = <const B extends { properties: object }, const P extends Record<string, object>>(body: B, properties: P) =>
  ({ ...body, properties: { ...body.properties, ...properties } }) as const;

/** A response without a body (204, or 202 when nothing is answered). */
export const noContent = (description: string) => ({ description, type: 'null' }) as const;
