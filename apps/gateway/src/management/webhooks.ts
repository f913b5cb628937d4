// A project's webhooks: CRUD (the signing secret is in the creation answer only), a test send,
// the delivery log and replay. Delivery itself is @cms/webhooks' (outbox, relay, queue).
import type { FastifyInstance } from 'fastify';
import { ApplicationError, NotFoundError, ValidationError, type FieldError } from '@cms/errors';
import { webhookRoutes as schemas } from '@cms/management-api';
import { isWebhookEvent, RESERVED_HEADERS, WEBHOOK_EVENTS, type Webhook, type WebhookEvent, type WebhookInput } from '@cms/webhooks';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

const ID = /^[1-9]\d{0,14}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const MAX_HEADERS = 20;
const KEYS = new Set(['name', 'url', 'events', 'headers', 'enabled']);
// The body is checked by parseWebhook, which names every broken field in its own words: the
// schema's verdict is attached (attachValidation) and left to it.
const PARSED_HERE = { attachValidation: true } as const;

const webhookJson = ({ id, name, url, events, headers, enabled, createdAt, updatedAt }: Webhook) =>
  ({ id, name, url, events, headers, enabled, createdAt, updatedAt });

/** The body of a create (every field but `headers`/`enabled` required) or of an update (any subset). */
function parseWebhook(body: unknown, partial: boolean): Partial<WebhookInput> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  const input = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const fail = (path: string[], message: string) => errors.push({ path, message, name: 'ValidationError' });
  const out: Partial<WebhookInput> = {};
  for (const key of Object.keys(input)) if (!KEYS.has(key)) fail([key], `Unknown key ${key}`.slice(0, 200));
  const present = (key: string) => input[key] !== undefined;

  if (present('name') || !partial) {
    const name = input.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100) fail(['name'], 'name must be a non-empty text of at most 100 characters');
    else out.name = name.trim();
  }
  if (present('url') || !partial) {
    const url = input.url;
    let parsed: URL | null = null;
    try {
      parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : null;
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) fail(['url'], 'url must be an http or https URL');
    else out.url = parsed.toString();
  }
  if (present('events') || !partial) {
    const events = input.events;
    if (!Array.isArray(events) || events.length === 0) fail(['events'], `events must be a non-empty list of: ${WEBHOOK_EVENTS.join(', ')}`);
    else {
      const bad = events.findIndex((e) => !isWebhookEvent(e));
      if (bad >= 0) fail(['events', String(bad)], `Unknown event; one of: ${WEBHOOK_EVENTS.join(', ')}`);
      else out.events = WEBHOOK_EVENTS.filter((e) => events.includes(e)) as WebhookEvent[];
    }
  }
  if (present('headers')) {
    const headers = input.headers;
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) fail(['headers'], 'headers must be an object of header names to values');
    else {
      const entries = Object.entries(headers as Record<string, unknown>);
      if (entries.length > MAX_HEADERS) fail(['headers'], `At most ${MAX_HEADERS} headers`);
      for (const [name, value] of entries.slice(0, MAX_HEADERS + 1)) {
        if (!HEADER_NAME.test(name)) fail(['headers', name.slice(0, 100)], 'Not a valid header name');
        else if (RESERVED_HEADERS.has(name.toLowerCase())) fail(['headers', name], `${name} is set by the platform`);
        else if (typeof value !== 'string' || value.length > 1000 || /[\r\n\0]/.test(value)) fail(['headers', name], 'A header value must be a single line of at most 1000 characters');
      }
      out.headers = headers as Record<string, string>;
    }
  } else if (!partial) {
    out.headers = {};
  }
  if (present('enabled')) {
    if (typeof input.enabled !== 'boolean') fail(['enabled'], 'enabled must be true or false');
    else out.enabled = input.enabled;
  } else if (!partial) {
    out.enabled = true;
  }
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);
  return out;
}

