// The answer cache's bookkeeping alone (not part of `make bench`): µs per hit on one hot key and
// per insert that evicts, with the cache holding 1,000 to 100,000 answers of 600 bytes in one
// project (a findOne's size), in this process.
//   node --import tsx test/bench/answer-cache-lru.ts
import { AnswerCache } from '@cms/delivery';

const BODY = Buffer.alloc(600, 97);
const ANSWER = { body: BODY, etag: '"x"', surrogateKeys: 'p:1' };
const OWNERS = [{}, {}];
const OPS = 100_000;

process.stdout.write('| answers held | hit on one hot key µs | insert with eviction µs |\n|---|---|---|\n');
for (const entries of [1_000, 5_000, 20_000, 100_000]) {
  const key = (i: number) => `rest\npublic\n5\n/p/bench/api/articles/${i}`;
  const cache = new AnswerCache(entries * (BODY.length + key(0).length * 2 + 240));
  let i = 0;
  for (; i < entries * 1.2; i++) cache.set(1, key(i), 'v', OWNERS, ANSWER, Infinity);
  const hot = key(i - 1);
  let started = performance.now();
  for (let k = 0; k < OPS; k++) if (!cache.get(1, hot, 'v', OWNERS)) throw new Error('a miss');
  const hit = ((performance.now() - started) * 1000) / OPS;
  started = performance.now();
  for (let k = 0; k < OPS; k++, i++) cache.set(1, key(i), 'v', OWNERS, ANSWER, Infinity);
  const insert = ((performance.now() - started) * 1000) / OPS;
  process.stdout.write(`| ${cache.snapshot().entries.toLocaleString('en-US')} | ${hit.toFixed(2)} | ${insert.toFixed(2)} |\n`);
}
