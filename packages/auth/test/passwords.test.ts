// Password checks cost the same whether or not the account exists (no user enumeration by
// timing), and secrets are only ever compared in constant time or by keyed hash lookups.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, verifyPassword } from '../src/index.ts';

async function medianMs(run: () => Promise<unknown>, times = 3): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

describe('verifyPassword', () => {
  it('accepts the right password only', async () => {
    const stored = await hashPassword('correct horse');
    assert.equal(await verifyPassword('correct horse', stored), true);
    assert.equal(await verifyPassword('correct horse ', stored), false);
    assert.equal(await verifyPassword('', stored), false);
    assert.equal(await verifyPassword('correct horse', 'not a hash'), false);
    assert.equal(await verifyPassword('correct horse', null), false);
  });

  it('an unknown account costs a full hash verification, like a wrong password', async () => {
    await verifyPassword('warm up', null);
    const unknown = await medianMs(() => verifyPassword('wrong password', null));
    // An argon2id verification takes tens of milliseconds; skipping it would take microseconds.
    // (Not a ratio against a wrong password: on a loaded machine that comparison is noise.)
    assert.ok(unknown >= 1, `unknown account ${unknown.toFixed(2)} ms`);
  });
});
