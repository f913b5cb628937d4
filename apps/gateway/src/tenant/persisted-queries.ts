// Automatic persisted queries (APQ), Apollo's protocol as Apollo Server 4 answers it and Apollo
// Client's persisted-queries link speaks it: a request may send, instead of its query text, the
// text's SHA-256 in `extensions.persistedQuery` — `{"version":1,"sha256Hash":"<64 hex>"}`, on GET
// a JSON-encoded `extensions` parameter. An unknown hash answers `PersistedQueryNotFound` (HTTP
// 200, uncached), the client then sends hash and text once, and from then on the hash alone: a
// GraphQL read becomes a short GET a CDN may cache.
//
// The texts are kept per project (a hash registered in one project is never found through
// another): in Redis when there is one (`{REDIS_PREFIX}apq:{projectId}:{hash}`, shared by every
// gateway, expiring after `ttlSeconds` without use), behind a bounded LRU of this process; without
// Redis in the LRU alone. Redis failing is a miss (the client sends the text again), never an error.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { detached } from '@cms/db';
import type { Logger } from '@cms/telemetry';

export interface PersistedQueriesOptions {
  /** Redis shared by every gateway; none: this process's LRU only. */
  redisUrl?: string;
  /** Prepended to every Redis key (`REDIS_PREFIX`). */
  prefix: string;
  /** How long a stored text lives without being used. */
  ttlSeconds?: number;
  /** The largest text stored (UTF-8 bytes); a bigger one registered is refused (400). */
  maxQueryBytes?: number;
  /** The in-process LRU's bounds: entries and bytes of text. */
  memoryEntries?: number;
  memoryBytes?: number;
}

export const PERSISTED_QUERY_DEFAULTS = {
  ttlSeconds: 7 * 24 * 3600,
  maxQueryBytes: 100 * 1024,
  memoryEntries: 5000,
  memoryBytes: 32 * 1024 * 1024,
} as const;

/** A request the protocol refuses: the HTTP status, headers and the one GraphQL error to answer. */
export interface PersistedQueryRefusal {
  status: number;
  message: string;
  code: string;
  headers?: Record<string, string>;
}

/** The query text to run (`undefined` when the request has none), or the refusal to answer. */
export type PersistedQueryResolution = { ok: true; query: unknown } | { ok: false; refusal: PersistedQueryRefusal };

const badRequest = (message: string): PersistedQueryResolution => ({ ok: false, refusal: { status: 400, message, code: 'BAD_REQUEST' } });

// Apollo Server's answer to an unknown hash: 200 (a 400 or 500 makes Apollo Client turn APQ off)
// and not cacheable, since the same request succeeds once the client has registered the text.
const NOT_FOUND: PersistedQueryResolution = {
  ok: false,
  refusal: { status: 200, message: 'PersistedQueryNotFound', code: 'PERSISTED_QUERY_NOT_FOUND', headers: { 'cache-control': 'private, no-cache, must-revalidate' } },
};

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The hex SHA-256 of a query text, as Apollo Client computes it. */
export const queryHash = (query: string): string => createHash('sha256').update(query).digest('hex');

interface Entry {
  query: string;
  /** When its Redis key's expiry was last pushed back (ms). */
  touchedAt: number;
}

// How often a hit served by the LRU pushes back the Redis key's expiry, and a Redis outage is logged.
const TOUCH_INTERVAL_MS = 3600_000;
const OUTAGE_LOG_INTERVAL_MS = 10_000;

export class PersistedQueries {
  readonly kind: 'redis' | 'memory';
  private readonly ttlSeconds: number;
  readonly maxQueryBytes: number;
  private readonly memory: LRUCache<string, Entry>;
  private redis: Redis | null = null;
  private closed = false;
  private lastOutageLog = 0;

  constructor(private readonly options: PersistedQueriesOptions, private readonly logger: Logger) {
    this.kind = options.redisUrl ? 'redis' : 'memory';
    this.ttlSeconds = options.ttlSeconds ?? PERSISTED_QUERY_DEFAULTS.ttlSeconds;
    this.maxQueryBytes = options.maxQueryBytes ?? PERSISTED_QUERY_DEFAULTS.maxQueryBytes;
    this.memory = new LRUCache<string, Entry>({
      max: options.memoryEntries ?? PERSISTED_QUERY_DEFAULTS.memoryEntries,
      maxSize: options.memoryBytes ?? PERSISTED_QUERY_DEFAULTS.memoryBytes,
      sizeCalculation: (entry, key) => entry.query.length * 2 + key.length * 2 + 64,
      // Without Redis this is the store: a text unused for the TTL goes, as it would from Redis.
      ttl: this.ttlSeconds * 1000,
      updateAgeOnGet: true,
    });
  }

