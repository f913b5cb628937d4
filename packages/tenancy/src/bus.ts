// Cross-instance notifications (cache invalidation). Redis pub/sub when REDIS_URL is set, an
// in-process emitter otherwise (one instance: nothing to tell).
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from '@cms/telemetry';

export type BusHandler = (message: string) => void;

export interface Bus {
  readonly kind: 'redis' | 'local';
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: BusHandler): Promise<void>;
  /** Liveness of the backing service (readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class LocalBus implements Bus {
  readonly kind = 'local' as const;
  private readonly emitter = new EventEmitter();
  async publish(channel: string, message: string): Promise<void> {
    this.emitter.emit(channel, message);
  }
  async subscribe(channel: string, handler: BusHandler): Promise<void> {
    this.emitter.on(channel, handler);
  }
  async ping(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, BusHandler[]>();

  constructor(url: string, private readonly logger: Logger, private readonly prefix = 'cms:') {
    const opts = { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false };
    this.pub = new Redis(url, opts);
    this.sub = new Redis(url, opts);
    for (const c of [this.pub, this.sub]) c.on('error', (err) => this.logger.warn({ err }, 'redis connection error'));
    this.sub.on('message', (channel: string, message: string) => {
      for (const h of this.handlers.get(channel) ?? []) {
        try {
          h(message);
        } catch (err) {
          this.logger.error({ err, channel }, 'bus handler failed');
        }
      }
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.pub.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<void> {
    const full = this.prefix + channel;
    const list = this.handlers.get(full);
    if (list) list.push(handler);
    else {
      this.handlers.set(full, [handler]);
      await this.sub.subscribe(full);
    }
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.pub.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.sub.disconnect();
    await this.pub.quit().catch(() => this.pub.disconnect());
  }
}

export function createBus(redisUrl: string | undefined, logger: Logger, prefix?: string): Bus {
  return redisUrl ? new RedisBus(redisUrl, logger, prefix) : new LocalBus();
}
