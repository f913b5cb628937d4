// The answer cache's rules: a hit needs the same project, key, version and owner objects; the byte
// budget and each project's share hold, least recently used first; a stale entry's memory goes
// at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerCache, strongEtag, type Answer } from '../src/index.ts';

const answer = (text: string): Answer => {
  const body = Buffer.from(text);
  return { body, etag: strongEtag(body), surrogateKeys: 'p:1' };
};
const tenant = {};
const runtime = {};
const owners = [tenant, runtime];
const KB = 1024;

describe('AnswerCache', () => {
  it('answers only the same project, key, version and owners', () => {
    const cache = new AnswerCache(1024 * KB);
    cache.set(1, 'k', 'v1', owners, answer('one'), 1024 * KB);
    assert.equal(cache.get(1, 'k', 'v1', owners)?.body.toString(), 'one');
    assert.equal(cache.get(2, 'k', 'v1', owners), undefined);
    assert.equal(cache.get(1, 'other', 'v1', owners), undefined);
    assert.equal(cache.get(1, 'k', 'v1', [tenant, {}]), undefined);
    // The owner mismatch dropped it: the next lookup misses even with the right objects.
    assert.equal(cache.get(1, 'k', 'v1', owners), undefined);
    cache.set(1, 'k', 'v1', owners, answer('one'), 1024 * KB);
    assert.equal(cache.get(1, 'k', 'v2', owners), undefined);
    assert.equal(cache.snapshot().entries, 0);
    assert.equal(cache.snapshot().bytes, 0);
    assert.deepEqual({ hits: cache.stats.hits, misses: cache.stats.misses }, { hits: 1, misses: 5 });
  });

  it('keeps within the budget, least recently used first', () => {
    const cache = new AnswerCache(10 * KB);
    const body = 'x'.repeat(2 * KB);
    for (let i = 0; i < 4; i++) cache.set(i, `k${i}`, 'v', owners, answer(body), 10 * KB);
    assert.equal(cache.snapshot().entries, 4);
    // Touch project 0: project 1 is now the least recently used.
    assert.ok(cache.get(0, 'k0', 'v', owners));
    cache.set(9, 'k9', 'v', owners, answer(body), 10 * KB);
    assert.ok(cache.snapshot().bytes <= 10 * KB);
    assert.equal(cache.snapshot().entries, 4);
    assert.equal(cache.get(1, 'k1', 'v', owners), undefined);
    assert.ok(cache.get(0, 'k0', 'v', owners));
    assert.ok(cache.get(9, 'k9', 'v', owners));
    assert.equal(cache.stats.evictions, 1);
  });

  it('a project past its share evicts its own answers, not the others\'', () => {
    const cache = new AnswerCache(100 * KB);
    const body = 'y'.repeat(4 * KB);
    cache.set(1, 'quiet', 'v', owners, answer(body), 10 * KB);
    for (let i = 0; i < 50; i++) cache.set(2, `busy${i}`, 'v', owners, answer(body), 10 * KB);
    assert.ok(cache.get(1, 'quiet', 'v', owners), 'the quiet project keeps its answer');
    assert.ok(cache.bytesOf(2) <= 10 * KB);
    assert.ok(cache.get(2, 'busy49', 'v', owners));
    assert.equal(cache.get(2, 'busy0', 'v', owners), undefined);
  });

  it('an answer bigger than the share is not kept; replacing a key keeps one entry', () => {
    const cache = new AnswerCache(100 * KB);
    cache.set(1, 'big', 'v', owners, answer('z'.repeat(20 * KB)), 10 * KB);
    assert.equal(cache.snapshot().entries, 0);
    cache.set(1, 'k', 'v1', owners, answer('a'), 10 * KB);
    cache.set(1, 'k', 'v2', owners, answer('b'), 10 * KB);
    assert.equal(cache.snapshot().entries, 1);
    assert.equal(cache.get(1, 'k', 'v2', owners)?.body.toString(), 'b');
  });

  it('drops a project, or everything; a budget of 0 keeps nothing', () => {
    const cache = new AnswerCache(100 * KB);
    cache.set(1, 'a', 'v', owners, answer('a'), 10 * KB);
    cache.set(2, 'b', 'v', owners, answer('b'), 10 * KB);
    cache.dropProject(1);
    assert.equal(cache.get(1, 'a', 'v', owners), undefined);
    assert.ok(cache.get(2, 'b', 'v', owners));
    cache.clear();
    assert.equal(cache.snapshot().entries, 0);
    const off = new AnswerCache(0);
    assert.equal(off.enabled, false);
    off.set(1, 'a', 'v', owners, answer('a'), 0);
    assert.equal(off.snapshot().entries, 0);
  });
});

describe('AnswerCache under random use', () => {
  it('keeps its totals, budget and shares exact through 20,000 random operations', () => {
    const cache = new AnswerCache(64 * KB);
    const share = 20 * KB;
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let i = 0; i < 20_000; i++) {
      const project = rand(6);
      const key = `k${rand(40)}`;
      const op = rand(10);
      if (op < 5) cache.set(project, key, 'v', owners, answer('x'.repeat(rand(6000))), share);
      else if (op < 9) cache.get(project, key, 'v', owners);
      else if (rand(20) === 0) cache.dropProject(project);
      const s = cache.snapshot();
      assert.ok(s.bytes <= 64 * KB && s.bytes >= 0, `bytes ${s.bytes}`);
      for (let p = 0; p < 6; p++) assert.ok(cache.bytesOf(p) <= share);
    }
    // Everything kept is found, and dropping every project empties the cache exactly.
    for (let p = 0; p < 6; p++) cache.dropProject(p);
    assert.deepEqual({ entries: cache.snapshot().entries, bytes: cache.snapshot().bytes }, { entries: 0, bytes: 0 });
  });

  it('a kept small answer does not hold Node\'s shared buffer pool', () => {
    const cache = new AnswerCache(64 * KB);
    const small = Buffer.from('{"data":1}');
    cache.set(1, 'k', 'v', owners, { body: small, etag: strongEtag(small), surrogateKeys: 'p:1' }, 64 * KB);
    const kept = cache.get(1, 'k', 'v', owners)!;
    assert.equal(kept.body.toString(), '{"data":1}');
    assert.equal(kept.body.buffer.byteLength, kept.body.length);
  });
});
