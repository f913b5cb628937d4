// Payload redaction: no secret value is ever stored in an audit entry, at any depth, whatever
// the key's spelling; the rest is kept, bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecretKey, redactPayload, REDACTED } from '../src/redact.ts';

describe('redactPayload', () => {
  it('replaces the values of secret keys, whatever their case, separators or depth', () => {
    const payload = redactPayload({
      name: 'hook', password: 'p4ss', newPassword: 'n3w', client_secret: 'cs', webhookSecret: 'ws', accessKey: 'ak', 'X-Api-Key': 'xk',
      token: 'tk', refresh_token: 'rt', code: '123456', recoveryCodes: ['a', 'b'], otpauthUrl: 'otpauth://…', smtpPassword: 'sp', totpSecret: 'ts',
      headers: { Authorization: 'Bearer x' }, nested: { deeper: [{ secret: 's', id: 3 }], Cookie: 'c' }, privateKey: 'pk',
    });
    assert.deepEqual(payload, {
      name: 'hook', password: REDACTED, newPassword: REDACTED, client_secret: REDACTED, webhookSecret: REDACTED, accessKey: REDACTED, 'X-Api-Key': REDACTED,
      token: REDACTED, refresh_token: REDACTED, code: REDACTED, recoveryCodes: REDACTED, otpauthUrl: REDACTED, smtpPassword: REDACTED, totpSecret: REDACTED,
      headers: REDACTED, nested: { deeper: [{ secret: REDACTED, id: 3 }], Cookie: REDACTED }, privateKey: REDACTED,
    });
    const text = JSON.stringify(payload);
    for (const secret of ['p4ss', 'n3w', 'cs', 'ws', 'ak', 'xk', 'tk', 'rt', '123456', 'otpauth:', 'Bearer', 'pk']) assert.ok(!text.includes(`"${secret}`), secret);
  });

  it('keeps ids, names and field lists; bounds strings, arrays, keys and depth', () => {
    assert.deepEqual(redactPayload({ documentId: 'abc', uid: 'api::a.a', locale: null, fields: ['title', 'body'], n: 3, ok: true }),
      { documentId: 'abc', uid: 'api::a.a', locale: null, fields: ['title', 'body'], n: 3, ok: true });
    const long = redactPayload({ text: 'x'.repeat(1000), list: Array.from({ length: 80 }, (_, i) => i), deep: { a: { b: { c: { d: { e: 1 } } } } } });
    assert.equal((long.text as string).length, 301);
    assert.equal((long.list as number[]).length, 50);
    assert.deepEqual(long.deep, { a: { b: { c: {} } } });
    const many = redactPayload(Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i])));
    assert.equal(Object.keys(many).length, 50);
    assert.deepEqual(redactPayload({ n: Number.NaN, big: 10n, at: new Date(0), fn: () => 1, u: undefined }), { n: null, big: '10', at: '1970-01-01T00:00:00.000Z', fn: null });
  });

  it('answers {} for anything but an object', () => {
    for (const value of [null, undefined, 'text', 3, ['a']]) assert.deepEqual(redactPayload(value), {});
  });

  it('isSecretKey', () => {
    for (const key of ['password', 'PASSWORD', 'api_key', 'apiKey', 'jwt', 'id_token', 'secretBox', 'stripe-signature']) assert.equal(isSecretKey(key), true, key);
    for (const key of ['name', 'email', 'role', 'documentId', 'fields', 'uid', 'locale', 'plan']) assert.equal(isSecretKey(key), false, key);
  });
});
