// A project set up through the management API, as a customer would, plus a client for its
// content API authenticated by an API token.
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.ts';
import { as, createProject, signup, type Session } from './management.ts';

export interface ContentClient {
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  del(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  raw(method: string, url: string, opts?: { payload?: string | object; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}

export interface ContentProject {
  slug: string;
  name: string;
  id: number;
  schema: string;
  /** the owner's session */
  owner: Session;
  /** the management API as the owner */
  admin: ReturnType<typeof as>;
  /** content API with a full-access token */
  api: ContentClient;
  /** content API with the given token (or anonymous with null) */
  client(token: string | null): ContentClient;
  /** a new API token of the given type */
  token(type: 'read-only' | 'full-access' | 'custom', permissions?: Record<string, string[]>): Promise<string>;
  setPublic(permissions: Record<string, string[]>): Promise<void>;
}

export async function setupContentProject(
  t: TestApp, model: { contentTypes: Record<string, unknown>; components: Record<string, unknown> }, locales: string[] = [],
): Promise<ContentProject> {
  const session = await signup(t);
  const admin = as(t, session);
  const name = 'Content tests';
  const project = await createProject(t, session, { name });
  const base = `/v1/projects/${project.slug}`;
  for (const code of locales) {
    const res = await admin.post(`${base}/locales`, { code });
    if (res.statusCode !== 201) throw new Error(`locale ${code}: ${res.statusCode} ${res.body}`);
  }
  const pushed = await admin.put(`${base}/schema`, model);
  if (pushed.statusCode !== 200) throw new Error(`schema push failed: ${pushed.statusCode} ${pushed.body}`);
  const token = async (type: string, permissions?: Record<string, string[]>) => {
    const res = await admin.post(`${base}/api-tokens`, { name: `${type}-${Math.random()}`, type, ...(permissions ? { permissions } : {}) });
    if (res.statusCode !== 201) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
    return res.json().accessKey as string;
  };
  const client = (key: string | null): ContentClient => {
    const raw = (method: string, url: string, opts: { payload?: string | object; headers?: Record<string, string> } = {}) =>
      t.inject({
        method: method as 'GET', url: `/p/${project.slug}${url}`, payload: opts.payload,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers },
      });
    return {
      raw,
      get: (url, headers) => raw('GET', url, { headers }),
      post: (url, payload, headers) => raw('POST', url, { payload: payload as object, headers }),
      put: (url, payload, headers) => raw('PUT', url, { payload: payload as object, headers }),
      del: (url, headers) => raw('DELETE', url, { headers }),
    };
  };
  return {
    slug: project.slug, name, id: project.id, schema: `t_${project.id}`, owner: session, admin,
    api: client(await token('full-access')),
    client,
    token,
    setPublic: async (permissions) => {
      const res = await admin.put(`${base}/roles/public/permissions`, { permissions });
      if (res.statusCode !== 200) throw new Error(`permissions failed: ${res.statusCode} ${res.body}`);
    },
  };
}
