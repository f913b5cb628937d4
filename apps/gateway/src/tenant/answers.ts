// How a content read is answered (docs/delivery.md): from the gateway's answer cache when the
// same read was answered at the project's current content version with the same project and
// model in memory, else computed; either way with a strong ETag (`If-None-Match` → 304), the
// Cache-Control of the caller's class and the Surrogate-Key of what the answer holds.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits, strongEtag, surrogateKeysOf, type Answer } from '@cms/delivery';
import { StaleProjectError } from '@cms/errors';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import { deliverySettingsOf } from '../delivery-settings.ts';
import { setServerTiming } from '../http/server-timing.ts';
import type { Platform } from '../platform.ts';

/**
 * Who may keep an answer: `public` (the public role reading published content: CDNs too),
 * `private` (a token, a JWT, a dashboard key: the caller's own cache, revalidated), `draft`
 * (drafts, release previews: nobody).
 */
export type DeliveryClass = 'public' | 'private' | 'draft';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the caller is resolved (access.ts), raised to `draft` by a draft read. */
    deliveryClass: DeliveryClass | null;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
// A kept answer was neither planned nor run.
const HIT_TIMING = 'plan;dur=0, db;dur=0, cache;desc="hit"';
const PRIVATE = 'private, no-cache';
const NO_STORE = 'private, no-store';
// A public answer differs by these request headers (the v4 response format; a credential makes
// it another class).
const VARY = 'Authorization, Strapi-Response-Format';

/** The `Cache-Control` of an answer to this request. */
export function cacheControlOf(request: FastifyRequest): string {
  switch (request.deliveryClass) {
    case 'public':
      return deliverySettingsOf(request.tenant?.project.settings).cacheControl;
    case 'draft':
      return NO_STORE;
    default:
      return PRIVATE;
  }
}

/** What a read needs to be filed and found: the objects its answer was computed with. */
export interface ReadOwners {
  tenant: TenantEntry;
  runtime: ProjectRuntime;
}

/** A computed answer: its JSON text and the content types it read (for the surrogate keys). */
export interface Computed {
  body: string;
  uids: Iterable<string>;
}

export type CacheOutcome = 'hit' | 'miss' | 'bypass';

/**
 * The project's content version to file or find `key` under, or null when the answer is not kept
 * (no key, the cache or the project's setting off, the shared version unknown).
 */
export async function answerVersion(request: FastifyRequest, platform: Platform, owners: ReadOwners, key: string | null): Promise<string | null> {
  const project = owners.tenant.project;
  if (key === null || !platform.delivery.answers.enabled || !deliverySettingsOf(project.settings).answerCache) return null;
  const state = await platform.delivery.versions.current(project.id, project.slug);
  if (state === null) return null;
  // The project changed on another gateway (its settings, model, roles or tokens) and this one has
  // not heard yet: the request runs again on a fresh copy (tenant/index.ts), so that no read after
  // the change's answer sees the project as it was.
  if (state.stamp !== (owners.tenant.stamp ?? null)) {
    if (!request.rerunOnFreshModel) throw new StaleProjectError();
    return null; // changed again meanwhile: answered as it is, not kept
  }
  return state.content;
}

/** The answer kept for `key` at `version`, computed with these same objects. */
export function keptAnswer(platform: Platform, owners: ReadOwners, key: string, version: string): Answer | undefined {
  return platform.delivery.answers.get(owners.tenant.project.id, key, version, [owners.tenant, owners.runtime]);
}

/** Keep `answer`, computed after `version` was read, within the project's share. */
export function keepAnswer(platform: Platform, owners: ReadOwners, key: string, version: string, answer: Answer): void {
  const project = owners.tenant.project;
  platform.delivery.answers.set(project.id, key, version, [owners.tenant, owners.runtime], answer, platform.delivery.shareOf(project));
}

/**
 * Answer a read: `key` names it within the project (route, query, credential class — null: never
 * kept); `compute` makes the answer when none is kept (errors propagate: 404s and the like are
 * never kept).
 */
export async function deliverRead(
  request: FastifyRequest, reply: FastifyReply, platform: Platform, owners: ReadOwners, key: string | null, compute: () => Promise<Computed>,
): Promise<FastifyReply> {
  // Read before the answer is computed: an answer filed under it can only be older than a change
  // that moved the version on after this point.
  const version = await answerVersion(request, platform, owners, key);
  if (version !== null) {
    const kept = keptAnswer(platform, owners, key!, version);
    if (kept) return sendAnswer(request, reply, kept, 'hit');
  }
  const answer = answerOf(owners.tenant.project.id, await compute());
  if (version !== null) keepAnswer(platform, owners, key!, version, answer);
  return sendAnswer(request, reply, answer, version !== null ? 'miss' : 'bypass');
}

export function answerOf(projectId: number, computed: Computed): Answer {
  const body = Buffer.from(computed.body);
  return { body, etag: strongEtag(body), surrogateKeys: surrogateKeysOf(projectId, computed.uids, computed.body) };
}

/**
 * A 200 JSON answer with its delivery headers, or 304 when the client's copy is current. The
 * answer to a POST (a GraphQL query) is nobody's to keep: no validators, no caching headers.
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer, outcome: CacheOutcome): FastifyReply {
  if (outcome === 'hit') reply.header('server-timing', HIT_TIMING);
  else setServerTiming(request, reply);
  reply.header('x-answer-cache', outcome);
  if (request.method === 'POST') return reply.status(200).type(JSON_TYPE).send(answer.body);
  reply.header('etag', answer.etag);
  reply.header('cache-control', cacheControlOf(request));
  reply.header('surrogate-key', answer.surrogateKeys);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, ${VARY}` : VARY);
  if (ifNoneMatchHits(request.headers['if-none-match'], answer.etag)) return reply.status(304).send();
  return reply.status(200).type(JSON_TYPE).send(answer.body);
}
