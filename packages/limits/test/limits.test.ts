// Window counters (in-process and real Redis) and the limits built on them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { RateLimitError } from '@cms/errors';
import { silentLogger } from '@cms/telemetry';
import { hitLimit, LeasedRate, lockDurationMs, Lockout, LOCKED_MESSAGE, MemoryWindowCounters, RedisWindowCounters, type WindowCounters } from '../src/index.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function refusal(promise: Promise<unknown>): Promise<RateLimitError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof RateLimitError, String(err));
    return err;
  }
  assert.fail('expected a RateLimitError');
}

for (const kind of ['memory', 'redis'] as const) {
  describe(`${kind} window counters`, () => {
    const prefix = `test:limits:${randomBytes(6).toString('hex')}:`;
    const counters: WindowCounters = kind === 'memory' ? new MemoryWindowCounters() : new RedisWindowCounters(REDIS_URL, prefix, silentLogger());
    after(() => counters.close());

    it('counts additions within a window and starts again after it', async () => {
      assert.equal((await counters.add('a', 1, 300)).count, 1);
      assert.equal((await counters.add('a', 2, 300)).count, 3);
      const { resetMs } = await counters.add('a', 0, 300);
      assert.ok(resetMs > 0 && resetMs <= 300, String(resetMs));
      assert.equal((await counters.add('b', 1, 300)).count, 1, 'keys are independent');
      await sleep(350);
      assert.equal((await counters.add('a', 1, 300)).count, 1);
    });

    it('hitLimit refuses the hit after max with the seconds left in the window', async () => {
      const limit = { max: 3, windowMs: 5_000 };
      for (let i = 0; i < 3; i++) await hitLimit(counters, 'login', limit);
      const err = await refusal(hitLimit(counters, 'login', limit));
      assert.equal(err.status, 429);
      assert.equal(err.message, 'Too many requests, please try again later.');
      assert.ok(err.retryAfterSeconds >= 1 && err.retryAfterSeconds <= 5, String(err.retryAfterSeconds));
      await hitLimit(counters, 'other', limit);
    });

    it('sliding counts restart their window at each addition; peek reads without adding; reset forgets', async () => {
      assert.deepEqual(await counters.peek('s'), { count: 0, resetMs: 0 });
      assert.equal((await counters.addSliding('s', 1, 300)).count, 1);
      await sleep(200);
      assert.equal((await counters.addSliding('s', 1, 300)).count, 2);
      await sleep(200);
      // 400 ms after the first addition, 200 after the last: still counted.
      const peeked = await counters.peek('s');
      assert.equal(peeked.count, 2);
      assert.ok(peeked.resetMs > 0 && peeked.resetMs <= 100, String(peeked.resetMs));
      assert.equal((await counters.addSliding('s', -1, 300)).count, 1);
      await counters.reset('s');
      assert.deepEqual(await counters.peek('s'), { count: 0, resetMs: 0 });
      await counters.addSliding('s', 1, 100);
      await sleep(150);
      assert.equal((await counters.peek('s')).count, 0);
    });

    it('the lockout: locked from the threshold for base × 2^(failures − threshold), capped; release and clear take attempts back', async () => {
      const lockout = new Lockout(counters, 'lock:', { threshold: 3, baseMs: 1000, capMs: 3000, windowMs: 10_000 });
      assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => lockDurationMs({ threshold: 3, baseMs: 1000, capMs: 3000, windowMs: 10_000 }, n)), [0, 0, 1000, 2000, 3000, 3000]);
      assert.equal(await lockout.attempt('a'), 1);
      await lockout.release('a');
      for (let i = 1; i <= 3; i++) assert.equal(await lockout.attempt('a'), i);
      const err = await refusal(lockout.attempt('a'));
      assert.deepEqual([err.message, err.retryAfterSeconds], [LOCKED_MESSAGE, 1]);
      assert.equal(lockout.lockFor(3), 1000);
      await lockout.attempt('b');
      await sleep(1050);
      assert.equal(await lockout.attempt('a'), 4);
      assert.equal((await refusal(lockout.attempt('a'))).retryAfterSeconds, 2);
      await lockout.clear('a');
      assert.equal(await lockout.attempt('a'), 1);
      // Concurrent attempts see each other: no more than the threshold get through.
      const burst = await Promise.allSettled(Array.from({ length: 10 }, () => lockout.attempt('c')));
      assert.equal(burst.filter((r) => r.status === 'fulfilled').length, 3);
      assert.equal((await counters.peek('lock:c')).count, 3);
    });

    it('leased rates never grant more than the limit per second, across instances', async () => {
      // Two limiters on one counter store act as two gateway instances.
      const a = new LeasedRate(counters);
      const b = new LeasedRate(counters);
      // Start at the beginning of a second so the whole burst falls in one.
      await sleep(1000 - (Date.now() % 1000) + 5);
      const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take('project:1', 20)));
      const granted = results.filter((r) => r.status === 'fulfilled').length;
      // Concurrent requests share lease requests, so the whole allowance is used and no more.
      assert.equal(granted, 20);
      for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as RateLimitError).retryAfterSeconds, 1);
      // The next second has a fresh allowance.
      await sleep(1000 - (Date.now() % 1000) + 5);
      await a.take('project:1', 20);
      a.sweep();
    });
  });
}

describe('Redis counters when Redis is unreachable', () => {
  it('fail open rather than failing requests', async () => {
    const counters = new RedisWindowCounters('redis://127.0.0.1:1', 'x:', silentLogger());
    try {
      await hitLimit(counters, 'k', { max: 0, windowMs: 1000 });
    } finally {
      await counters.close();
    }
  });
});
