// The automatic persisted queries' store (apps/gateway/src/tenant/persisted-queries.ts) on its
// own: Apollo's protocol, per-project keys, the LRU's bounds, sharing through Redis, and a Redis
// outage answered as a miss (never an error).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { silentLogger, type Logger } from '@cms/telemetry';
import { PersistedQueries } from '../../apps/gateway/src/tenant/persisted-queries.ts';
import { TEST_REDIS_URL } from '../helpers/db.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const ext = (hash: string, version: unknown = 1) => ({ persistedQuery: { version, sha256Hash: hash } });

describe('PersistedQueries store', () => {
  const prefix = `test:apq-store-${process.pid}-${Date.now()}:`;
  const TEXT = '{ a }';
  const HASH = sha(TEXT);
  const register = (store: PersistedQueries, projectId: number, text = TEXT) => store.resolve(projectId, text, ext(sha(text)), false);
  const lookup = (store: PersistedQueries, projectId: number, hash = HASH) => store.resolve(projectId, undefined, JSON.stringify(ext(hash)), true);

  it('without Redis: this process only, per project, bounded', async () => {
    const store = new PersistedQueries({ prefix, memoryEntries: 2 }, silentLogger());
    assert.equal(store.kind, 'memory');
    assert.deepEqual(await lookup(store, 1), { ok: false, refusal: {
      status: 200, message: 'PersistedQueryNotFound', code: 'PERSISTED_QUERY_NOT_FOUND', headers: { 'cache-control': 'private, no-cache, must-revalidate' },
    } });
    assert.deepEqual(await register(store, 1), { ok: true, query: TEXT });
    assert.deepEqual(await lookup(store, 1), { ok: true, query: TEXT });
    assert.equal((await lookup(store, 2)).ok, false);
    await register(store, 1, '{ b }');
    await register(store, 1, '{ c }');
    assert.equal((await lookup(store, 1)).ok, false, 'the least recently used went');
    assert.deepEqual(await lookup(store, 1, sha('{ c }')), { ok: true, query: '{ c }' });
    assert.deepEqual(await store.resolve(1, '{ x }', undefined, false), { ok: true, query: '{ x }' });
    assert.deepEqual(await store.resolve(1, undefined, undefined, true), { ok: true, query: undefined });
    await store.close();
  });

  it("refuses what Apollo Server refuses, in Apollo's words", async () => {
    const store = new PersistedQueries({ prefix, maxQueryBytes: 10 }, silentLogger());
    const bad = (message: string) => ({ ok: false, refusal: { status: 400, message, code: 'BAD_REQUEST' } });
    assert.deepEqual(await store.resolve(1, TEXT, ext(sha('{ b }')), false), bad('provided sha does not match query'));
    assert.deepEqual(await store.resolve(1, TEXT, ext(HASH, 2), false), bad('Unsupported persisted query version'));
    assert.deepEqual(await store.resolve(1, undefined, { persistedQuery: true }, false), bad('Unsupported persisted query version'));
    assert.deepEqual(await store.resolve(1, '{ aaaaaaaaaa }', ext(sha('{ aaaaaaaaaa }')), false),
      bad('Persisted query too large: 14 bytes, the limit is 10. Send it without the persistedQuery extension.'));
    assert.deepEqual(await store.resolve(1, undefined, '{', true), bad('The extensions search parameter contains invalid JSON.'));
    assert.deepEqual(await store.resolve(1, undefined, '[]', true), bad('The extensions search parameter should contain a JSON-encoded object.'));
    assert.deepEqual(await store.resolve(1, undefined, ['{}', '{}'], true), bad("The 'extensions' search parameter may only be specified once."));
    assert.deepEqual(await store.resolve(1, undefined, '{}', false), bad('`extensions` in a POST body should be provided as an object, not a recursively JSON-encoded string.'));
    assert.deepEqual(await store.resolve(1, undefined, 3, false), bad('`extensions` in a POST body must be an object if provided.'));
    // Nothing was stored by a refused registration.
    assert.equal((await lookup(store, 1, sha('{ aaaaaaaaaa }'))).ok, false);
    await store.close();
  });

  it('with Redis: shared by two stores, TTL set', async () => {
    const one = new PersistedQueries({ redisUrl: TEST_REDIS_URL, prefix, ttlSeconds: 600 }, silentLogger());
    const two = new PersistedQueries({ redisUrl: TEST_REDIS_URL, prefix, ttlSeconds: 600 }, silentLogger());
    const redis = new Redis(TEST_REDIS_URL);
    try {
      assert.equal((await lookup(two, 7)).ok, false);
      await register(one, 7);
      assert.deepEqual(await lookup(two, 7), { ok: true, query: TEXT });
      assert.equal((await lookup(two, 8)).ok, false);
      const ttl = await redis.ttl(`${prefix}apq:7:${HASH}`);
      assert.ok(ttl > 590 && ttl <= 600, String(ttl));
    } finally {
      await redis.del(`${prefix}apq:7:${HASH}`);
      redis.disconnect();
      await one.close();
      await two.close();
    }
  });

  it('Redis down: a miss and a warning, never an error; registered texts still run', async () => {
    const warnings: unknown[] = [];
    const logger = { ...silentLogger(), warn: (...args: unknown[]) => void warnings.push(args) } as unknown as Logger;
    // Nothing listens on port 1.
    const store = new PersistedQueries({ redisUrl: 'redis://127.0.0.1:1', prefix }, logger);
    const started = Date.now();
    assert.equal((await lookup(store, 1)).ok, false);
    assert.deepEqual(await register(store, 1), { ok: true, query: TEXT });
    // Still known to this process.
    assert.deepEqual(await lookup(store, 1), { ok: true, query: TEXT });
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.ok(warnings.length >= 1);
    await store.close();
  });
});
