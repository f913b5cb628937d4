// The typed client of the management API (`/v1`): openapi-fetch over the types generated from the
// OpenAPI document (src/generated/, `make client`), so a call's path, parameters, body and answer
// are checked against the routes' own schemas. Browser-safe (fetch only): the dashboard signs in
// with its cookie and echoes the CSRF token, the CLI and scripts send the session token. Exported
// by the package's index and alone as `@cms/management-api/client` (without the route schemas).
//
//   const api = createManagementClient('https://cms.example.com', { token });
//   const { data, error } = await api.GET('/v1/projects/{slug}', { params: { path: { slug } } });
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './generated/v1.ts';

export type { components, operations, paths } from './generated/v1.ts';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The JSON a `/v1` operation answers with `status` (200 unless given): `AnswerOf<'/v1/projects', 'get'>`. */
export type AnswerOf<P extends keyof paths, M extends Method, S extends number = 200> =
  paths[P] extends { [K in M]: { responses: { [C in S]: { content: { 'application/json': infer T } } } } } ? T : never;

/** The client: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` of any `/v1` path, typed; `use` adds middleware. */
export type ManagementClient = Client<paths, 'application/json'>;

export interface ManagementClientOptions {
  /** A session token (`cms_s_…`, the `token` of `POST /v1/auth/login`), sent as `Authorization: Bearer …`. */
  token?: string;
  /**
   * With the session cookie (the dashboard): the CSRF token to echo as `x-csrf-token` on every
   * request that changes something; read at each request (a new sign-in changes it).
   */
  csrfToken?: () => string;
  /** Whether the cookie goes along (`same-origin` for the dashboard; fetch's default otherwise). */
  credentials?: ClientOptions['credentials'];
  /** Headers on every request (`accept: application/json` is there already). */
  headers?: Record<string, string>;
  /** Another fetch (tests, or one that turns refusals into exceptions). */
  fetch?: ClientOptions['fetch'];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A client of the platform at `baseUrl`, its origin (the document's paths start with `/v1`;
 * `''` for the same origin in a browser).
 */
export function createManagementClient(baseUrl: string, options: ManagementClientOptions = {}): ManagementClient {
  const client = createClient<paths, 'application/json'>({
    baseUrl,
    headers: {
      accept: 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const { csrfToken } = options;
  if (csrfToken) {
    client.use({
      onRequest({ request }) {
        if (!SAFE_METHODS.has(request.method)) request.headers.set('x-csrf-token', csrfToken());
        return request;
      },
    });
  }
  return client;
}
