// A project's own content API (`/p/{slug}/api/…`, the REST API Strapi clients call) as the dashboard
// calls it: with a short-lived content access key that the management API mints for the signed-in
// member (`POST /v1/projects/{slug}/content-access`: full access for editors and owners, read-only
// for viewers). Keys are kept in memory only and renewed a minute before they expire.
import { createContentAccess, type ContentAccess } from './features/content/api/create-content-access.ts';
import { ApiError, readAnswer } from './lib/api-error.ts';

const keys = new Map<string, Promise<ContentAccess>>();
const RENEW_BEFORE_MS = 60_000;

/** The project's content access key (cached; renewed before it expires). */
export async function contentAccess(slug: string): Promise<ContentAccess> {
  const cached = keys.get(slug);
  if (cached) {
    const key = await cached.catch(() => null);
    if (key && Date.parse(key.expiresAt) - Date.now() > RENEW_BEFORE_MS) return key;
  }
  const fresh = createContentAccess(slug);
  keys.set(slug, fresh);
  fresh.catch(() => keys.delete(slug));
  return fresh;
}

/** Forget the project's key (after the member's role changed, or a 401). */
export function forgetContentAccess(slug: string): void {
  keys.delete(slug);
}

/** `/p/{slug}` + a path of the project (`/api/articles`, `/uploads/a.png`). */
export const projectPath = (slug: string, path: string) => `/p/${slug}${path}`;

/** A stored file's URL as the browser can load it: local storage answers under the project's prefix. */
export function fileUrl(slug: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : projectPath(slug, url);
}

/** The query string Strapi's REST API reads (`filters[title][$eq]=x`, `sort[0]=title:asc`, …). */
export function strapiQuery(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (prefix: string, value: unknown) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(prefix ? `${prefix}[${k}]` : k, v);
    } else {
      parts.push(`${encodeURIComponent(prefix).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`);
    }
  };
  add('', params);
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * Call the project's content API: `path` starts with `/api/` (query string included). JSON bodies
 * are sent as given; errors in Strapi's envelope become ApiError with their field `details`.
 */
export async function contentApi<T>(slug: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const send = async (key: ContentAccess) => {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${key.accessKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(projectPath(slug, path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'NetworkError', 'The platform could not be reached. Check your connection and try again.');
    }
  };
  let res = await send(await contentAccess(slug));
  if (res.status === 401) {
    // An expired or revoked key: one fresh key, then the answer stands.
    forgetContentAccess(slug);
    res = await send(await contentAccess(slug));
  }
  return readAnswer<T>(res);
}