interface HookParams { slug: string; id: string }
interface DeliveryParams extends HookParams { deliveryId: string }

export async function webhookRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const store = platform.webhooks.store;
  // Every instance's writes check the project's subscriptions from memory: tell them all.
  const changed = (project: { id: number; slug: string }) => platform.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });

  /** The project's webhook named in the path, else 404 (also another project's). */
  async function hookOf(projectId: number, id: string): Promise<Webhook> {
    const hook = ID.test(id) ? await store.find(projectId, id) : null;
    if (!hook) throw new NotFoundError('Webhook not found');
    return hook;
  }

  app.post('/projects/:slug/webhooks', { schema: schemas.create, ...PARSED_HERE }, async (request, reply) => {
    const project = projectOf(request);
    const input = parseWebhook(request.body, false) as WebhookInput;
    const { webhook, secret } = await store.create(project.id, input);
    await changed(project);
    return reply.status(201).send({ webhook: webhookJson(webhook), secret });
  });

  app.get('/projects/:slug/webhooks', { schema: schemas.list }, async (request) => ({
    webhooks: (await store.list(projectOf(request).id)).map(webhookJson),
  }));

  app.get<{ Params: HookParams }>('/projects/:slug/webhooks/:id', { schema: schemas.get }, async (request) => ({
    webhook: webhookJson(await hookOf(projectOf(request).id, request.params.id)),
  }));

  app.put<{ Params: HookParams }>('/projects/:slug/webhooks/:id', { schema: schemas.update, ...PARSED_HERE }, async (request) => {
    const project = projectOf(request);
    await hookOf(project.id, request.params.id);
    const change = parseWebhook(request.body ?? {}, true);
    const webhook = await store.update(project.id, request.params.id, change);
    await changed(project);
    return { webhook: webhookJson(webhook) };
  });

  app.delete<{ Params: HookParams }>('/projects/:slug/webhooks/:id', { schema: schemas.remove }, async (request, reply) => {
    const project = projectOf(request);
    await hookOf(project.id, request.params.id);
    await store.remove(project.id, request.params.id);
    await changed(project);
    return reply.status(204).send();
  });

  // Sends a `trigger-test` event now (one attempt, no retries) and answers with its outcome.
  app.post<{ Params: HookParams }>('/projects/:slug/webhooks/:id/test', { schema: schemas.test }, async (request, reply) => {
    const project = projectOf(request);
    const hook = await hookOf(project.id, request.params.id);
    const delivery = await platform.webhooksOn(project.cluster).testSend(project.id, String(hook.id));
    return reply.status(202).send({ delivery });
  });

  app.get<{ Params: HookParams }>('/projects/:slug/webhooks/:id/deliveries', { schema: schemas.deliveries }, async (request) => {
    const project = projectOf(request);
    const hook = await hookOf(project.id, request.params.id);
    return { deliveries: await platform.webhooksOn(project.cluster).store.deliveries(project.id, String(hook.id)) };
  });

  app.post<{ Params: DeliveryParams }>('/projects/:slug/webhooks/:id/deliveries/:deliveryId/replay', { schema: schemas.replay }, async (request, reply) => {
    const project = projectOf(request);
    const hook = await hookOf(project.id, request.params.id);
    const deliveryId = request.params.deliveryId;
    // Deliveries are kept on the project's cluster, next to the changes that wrote them.
    const deliveries = platform.webhooksOn(project.cluster).store;
    const delivery = ID.test(deliveryId) ? await deliveries.delivery(project.id, String(hook.id), deliveryId) : null;
    if (!delivery) throw new NotFoundError('Delivery not found');
    if (delivery.status === 'pending') throw new ApplicationError('This delivery is on its way already', {}, 409);
    await deliveries.replay(project.id, String(hook.id), deliveryId);
    return reply.status(202).send({ delivery: await deliveries.delivery(project.id, String(hook.id), deliveryId) });
  });
}
