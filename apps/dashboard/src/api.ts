import type { StoredModel } from './model/schema.ts';

// The management API as the dashboard calls it: same-origin requests with the session cookie,
// the CSRF token echoed on changes, and errors in the platform's envelope turned into ApiError.

export interface FieldError {
  path: string[];
  message: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly errorName: string, message: string, readonly details: { errors?: FieldError[] } = {}) {
    super(message);
  }

  /** Field errors by their first path segment (for forms); empty when the error is not about fields. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.details.errors ?? []) {
      const key = e.path.join('.');
      if (key && !(key in out)) out[key] = e.message;
    }
    return out;
  }
}

/**
 * Show a failed call on a form: the API's field errors next to their fields when it names
 * any, anything else (with `fallback` for what is not an Error) as one message.
 */
export function reportFormError(err: unknown, setFieldErrors: (errors: Record<string, string>) => void, showMessage: (message: string) => void, fallback: string): void {
  const fields = err instanceof ApiError ? err.fieldErrors() : {};
  if (Object.keys(fields).length) setFieldErrors(fields);
  else showMessage(err instanceof Error ? err.message : fallback);
}

function csrfToken(): string {
  const match = /(?:^|;\s*)cms_csrf=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : '';
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NetworkError', 'The platform could not be reached. Check your connection and try again.');
  }
  return readAnswer<T>(res);
}

/** A fetch answer as JSON, or its error envelope (`{error: {name, message, details}}`) as ApiError. */
export async function readAnswer<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below
  }
  if (!res.ok) {
    const error = (json as { error?: { name?: string; message?: string; details?: { errors?: FieldError[] } } } | null)?.error;
    throw new ApiError(res.status, error?.name ?? 'Error', error?.message ?? `Request failed (${res.status})`, error?.details ?? {});
  }
  return json as T;
}

export interface Account {
  id: number;
  email: string;
  name: string | null;
  emailVerified: boolean;
  /** Two-factor sign-in is on (Account page). */
  twoFactorEnabled: boolean;
}

/** A member's role in a project: what it may change (see the Team page). */
export type ProjectRole = 'owner' | 'editor' | 'viewer';

export interface Project {
  id: number;
  slug: string;
  name: string;
  defaultLocale: string;
  apiUrl: string;
  graphqlUrl: string;
  plan: string;
  createdAt: string;
  /** The signed-in account's role in the project. */
  role: ProjectRole;
}

export interface Member {
  accountId: number;
  email: string;
  name: string | null;
  role: ProjectRole;
  createdAt: string;
}

export interface Invitation {
  id: number;
  email: string;
  role: ProjectRole;
  createdAt: string;
  expiresAt: string;
}

export interface SessionInfo {
  id: number;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
  /** A human label parsed from the user agent ("Chrome 120 on macOS"). */
  device: string;
  /** The client IP at sign-in, and of the last use. */
  ip: string | null;
  lastSeenIp: string | null;
  current: boolean;
}

export interface Usage {
  period: string;
  requests: number;
  storageBytes: number;
  historyBytes: number;
  documents: number;
}

export interface ApiTokenInfo {
  id: number;
  name: string;
  type: 'read-only' | 'full-access' | 'custom';
  permissions: Record<string, string[]>;
  expiresAt: string | null;
  createdAt: string;
  description?: string;
  lastUsedAt?: string | null;
}

export interface Locale {
  code: string;
  name: string;
  isDefault: boolean;
}

export interface RoleInfo {
  type: string;
  name: string;
  permissions: Record<string, string[]>;
}

/** A project's model as GET /v1/projects/{slug}/schema answers it. */
export type ProjectSchema = StoredModel;
