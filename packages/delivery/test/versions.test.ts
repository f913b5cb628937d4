// Content versions in Redis: shared by every gateway, moved on by a bump, never reused after the
// key is lost (a Redis restarted empty hands out a new token, not an old one); a project's stamp
// moves only with a change of the project itself.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { silentLogger } from '@cms/telemetry';
import { LocalContentVersions, RedisContentVersions } from '../src/index.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('content versions', () => {
  const prefix = `test:versions:${randomBytes(4).toString('hex')}:`;
  const a = new RedisContentVersions(REDIS_URL, prefix, silentLogger());
  const b = new RedisContentVersions(REDIS_URL, prefix, silentLogger());
  const admin = new Redis(REDIS_URL);
  const content = async (v: RedisContentVersions, id: number) => (await v.current(id, `p${id}`))?.content;
  after(async () => {
    await admin.del(`${prefix}cv:1`, `${prefix}cv:2`, `${prefix}rv:p1`);
    await Promise.all([a.close(), b.close(), admin.quit()]);
  });

  it('two gateways see one version per project; a bump on one is seen by the other', async () => {
    // Until their connections are ready, reads skip the cache (null) rather than wait.
    while ((await a.current(1, 'p1')) === null || (await b.current(1, 'p1')) === null) await new Promise((r) => setTimeout(r, 10));
    const first = await content(a, 1);
    assert.equal(typeof first, 'string');
    assert.equal(await content(b, 1), first);
    assert.notEqual(await content(b, 2), first);
    await b.bump(1);
    const second = await content(a, 1);
    assert.notEqual(second, first);
    assert.equal(await content(b, 1), second);
  });

  it('a content bump leaves the stamp; a change of the project moves both', async () => {
    const before = await a.current(1, 'p1');
    assert.equal(before?.stamp, await a.stampOf('p1'));
    await a.bump(1);
    const afterContent = await b.current(1, 'p1');
    assert.equal(afterContent?.stamp, before?.stamp);
    await a.bump(1, 'p1');
    const afterProject = await b.current(1, 'p1');
    assert.notEqual(afterProject?.stamp, before?.stamp);
    assert.equal(typeof afterProject?.stamp, 'string');
    assert.notEqual(afterProject?.content, afterContent?.content);
    assert.equal(await b.stampOf('p1'), afterProject?.stamp);
  });

  it('concurrent reads share round trips, and a read that starts after a bump always sees it', async () => {
    const before = await content(a, 1);
    let sent = 0;
    const mget = (a as unknown as { redis: Redis }).redis.mget.bind((a as unknown as { redis: Redis }).redis);
    (a as unknown as { redis: { mget: typeof mget } }).redis.mget = ((...args: Parameters<typeof mget>) => (sent++, mget(...args))) as typeof mget;
    const first = a.current(1, 'p1');
    const joined = Array.from({ length: 20 }, () => a.current(1, 'p1'));
    await b.bump(1);
    // Started after the bump: its answer comes from a read sent after it.
    const after = a.current(1, 'p1');
    assert.equal((await first)?.content, before);
    const seen = await after;
    assert.notEqual(seen?.content, before);
    assert.equal(seen?.content, await content(b, 1));
    await Promise.all(joined);
    assert.ok(sent <= 3, `${sent} reads for 22 lookups`);
  });

  it('a lost key (Redis restarted empty, expired) gives a token never used before', async () => {
    const seen = new Set([await content(a, 1)]);
    for (let i = 0; i < 5; i++) {
      await admin.del(`${prefix}cv:1`);
      const token = await content(b, 1);
      assert.ok(token && !seen.has(token));
      seen.add(token);
      assert.equal(await content(a, 1), token);
    }
  });

  it('without Redis: the version is unknown (reads skip the cache) and a failed bump is retried', async () => {
    const down = new RedisContentVersions('redis://127.0.0.1:1', prefix, silentLogger());
    try {
      assert.equal(await down.current(1, 'p1'), null);
      await assert.rejects(down.bump(1));
      // Until the bump reaches Redis, this gateway does not trust the project's version.
      assert.equal(await down.current(1, 'p1'), null);
      await assert.rejects(down.stampOf('p1'));
    } finally {
      await down.close();
    }
  });

  it('in one process: versions in memory', async () => {
    const local = new LocalContentVersions();
    const v = await local.current(1);
    assert.deepEqual(await local.current(1), v);
    await local.bump(1);
    assert.notEqual((await local.current(1))?.content, v?.content);
  });
});
