// Counters over fixed time windows, shared by every instance through Redis (one atomic script
// per hit) or kept in this process when there is no Redis (embedded mode: one instance).
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@cms/telemetry';

export interface WindowCount {
  /** The window's count after this addition. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
}

export interface WindowCounters {
  readonly kind: 'redis' | 'memory';
  /** Add `amount` to `key`'s count; a key's window starts at its first addition. */
  add(key: string, amount: number, windowMs: number): Promise<WindowCount>;
  /** Add `amount` to `key`'s count and restart its window: the count is forgotten `windowMs` after its last addition. */
  addSliding(key: string, amount: number, windowMs: number): Promise<WindowCount>;
  /** `key`'s count and the time left in its window, without adding (count 0 when it has none). */
  peek(key: string): Promise<WindowCount>;
  /** Forget `key`'s count. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryWindowCounters implements WindowCounters {
  readonly kind = 'memory' as const;
  // Bounded: an attacker cycling keys evicts old windows rather than growing memory. 200,000
  // windows counted as a size: `max` would allocate all 200,000 slots up front (5 MB, 9 MB with TTLs).
  private readonly windows = new LRUCache<string, { count: number; endsAt: number }>({ maxSize: 200_000, sizeCalculation: () => 1 });

  async add(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window, { ttl: windowMs });
    }
    window.count += amount;
    return { count: window.count, resetMs: window.endsAt - now };
  }

  async addSliding(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    const window = this.windows.get(key);
    const count = (window && window.endsAt > now ? window.count : 0) + amount;
    this.windows.set(key, { count, endsAt: now + windowMs }, { ttl: windowMs });
    return { count, resetMs: windowMs };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = Date.now();
    const window = this.windows.get(key);
    return window && window.endsAt > now ? { count: window.count, resetMs: window.endsAt - now } : { count: 0, resetMs: 0 };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

// INCRBY, start the window's expiry on its first addition, answer the count and time left.
const ADD_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {n, ttl}`;

// INCRBY and (re)start the expiry at every addition.
const ADD_SLIDING_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {n, tonumber(ARGV[2])}`;

// The count and time left, without changing either.
const PEEK_SCRIPT = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}`;

type ScriptedRedis = Redis & {
  windowAdd(key: string, amount: number, windowMs: number): Promise<[number, number]>;
  windowAddSliding(key: string, amount: number, windowMs: number): Promise<[number, number]>;
  windowPeek(key: string): Promise<[number, number]>;
};

// How often a Redis outage is logged while it lasts.
const OUTAGE_LOG_INTERVAL_MS = 10_000;

export class RedisWindowCounters implements WindowCounters {
  readonly kind = 'redis' as const;
  private readonly redis: ScriptedRedis;
  private lastOutageLog = 0;

  constructor(url: string, private readonly prefix: string, private readonly logger: Logger) {
    // A slow or absent Redis must not hold requests: commands time out and the limit is skipped.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 500, enableAutoPipelining: true }) as ScriptedRedis;
    this.redis.defineCommand('windowAdd', { numberOfKeys: 1, lua: ADD_SCRIPT });
    this.redis.defineCommand('windowAddSliding', { numberOfKeys: 1, lua: ADD_SLIDING_SCRIPT });
    this.redis.defineCommand('windowPeek', { numberOfKeys: 1, lua: PEEK_SCRIPT });
    this.redis.on('error', (err) => this.outage(err));
  }

  async add(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    try {
      const [count, resetMs] = await this.redis.windowAdd(this.prefix + key, amount, windowMs);
      return { count, resetMs };
    } catch (err) {
      // Fail open: a limiter outage must not take the API down with it.
      this.outage(err);
      return { count: 0, resetMs: windowMs };
    }
  }

  async addSliding(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    try {
      const [count, resetMs] = await this.redis.windowAddSliding(this.prefix + key, amount, windowMs);
      return { count, resetMs };
    } catch (err) {
      this.outage(err);
      return { count: 0, resetMs: windowMs };
    }
  }

  async peek(key: string): Promise<WindowCount> {
    try {
      const [count, resetMs] = await this.redis.windowPeek(this.prefix + key);
      return { count, resetMs: Math.max(0, resetMs) };
    } catch (err) {
      this.outage(err);
      return { count: 0, resetMs: 0 };
    }
  }

  async reset(key: string): Promise<void> {
    try {
      await this.redis.del(this.prefix + key);
    } catch (err) {
      this.outage(err);
    }
  }

  private outage(err: unknown): void {
    const now = Date.now();
    if (now - this.lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    this.lastOutageLog = now;
    this.logger.warn({ err }, 'rate limit counters unavailable; limits are not enforced until Redis is back');
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export function createWindowCounters(redisUrl: string | undefined, prefix: string, logger: Logger): WindowCounters {
  return redisUrl ? new RedisWindowCounters(redisUrl, `${prefix}limit:`, logger) : new MemoryWindowCounters();
}
