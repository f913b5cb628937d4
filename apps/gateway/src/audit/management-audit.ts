// Every successful management write on a project (dashboard, CLI, API) becomes an entry of the
// project's audit log, from one `onSend` hook: the action from the route (@cms/audit
// `managementAction`), the signed-in account as actor, and as payload the route's ids and the
// names of the body's fields — values only for a few keys that are never secrets. Recorded before
// the answer is sent (a client that reads the log after its answer finds the entry); a failure to
// record is logged, never turned into an error of a change already made.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditSource, managementAction } from '@cms/audit';
import type { Platform } from '../platform.ts';
import '../management/request-context.ts';

/** Body keys whose values an entry keeps (names, roles, kinds: never secrets). */
const KEPT_VALUES = new Set(['name', 'email', 'role', 'type', 'plan', 'uid', 'contentType', 'documentId', 'locale', 'target', 'events', 'enabled']);
const PROJECT_ROUTE = /^\/v1\/projects\/:slug(?=\/|$)/;

/** The payload of a management write: its route ids, the body's field names, a few safe values. */
export function managementPayload(params: unknown, body: unknown): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  if (params !== null && typeof params === 'object') {
    for (const [key, value] of Object.entries(params)) if (key !== 'slug' && typeof value === 'string') payload[key] = value.slice(0, 200);
  }
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body).slice(0, 50);
    if (keys.length) payload.fields = keys;
    for (const key of keys) {
      const value = (body as Record<string, unknown>)[key];
      if (KEPT_VALUES.has(key) && (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number' || Array.isArray(value))) payload[key] = value;
    }
  }
  return payload;
}

export function registerManagementAudit(app: FastifyInstance, platform: Platform): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 300 || request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return payload;
    await recordWrite(platform, request, payload).catch((err: unknown) => request.log.error({ err }, 'could not record the audit entry'));
    return payload;
  });
}

async function recordWrite(platform: Platform, request: FastifyRequest, payload: unknown): Promise<void> {
  const url = request.routeOptions.url ?? '';
  const source = auditSource(request);
  const actor = { type: 'account' as const, id: request.accountId };
  // A new project: its log starts with its creation.
  if (url === '/v1/projects' && request.method === 'POST') {
    const created = projectOfAnswer(payload);
    if (!created) return;
    const project = await platform.projects.getForAccount(request.accountId, created.slug);
    await platform.audit.recordProject(project, { action: 'project.create', actor, ...source, payload: { name: project.name, slug: project.slug } });
    return;
  }
  const project = request.managedProject;
  if (!project || !PROJECT_ROUTE.test(url)) return;
  const action = managementAction(request.method, url.replace(PROJECT_ROUTE, ''));
  if (action === null) return;
  await platform.audit.recordProject(project, { action, actor, ...source, payload: managementPayload(request.params, request.body) });
}

function projectOfAnswer(payload: unknown): { slug: string } | null {
  if (typeof payload !== 'string') return null;
  try {
    const slug = (JSON.parse(payload) as { project?: { slug?: unknown } }).project?.slug;
    return typeof slug === 'string' ? { slug } : null;
  } catch {
    return null;
  }
}
