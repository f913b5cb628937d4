// The CLI's one HTTP client for the platform: the management API (`/v1`) and content APIs.
//
//   const api = createClient({ url: 'https://cms.example.com', token });
//   const { projects } = await dataOf(api.v1.GET('/v1/projects'));
//   await dataOf(api.v1.POST('/v1/projects', { body: { name: 'Blog' } }));
//
// `v1` is @cms/management-api's client, typed from the management API's OpenAPI document: paths,
// parameters, bodies and answers as the routes declare them. `get`, `post`, `put`, `patch`,
// `delete` take any path (the content APIs, routes of other answers).
// Paths are relative to `url` (the platform's origin). Each method sends and parses JSON
// (`undefined` for an empty body such as a 204) and throws `ApiError` for any non-2xx answer,
// carrying the server's error envelope `{data: null, error: {status, name, message, details}}`;
// a network failure is an `ApiError` with status 0. `request` is the general form (other
// headers, a raw body such as a multipart upload) for callers that need it; `upload` sends a
// stream of any size as it is read.
// main.ts prints an ApiError's message and exits 1 — commands just let it propagate.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { createManagementClient, type ManagementClient } from '@cms/management-api/client';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    override readonly name: string,
    message: string,
    readonly details: unknown = {},
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** The platform's origin, e.g. `http://127.0.0.1:1337` (a trailing slash is ignored). */
  url: string;
  /** A session token (`Authorization: Bearer …`), or an API token for content-API calls. */
  token?: string;
}

export interface RequestOptions {
  /** A JSON-serialisable body, or a raw body (then set its content-type in `headers`). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Client {
  readonly url: string;
  /** The management API, typed (`dataOf` unwraps an answer); a refusal or network failure throws ApiError as `request` does. */
  readonly v1: ManagementClient;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** `request` for an answer of any type (JSON Lines, a file…): its text and content type; non-2xx throws the same ApiError. */
  requestText(method: string, path: string, options?: RequestOptions): Promise<{ status: number; contentType: string; text: string }>;
  /**
   * Sends `body` as the request's body while it is read, never more than a few chunks of it in
   * memory (fetch reads a stream body ahead of the socket, up to all of it), and parses the answer
   * as `request` does.
   */
  upload<T = unknown>(method: string, path: string, body: Readable, headers?: Record<string, string>): Promise<T>;
  get<T = unknown>(path: string): Promise<T>;
  /** A GET whose answer is a file: its body as a stream and its length (null when not announced). */
  download(path: string): Promise<{ body: Readable; size: number | null }>;
  post<T = unknown>(path: string, body?: unknown): Promise<T>;
  put<T = unknown>(path: string, body?: unknown): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown): Promise<T>;
  delete<T = unknown>(path: string, body?: unknown): Promise<T>;
}

/** Bodies sent as they are (not JSON-encoded). */
function isRawBody(body: unknown): body is NonNullable<RequestInit['body']> {
  return typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer
    || body instanceof Blob || body instanceof FormData || body instanceof URLSearchParams
    || body instanceof ReadableStream;
}

/** The answer of a typed call (`api.v1.…`): a refusal was thrown already, as ApiError. */
export async function dataOf<T>(call: Promise<{ data?: T }>): Promise<T> {
  return (await call).data as T;
}

export function createClient(options: ClientOptions): Client {
  const url = options.url.replace(/\/+$/, '');

  /** fetch, a failure to reach the platform being an ApiError (status 0). */
  async function reach(input: string | Request, init?: RequestInit): Promise<Response> {
    try {
      return await fetch(input, init);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError(0, 'NetworkError', `Cannot reach ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    }
  }

  /** The typed client's fetch: its refusals and non-JSON answers are the ApiErrors of `request`. */
  async function checkedFetch(req: Request): Promise<Response> {
    const res = await reach(req);
    const text = await res.text();
    const path = req.url.startsWith(url) ? req.url.slice(url.length) : new URL(req.url).pathname;
    answer(req.method, path, res.status, res.statusText, text);
    // The body was read to check it: the answer again, for openapi-fetch to parse.
    return new Response(text === '' ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await send(method, path, options);
    return answer<T>(method, path, res.status, res.statusText, await res.text());
  }

  async function requestText(method: string, path: string, options: RequestOptions = {}) {
    const res = await send(method, path, options);
    const text = await res.text();
    if (!res.ok) answer(method, path, res.status, res.statusText, text);
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
  }

  async function send(method: string, path: string, { body, headers = {} }: RequestOptions): Promise<Response> {
    const init: RequestInit & { duplex?: 'half' } = { method, headers: { accept: 'application/json', ...headers } };
    if (options.token) (init.headers as Record<string, string>).authorization = `Bearer ${options.token}`;
    if (body !== undefined) {
      if (isRawBody(body)) {
        init.body = body;
        if (body instanceof ReadableStream) init.duplex = 'half';
      } else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
    }
    return reach(url + path, init);
  }

  /** An answer's JSON, or the ApiError it stands for. */
  function answer<T>(method: string, path: string, status: number, statusText: string, text: string): T {
    const ok = status >= 200 && status < 300;
    let json: unknown;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (!ok) {
      const error = (json as { error?: { name?: string; message?: string; details?: unknown } } | undefined)?.error;
      throw new ApiError(
        status,
        error?.name ?? 'HttpError',
        error?.message ?? `${method} ${path} answered ${status} ${statusText}`,
        error?.details ?? {},
      );
    }
    if (text && json === undefined) {
      throw new ApiError(status, 'InvalidResponse', `${method} ${path} did not answer JSON (is ${url} the platform's address?)`);
    }
    return json as T;
  }

  async function upload<T>(method: string, path: string, body: Readable, headers: Record<string, string> = {}): Promise<T> {
    const target = new URL(url + path);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method,
      headers: { accept: 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...headers },
    });
    const response = new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ res, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    // pipeline() waits for the socket to take each chunk before reading the next.
    let sent = false;
    const sending = pipeline(body, req).then(() => { sent = true; return null; }, (err: unknown) => err);
    let reply: { res: IncomingMessage; text: string };
    try {
      reply = await response;
    } catch (err) {
      body.destroy();
      const failure = await sending;
      // The body's own failure (a file that cannot be read) says more than the broken connection.
      if (failure instanceof Error && !('code' in failure)) throw failure;
      const e = err as NodeJS.ErrnoException;
      throw new ApiError(0, 'NetworkError', `Cannot reach ${url}: ${e.code ?? e.message}`);
    }
    // A refusal may come before the server has read the whole body: stop sending it.
    if (!sent) body.destroy();
    return answer<T>(method, path, reply.res.statusCode ?? 0, reply.res.statusMessage ?? '', reply.text);
  }

  async function download(path: string): Promise<{ body: Readable; size: number | null }> {
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    const res = await reach(url + path, { headers });
    if (!res.ok || !res.body) return answer('GET', path, res.status, res.statusText, await res.text());
    const length = res.headers.get('content-length');
    return { body: Readable.fromWeb(res.body as WebReadableStream), size: length === null ? null : Number(length) };
  }

  return {
    url,
    v1: createManagementClient(url, { token: options.token, fetch: checkedFetch }),
    request,
    requestText,
    upload,
    download,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, { body }),
    put: (path, body) => request('PUT', path, { body }),
    patch: (path, body) => request('PATCH', path, { body }),
    delete: (path, body) => request('DELETE', path, { body }),
  };
}
