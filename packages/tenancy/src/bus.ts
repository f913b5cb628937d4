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
  /**
   * Whether messages are being received now. While false, other instances' messages may be
   * missed: holders of cached state must not trust it for long (registry.ts).
   */
  readonly connected: boolean;
  /** Called when the connection is back after being lost: messages sent meanwhile were missed. */
  onReconnect(handler: () => void): void;
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
  readonly connected = true;
  onReconnect(): void {}
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, BusHandler[]>();
  private readonly reconnectHandlers: (() => void)[] = [];
  /** Set when the subscriber connection dropped; cleared once it is subscribed again. */
  private lost = false;
  private closing = false;

  constructor(url: string, private readonly logger: Logger, private readonly prefix = 'cms:') {
    const opts = { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false };
    this.pub = new Redis(url, opts);
    this.sub = new Redis(url, { ...opts, autoResubscribe: false });
    for (const c of [this.pub, this.sub]) c.on('error', (err) => this.logger.warn({ err }, 'redis connection error'));
    this.sub.on('close', () => {
      if (!this.closing && !this.lost) this.logger.warn('bus disconnected: caches are reloaded every second until it is back');
      this.lost = true;
    });
    this.sub.on('ready', () => {
      if (this.lost && !this.closing) void this.resubscribe();
    });
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

  get connected(): boolean {
    return !this.lost && this.sub.status === 'ready';
  }

  onReconnect(handler: () => void): void {
    this.reconnectHandlers.push(handler);
  }

  /**
   * Subscribed again (ours, not ioredis's automatic one, so we know when it is done): from here
   * on nothing is missed, and what may have been is handled by the reconnect handlers.
   */
  private async resubscribe(): Promise<void> {
    try {
      if (this.handlers.size > 0) await this.sub.subscribe(...this.handlers.keys());
    } catch (err) {
      this.logger.warn({ err }, 'bus resubscription failed');
      return; // the next 'ready' tries again
    }
    this.lost = false;
    this.logger.info('bus reconnected');
    for (const h of this.reconnectHandlers) {
      try {
        h();
      } catch (err) {
        this.logger.error({ err }, 'bus reconnect handler failed');
      }
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.sub.disconnect();
    await this.pub.quit().catch(() => this.pub.disconnect());
  }
}

export function createBus(redisUrl: string | undefined, logger: Logger, prefix?: string): Bus {
  return redisUrl ? new RedisBus(redisUrl, logger, prefix) : new LocalBus();
}
