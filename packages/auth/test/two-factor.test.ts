// Two-factor building blocks without a database: TOTP as RFC 6238 defines it (SHA-1, 6 digits,
// 30-second steps), one step of drift, replay refusal by step, recovery code normalisation, and the
// sealed (encrypted) secrets.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { generate } from 'otplib';
import { deriveKey, normaliseRecoveryCode, seal, totpStep, unseal } from '../src/index.ts';

// RFC 6238 appendix B's SHA-1 seed "12345678901234567890" in Base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
// Appendix B (8 digits): 94287082 at 59 s, 07081804 at 1111111109 s, 89005924 at 1234567890 s.
const T = 1_111_111_109;

describe('totpStep', () => {
  it('accepts the RFC 6238 test vectors, truncated to 6 digits', async () => {
    assert.equal(await totpStep(RFC_SECRET, '287082', 0, 59), 1);
    assert.equal(await totpStep(RFC_SECRET, '081804', 0, T), Math.floor(T / 30));
    assert.equal(await totpStep(RFC_SECRET, '005924', 0, 1_234_567_890), Math.floor(1_234_567_890 / 30));
  });

  it('allows one step of drift either way, not two', async () => {
    const epoch = 1_800_000_000 + 15;
    const step = Math.floor(epoch / 30);
    const at = (offset: number) => generate({ secret: RFC_SECRET, epoch: epoch + offset * 30 });
    assert.equal(await totpStep(RFC_SECRET, await at(-1), 0, epoch), step - 1);
    assert.equal(await totpStep(RFC_SECRET, await at(0), 0, epoch), step);
    assert.equal(await totpStep(RFC_SECRET, await at(1), 0, epoch), step + 1);
    assert.equal(await totpStep(RFC_SECRET, await at(-2), 0, epoch), null);
    assert.equal(await totpStep(RFC_SECRET, await at(2), 0, epoch), null);
  });

  it('refuses a code of the last accepted step or an earlier one (replay)', async () => {
    const epoch = 1_800_000_000;
    const step = Math.floor(epoch / 30);
    const code = await generate({ secret: RFC_SECRET, epoch });
    assert.equal(await totpStep(RFC_SECRET, code, step - 1, epoch), step);
    assert.equal(await totpStep(RFC_SECRET, code, step, epoch), null);
    assert.equal(await totpStep(RFC_SECRET, code, step + 1, epoch), null);
  });

  it('answers null (never throws) for anything but six digits', async () => {
    for (const code of ['', '12345', '1234567', 'abcdef', '12 345', '١٢٣٤٥٦', '123456\n']) {
      assert.equal(await totpStep(RFC_SECRET, code, 0, 59), null, JSON.stringify(code));
    }
  });
});

describe('normaliseRecoveryCode', () => {
  it('ignores case, dashes and spaces', () => {
    assert.equal(normaliseRecoveryCode('ABCDE-fgh23'), 'abcdefgh23');
    assert.equal(normaliseRecoveryCode(' abcde fgh23 '), 'abcdefgh23');
  });
});

describe('seal', () => {
  const key = deriveKey(randomBytes(24).toString('hex'), 'two-factor-secret');

  it('round-trips, with a fresh nonce each time (the same secret never seals the same)', () => {
    const a = seal(key, 'JBSWY3DPEHPK3PXP', 'account:1');
    const b = seal(key, 'JBSWY3DPEHPK3PXP', 'account:1');
    assert.notEqual(a, b);
    assert.ok(!a.includes('JBSWY3DPEHPK3PXP'));
    assert.equal(unseal(key, a, 'account:1'), 'JBSWY3DPEHPK3PXP');
  });

  it('does not open for another row, another key or an altered ciphertext', () => {
    const sealed = seal(key, 'secret', 'account:1');
    assert.equal(unseal(key, sealed, 'account:2'), null);
    assert.equal(unseal(deriveKey('another app secret', 'two-factor-secret'), sealed, 'account:1'), null);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    assert.equal(unseal(key, [...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'account:1'), null);
    assert.equal(unseal(key, 'garbage', 'account:1'), null);
  });
});
