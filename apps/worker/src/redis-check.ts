// Redis's answer to PING on a connection of its own: the queues' connections are BullMQ's (blocked
// in BRPOPLPUSH-style waits much of the time), so a probe does not queue behind them.
import { once } from 'node:events';
import { Redis } from 'ioredis';

export interface RedisCheck {
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

export function redisCheck(url: string): RedisCheck {
  // No offline queue: while disconnected a PING fails at once instead of waiting for a reconnect.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName: 'cms-worker-health' });
  // Connection errors are what the probe reports; ioredis keeps reconnecting.
  client.on('error', () => {});
  return {
    async reachable() {
      // Just started or reconnecting: give the connection a moment before the PING fails at once.
      if (client.status !== 'ready') await once(client, 'ready', { signal: AbortSignal.timeout(1_000) }).catch(() => {});
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      client.disconnect();
    },
  };
}
