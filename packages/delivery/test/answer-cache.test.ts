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
