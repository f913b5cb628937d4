// The management API as the dashboard calls it: the typed client generated from `/v1/openapi.json`
// (@cms/management-api/client), same-origin with the session cookie and the CSRF token echoed on
// changes. `unwrap` turns a call's `{data, error}` into the data or an ApiError (the envelope's
// name, message and field errors), which is what queries and mutations throw.
//
//   const { project } = await unwrap(client.GET('/v1/projects/{slug}', { params: { path: { slug } } }));
import { createManagementClient, type components, type paths } from '@cms/management-api/client';
import { ApiError, type FieldError } from './api-error.ts';

/** The schemas of the management API's document, by name: `Schemas['Project']`. */
export type Schemas = components['schemas'];

export type { AnswerOf } from '@cms/management-api/client';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The JSON body an operation takes: `RequestBody<'/v1/projects', 'post'>`. */
export type RequestBody<P extends keyof paths, M extends Method> =
  paths[P] extends { [K in M]: { requestBody?: { content: { 'application/json': infer B } } } } ? B : never;

function csrfToken(): string {
  const match = /(?:^|;\s*)cms_csrf=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : '';
}

export const client = createManagementClient('', { credentials: 'same-origin', csrfToken });

interface Envelope {
  error?: { name?: string; message?: string; details?: { errors?: FieldError[] } };
}

/**
 * A call's answer, or its refusal as ApiError (status 0 when the platform could not be reached).
 * A 204 answers `undefined`.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'NetworkError', 'The platform could not be reached. Check your connection and try again.');
  }
  const { data, error, response } = answer;
  if (!response.ok) {
    const body = (typeof error === 'object' && error !== null ? error : {}) as Envelope;
    throw new ApiError(response.status, body.error?.name ?? 'Error', body.error?.message ?? `Request failed (${response.status})`, body.error?.details ?? {});
  }
  return data as T;
}