  /**
   * The query text of a request: its `query` when it carries no `persistedQuery` extension, the
   * stored text of a known hash, or its `query` once its hash is checked and the text stored.
   * `extensions` is the request's field as received (on GET, the JSON-encoded parameter).
   */
  async resolve(projectId: number, query: unknown, rawExtensions: unknown, fromQueryString: boolean): Promise<PersistedQueryResolution> {
    const extensions = extensionsOf(rawExtensions, fromQueryString);
    if (typeof extensions === 'string') return badRequest(extensions);
    const persisted = extensions?.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
    if (!persisted) return { ok: true, query };
    if (persisted.version !== 1) return badRequest('Unsupported persisted query version');
    const hash = persisted.sha256Hash;
    if (query === undefined || query === null) {
      const stored = typeof hash === 'string' && SHA256_HEX.test(hash) ? await this.get(projectId, hash) : undefined;
      return stored === undefined ? NOT_FOUND : { ok: true, query: stored };
    }
    if (typeof query !== 'string') return { ok: true, query };
    const bytes = Buffer.byteLength(query);
    if (bytes > this.maxQueryBytes) {
      return badRequest(`Persisted query too large: ${bytes} bytes, the limit is ${this.maxQueryBytes}. Send it without the persistedQuery extension.`);
    }
    // The hash must be the text's own: no text can be registered under another's hash.
    if (hash !== queryHash(query)) return badRequest('provided sha does not match query');
    await this.set(projectId, hash, query);
    return { ok: true, query };
  }

  /** The text stored under `hash` in the project (its expiry pushed back), if any. */
  async get(projectId: number, hash: string): Promise<string | undefined> {
    const key = `${projectId}:${hash}`;
    const entry = this.memory.get(key);
    const redis = this.client();
    if (entry) {
      if (redis && Date.now() - entry.touchedAt > TOUCH_INTERVAL_MS) {
        entry.touchedAt = Date.now();
        detached(() => redis.expire(this.redisKey(key), this.ttlSeconds)).catch((err: unknown) => this.outage(err));
      }
      return entry.query;
    }
    if (!redis) return undefined;
    try {
      const query = await detached(() => redis.getex(this.redisKey(key), 'EX', this.ttlSeconds));
      if (query === null) return undefined;
      this.memory.set(key, { query, touchedAt: Date.now() });
      return query;
    } catch (err) {
      this.outage(err);
      return undefined;
    }
  }

  /** Store `query` under `hash` in the project (the caller checked the hash). */
  async set(projectId: number, hash: string, query: string): Promise<void> {
    const key = `${projectId}:${hash}`;
    this.memory.set(key, { query, touchedAt: Date.now() });
    const redis = this.client();
    if (!redis) return;
    try {
      await detached(() => redis.set(this.redisKey(key), query, 'EX', this.ttlSeconds));
    } catch (err) {
      this.outage(err);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.memory.clear();
    const redis = this.redis;
    this.redis = null;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }

  private redisKey(key: string): string {
    return `${this.options.prefix}apq:${key}`;
  }

  /** The Redis connection, made on first use, outside the request that happens to need it first. */
  private client(): Redis | null {
    if (!this.options.redisUrl || this.closed) return null;
    this.redis ??= detached(() => {
      // A slow or absent Redis must not hold requests: commands time out and count as misses.
      const redis = new Redis(this.options.redisUrl!, { maxRetriesPerRequest: 1, commandTimeout: 500, enableAutoPipelining: true });
      redis.on('error', (err) => this.outage(err));
      return redis;
    });
    return this.redis;
  }

  private outage(err: unknown): void {
    const now = Date.now();
    if (now - this.lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog = now;
    this.logger.warn({ err }, 'persisted queries: Redis unavailable; hashes are looked up in this process only until it is back');
  }
}

/** `extensions` as an object (or absent), else the 400 message — Apollo Server's checks and texts. */
function extensionsOf(raw: unknown, fromQueryString: boolean): Record<string, unknown> | undefined | string {
  if (raw === undefined || raw === null) return undefined;
  let value = raw;
  if (fromQueryString) {
    if (Array.isArray(raw)) return "The 'extensions' search parameter may only be specified once.";
    if (typeof raw !== 'string') return 'The extensions search parameter should contain a JSON-encoded object.';
    try {
      value = JSON.parse(raw);
    } catch {
      return 'The extensions search parameter contains invalid JSON.';
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'The extensions search parameter should contain a JSON-encoded object.';
    return value as Record<string, unknown>;
  }
  if (typeof value === 'string') return '`extensions` in a POST body should be provided as an object, not a recursively JSON-encoded string.';
  if (typeof value !== 'object' || Array.isArray(value)) return '`extensions` in a POST body must be an object if provided.';
  return value as Record<string, unknown>;
}
