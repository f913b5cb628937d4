// Each project's content version: a token that changes after every committed change of what its
// content API answers (a write, a model, permission, token or settings change, a release, a
// schedule, an import, a restore). Answers kept in memory are reused only while the version they
// were computed under is still the current one, read from the shared store at the start of each
// read: after a change's bump returns, no read that starts later, on any gateway, reuses an older
// answer.
//
// Versions are random tokens, not counters: a Redis that restarted empty (or evicted the key)
// hands out a new token, never one an old answer was stored under.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '@cms/telemetry';

/** A project's state in the shared store. */
export interface VersionState {
  /** The content version: answers are reused only under the one they were computed under. */
  content: string;
  /**
   * The stamp of the project's last change of settings, model, roles or tokens (null: none
   * recorded): an in-memory copy of the project loaded under another stamp may be older.
   */
  stamp: string | null;
}

export interface ContentVersions {
  /** The project's state now, or null when it cannot be known (the shared store is down): answer without the cache. */
  current(projectId: number, slug: string): Promise<VersionState | null>;
  /** The stamp of a project (read before its in-memory copy is loaded). */
  stampOf(slug: string): Promise<string | null>;
  /**
   * A change of the project committed: a new version (and with `slug`, a new stamp: the project
   * itself changed, not only its content). Awaited before the change is answered; rejects when
   * the shared store cannot be told (it is retried meanwhile).
   */
  bump(projectId: number, slug?: string): Promise<void>;
  /**
   * `handler` runs when the shared store was unreachable: changes made meanwhile on other
   * gateways may not have reached it, so answers kept from before must be dropped.
   */
  onLost(handler: () => void): void;
  close(): Promise<void>;
}

const instance = randomBytes(6).toString('base64url');
let seq = 0;
/** A token no other bump, on any process, ever made. */
const newToken = (): string => `${instance}.${(++seq).toString(36)}`;

/** One process (no REDIS_URL): versions in memory. */
export class LocalContentVersions implements ContentVersions {
  private readonly tokens = new Map<number, string>();

  // One process: its copies of projects are dropped synchronously by their changes (no stamp needed).
  async current(projectId: number): Promise<VersionState | null> {
    let token = this.tokens.get(projectId);
    if (token === undefined) this.tokens.set(projectId, (token = newToken()));
    return { content: token, stamp: null };
  }

  async stampOf(): Promise<string | null> {
    return null;
  }

  async bump(projectId: number): Promise<void> {
    this.tokens.set(projectId, newToken());
  }

  onLost(): void {}

  async close(): Promise<void> {}
}

// A project's version outlives any cached answer by far; expiring lets dropped projects go.
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Versions in Redis, shared by every gateway: one GET per read (auto-pipelined: concurrent reads
 * share round trips), one SET per change.
 */
export class RedisContentVersions implements ContentVersions {
  private readonly redis: Redis;
  /** Projects whose bump failed: retried until Redis takes it; meanwhile their reads skip the cache here. */
  private readonly unbumped = new Map<number, string | undefined>();
  /** Projects (`id\nslug`) whose version is being read now, and the read waiting for it to return. */
  private readonly inflight = new Set<string>();
  private readonly next = new Map<string, { promise: Promise<VersionState | null>; resolve: (state: VersionState | null) => void }>();
  private retryTimer: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(url: string, private readonly prefix: string, private readonly logger: Logger) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
    this.redis.on('error', (err) => this.logger.debug({ err }, 'content versions: redis error'));
  }

  onLost(handler: () => void): void {
    this.redis.on('close', () => {
      if (!this.closing) handler();
    });
  }

  private key(projectId: number): string {
    return `${this.prefix}cv:${projectId}`;
  }

  private stampKey(slug: string): string {
    return `${this.prefix}rv:${slug}`;
  }

  async current(projectId: number, slug: string): Promise<VersionState | null> {
    // Fail fast: a read that cannot check its version now is answered from Postgres, not held
    // (a bump, on the contrary, waits for the connection: see the offline queue).
    if (this.unbumped.has(projectId) || this.redis.status !== 'ready') return null;
    // One read of a project's version in flight at a time: a request arriving meanwhile waits for
    // the next one, sent when it returns — sent after the request began, so it sees every change
    // answered before (concurrent reads of a busy project share one round trip).
    const key = `${projectId}\n${slug}`;
    if (!this.inflight.has(key)) return this.readNow(key, projectId, slug);
    let next = this.next.get(key);
    if (!next) {
      let resolve!: (state: VersionState | null) => void;
      next = { promise: new Promise((r) => (resolve = r)), resolve: (state) => resolve(state) };
      this.next.set(key, next);
    }
    return next.promise;
  }

  private async readNow(key: string, projectId: number, slug: string): Promise<VersionState | null> {
    this.inflight.add(key);
    try {
      return await this.read(projectId, slug);
    } finally {
      this.inflight.delete(key);
      const waiting = this.next.get(key);
      if (waiting) {
        this.next.delete(key);
        void this.readNow(key, projectId, slug).then(waiting.resolve);
      }
    }
  }

  private async read(projectId: number, slug: string): Promise<VersionState | null> {
    try {
      const [content, stamp] = await this.redis.mget(this.key(projectId), this.stampKey(slug));
      if (content) return { content, stamp: stamp ?? null };
      // Never set, expired, or Redis restarted empty: a fresh token (the first writer wins; `GET`
      // returns the token already there when another gateway was first).
      const fresh = newToken();
      const previous = await this.redis.set(this.key(projectId), fresh, 'EX', TTL_SECONDS, 'NX', 'GET');
      return { content: previous ?? fresh, stamp: stamp ?? null };
    } catch {
      return null;
    }
  }

  async stampOf(slug: string): Promise<string | null> {
    if (this.redis.status !== 'ready') throw new Error('redis is not connected');
    return this.redis.get(this.stampKey(slug));
  }

  private write(projectId: number, slug: string | undefined): Promise<unknown> {
    if (slug === undefined) return this.redis.set(this.key(projectId), newToken(), 'EX', TTL_SECONDS);
    return this.redis.multi().set(this.key(projectId), newToken(), 'EX', TTL_SECONDS).set(this.stampKey(slug), newToken(), 'EX', TTL_SECONDS).exec();
  }

  async bump(projectId: number, slug?: string): Promise<void> {
    try {
      await this.write(projectId, slug);
    } catch (err) {
      // The change is committed: it must reach Redis before any gateway trusts this project's
      // version again (the others drop their answers when they lose Redis, see onLost).
      this.unbumped.set(projectId, slug ?? this.unbumped.get(projectId));
      this.scheduleRetry();
      throw err;
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closing) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.retryBumps();
    }, 250);
    this.retryTimer.unref();
  }

  private async retryBumps(): Promise<void> {
    for (const [projectId, slug] of [...this.unbumped]) {
      try {
        await this.write(projectId, slug);
        this.unbumped.delete(projectId);
      } catch {
        break;
      }
    }
    if (this.unbumped.size > 0) this.scheduleRetry();
    else this.logger.info('content versions: the bumps Redis missed are recorded');
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export function createContentVersions(redisUrl: string | undefined, prefix: string, logger: Logger): ContentVersions {
  return redisUrl ? new RedisContentVersions(redisUrl, prefix, logger) : new LocalContentVersions();
}
