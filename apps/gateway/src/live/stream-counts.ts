// How many live streams a project holds open on every gateway together (its plan's limit counts
// them all). Each gateway reports its own count per project to Redis (a hash per project, one field
// per gateway with the time it was written) when it changes and every 10 s; a gateway that died
// stops refreshing its field, which is ignored 30 s later. Without Redis (one process), its own.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '@cms/telemetry';

const REFRESH_MS = 10_000;
const STALE_MS = 30_000;
const FLUSH_MS = 100;

export class StreamCounts {
  private readonly redis: Redis | null;
  private readonly instance = randomBytes(8).toString('base64url');
  private readonly local = new Map<number, number>();
  private readonly dirty = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly refreshTimer: NodeJS.Timeout | null;

  constructor(redisUrl: string | undefined, private readonly prefix: string, private readonly logger: Logger) {
    this.redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, enableAutoPipelining: true, lazyConnect: true }) : null;
    this.redis?.on('error', (err) => this.logger.debug({ err }, 'live stream counts: redis error'));
    this.refreshTimer = this.redis ? setInterval(() => {
      for (const projectId of this.local.keys()) this.dirty.add(projectId);
      void this.flush();
    }, REFRESH_MS) : null;
    this.refreshTimer?.unref();
  }

  private key(projectId: number): string {
    return `${this.prefix}live:streams:${projectId}`;
  }

  /** This gateway now holds `count` streams of the project. */
  report(projectId: number, count: number): void {
    if (count === 0) this.local.delete(projectId);
    else this.local.set(projectId, count);
    if (!this.redis) return;
    this.dirty.add(projectId);
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  private async flush(): Promise<void> {
    this.flushTimer = null;
    const redis = this.redis!;
    const projects = [...this.dirty];
    this.dirty.clear();
    try {
      for (const projectId of projects) {
        const count = this.local.get(projectId) ?? 0;
        if (count === 0) await redis.hdel(this.key(projectId), this.instance);
        else await redis.multi().hset(this.key(projectId), this.instance, `${count}:${Date.now()}`).pexpire(this.key(projectId), STALE_MS * 2).exec();
      }
    } catch (err) {
      this.logger.debug({ err }, 'live stream counts not reported');
    }
  }

  /** Streams of the project open on every gateway (this one's exact, the others' as last reported). */
  async total(projectId: number): Promise<number> {
    const own = this.local.get(projectId) ?? 0;
    if (!this.redis) return own;
    try {
      const fields = await this.redis.hgetall(this.key(projectId));
      let others = 0;
      for (const [instance, value] of Object.entries(fields)) {
        if (instance === this.instance) continue;
        const [count, at] = value.split(':').map(Number);
        if (Date.now() - at! < STALE_MS) others += count!;
      }
      return own + others;
    } catch {
      return own;
    }
  }

  async close(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (!this.redis) return;
    try {
      for (const projectId of this.local.keys()) await this.redis.hdel(this.key(projectId), this.instance);
    } catch {
      /* expires by itself */
    }
    this.redis.disconnect();
  }
}
