// Failed sign-ins: a capped exponential lockout per subject (an account, a client IP), over the
// shared window counters (Redis, or this process in embedded mode). A subject's failures are
// counted while each comes within `windowMs` of the previous one; from `threshold` failures on it
// is locked for `baseMs` after its last failure, twice as long with each further failure, never
// longer than `capMs` — so an attacker can slow a victim's sign-in down but never lock it out for
// long. While locked, credentials are not even checked: a right password gets the same 429.
import { RateLimitError } from '@cms/errors';
import type { WindowCounters } from './window-counters.ts';

export interface LockoutPolicy {
  threshold: number;
  baseMs: number;
  capMs: number;
  /** How long failures are remembered after the last one (at least `capMs`). */
  windowMs: number;
}

export const LOCKED_MESSAGE = 'Too many failed sign-ins, please try again later.';

/** How long `failures` consecutive failures lock a subject after the last one (0: not locked). */
export function lockDurationMs(policy: LockoutPolicy, failures: number): number {
  if (failures < policy.threshold) return 0;
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(failures - policy.threshold, 40));
}

export class Lockout {
  constructor(private readonly counters: WindowCounters, private readonly prefix: string, private readonly policy: LockoutPolicy) {}

  /**
   * Before credentials are checked: 429 `RateLimitError` while the subject is locked; otherwise
   * the attempt is counted as a failure at once — concurrent attempts see each other, so a burst
   * cannot slip past the threshold — until `release` or `clear` takes it back. Returns the
   * failures counted with this one.
   */
  async attempt(subject: string): Promise<number> {
    const key = this.prefix + subject;
    const before = await this.counters.peek(key);
    this.refuseWhileLocked(before.count, this.policy.windowMs - before.resetMs);
    const { count } = await this.counters.addSliding(key, 1, this.policy.windowMs);
    // Others counted attempts since the peek: they are in flight now, so the lock runs from now.
    if (count > before.count + 1 && lockDurationMs(this.policy, count - 1) > 0) {
      await this.release(subject);
      this.refuseWhileLocked(count - 1, 0);
    }
    return count;
  }

  /** The lock that `failures` failures start (0: none). */
  lockFor(failures: number): number {
    return lockDurationMs(this.policy, failures);
  }

  /** Take back one counted attempt (it was not a failed sign-in). */
  async release(subject: string): Promise<void> {
    await this.counters.addSliding(this.prefix + subject, -1, this.policy.windowMs);
  }

  /** Forget the subject's failures (a successful sign-in of the account). */
  async clear(subject: string): Promise<void> {
    await this.counters.reset(this.prefix + subject);
  }

  private refuseWhileLocked(failures: number, sinceLastMs: number): void {
    const left = lockDurationMs(this.policy, failures) - sinceLastMs;
    if (left > 0) throw new RateLimitError(Math.max(1, Math.ceil(left / 1000)), LOCKED_MESSAGE);
  }
}
