// Limits over the shared window counters: a plain "N per window" check, and requests per second
// served from leases so that a busy project does not cost a Redis round trip per request.
import { RateLimitError } from '@cms/errors';
import type { WindowCounters } from './window-counters.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

const retryAfterSeconds = (resetMs: number) => Math.max(1, Math.ceil(resetMs / 1000));

/** Count one hit of `key`; over `limit.max` in its window → 429 until the window ends. */
export async function hitLimit(counters: WindowCounters, key: string, limit: Limit): Promise<void> {
  const { count, resetMs } = await counters.add(key, 1, limit.windowMs);
  if (count > limit.max) throw new RateLimitError(retryAfterSeconds(resetMs));
}

// A lease is this share of a key's per-second limit.
const LEASE_SHARE = 10;

interface Lease {
  second: number;
  left: number;
  /** The shared counter said this second is used up. */
  exhausted: boolean;
  /** A lease request in flight: concurrent requests wait for it instead of each asking. */
  pending?: Promise<void>;
}

/**
 * Requests per second per key across every instance. An instance takes a lease of a tenth of
 * the limit from the shared counter and serves it locally, so it asks Redis about once per
 * lease, not once per request. Leases are of the current second only: nothing over the limit
 * is ever granted, and at most one lease per instance goes unused.
 */
export class LeasedRate {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly counters: WindowCounters) {}

  async take(key: string, perSecond: number): Promise<void> {
    for (;;) {
      const lease = this.current(key);
      if (lease.left > 0) {
        lease.left--;
        return;
      }
      if (lease.exhausted) throw new RateLimitError(1);
      lease.pending ??= this.extend(key, lease, perSecond).finally(() => (lease.pending = undefined));
      await lease.pending;
    }
  }

  private current(key: string): Lease {
    const second = Math.floor(Date.now() / 1000);
    let lease = this.leases.get(key);
    if (!lease || lease.second !== second) this.leases.set(key, (lease = { second, left: 0, exhausted: false }));
    return lease;
  }

  private async extend(key: string, lease: Lease, perSecond: number): Promise<void> {
    const size = Math.max(1, Math.ceil(perSecond / LEASE_SHARE));
    // One counter per second; it lives a little longer than its second so late adds still land in it.
    const { count } = await this.counters.add(`${key}:${lease.second}`, size, 2_000);
    const granted = Math.min(size, perSecond - (count - size));
    if (granted > 0) lease.left += granted;
    else lease.exhausted = true;
  }

  /** Forget leases of seconds gone by (called now and then; leases are tiny). */
  sweep(): void {
    const second = Math.floor(Date.now() / 1000);
    for (const [key, lease] of this.leases) if (lease.second < second && !lease.pending) this.leases.delete(key);
  }
}
