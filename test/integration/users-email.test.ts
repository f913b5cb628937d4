// End users' e-mail flows through a real SMTP server: forgotten password → reset link → new
// password, and e-mail confirmation → redirect → login.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;
const envelope = (status: number, name: string, message: string, details: Json = {}) => ({ data: null, error: { status, name, message, details } });

describe('users-permissions e-mails', () => {
  let t: TestApp;
  let p: ContentProject;
  let smtp: TestSmtp;

  const register = async (username: string, email: string, password = 'secret123') =>
    p.client(null).post('/api/auth/local/register', { username, email, password });
  const login = (identifier: string, password: string) => p.client(null).post('/api/auth/local', { identifier, password });
  const settings = (body: Json) => p.admin.put(`/v1/projects/${p.slug}/settings/users-permissions`, body);

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'auth@platform.test' } });
    p = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('forgot-password mails a reset link that sets a new password once', async () => {
    assert.equal((await settings({ resetPasswordUrl: 'https://app.example.com/reset' })).statusCode, 200);
    assert.equal((await register('bob', 'bob@example.com', 'oldsecret')).statusCode, 200);
    const res = await p.client(null).post('/api/auth/forgot-password', { email: 'BOB@example.com' });
    assert.deepEqual([res.statusCode, res.json()], [200, { ok: true }]);
    const mail = await smtp.next('bob@example.com');
    assert.equal(mail.from, 'auth@platform.test');
    const link = /https:\/\/app\.example\.com\/reset\?code=([0-9a-f]{64})/.exec(mail.text);
    assert.ok(link, mail.text);
    // Only a hash of the code is stored.
    const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT reset_password_token FROM ${p.schema}.up_users WHERE username = 'bob'`, values: [] }));
    assert.notEqual(stored, link[1]);

    const mismatch = await p.client(null).post('/api/auth/reset-password', { code: link[1], password: 'newsecret', passwordConfirmation: 'other' });
    assert.deepEqual([mismatch.statusCode, mismatch.json()], [400, envelope(400, 'ValidationError', 'Passwords do not match')]);
    const reset = await p.client(null).post('/api/auth/reset-password', { code: link[1], password: 'newsecret', passwordConfirmation: 'newsecret' });
    assert.equal(reset.statusCode, 200, reset.body);
    assert.equal(reset.json().user.username, 'bob');
    assert.equal((await p.client(reset.json().jwt).get('/api/users/me')).json().email, 'bob@example.com');
    assert.equal((await login('bob', 'newsecret')).statusCode, 200);
    assert.equal((await login('bob', 'oldsecret')).statusCode, 400);
    // The code was used up.
    const again = await p.client(null).post('/api/auth/reset-password', { code: link[1], password: 'third1', passwordConfirmation: 'third1' });
    assert.deepEqual([again.statusCode, again.json()], [400, envelope(400, 'ValidationError', 'Incorrect code provided')]);
  });

  it('forgot-password answers the same for unknown addresses and sends nothing', async () => {
    const before = smtp.mails.length;
    const res = await p.client(null).post('/api/auth/forgot-password', { email: 'nobody@example.com' });
    assert.deepEqual([res.statusCode, res.json()], [200, { ok: true }]);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(smtp.mails.length, before);
    const bad = await p.client(null).post('/api/auth/forgot-password', { email: 'not an email' });
    assert.equal(bad.statusCode, 400);
    const wrong = await p.client(null).post('/api/auth/reset-password', { code: 'f'.repeat(64), password: 'abcdef', passwordConfirmation: 'abcdef' });
    assert.deepEqual([wrong.statusCode, wrong.json()], [400, envelope(400, 'ValidationError', 'Incorrect code provided')]);
  });

  it('with e-mail confirmation on, a new user confirms through the mailed link before logging in', async () => {
    assert.equal((await settings({ emailConfirmation: true, emailConfirmationRedirect: 'https://app.example.com/welcome' })).statusCode, 200);
    const res = await register('carol', 'carol@example.com');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.json()), ['user']);
    assert.equal(res.json().user.confirmed, false);
    const refused = await login('carol', 'secret123');
    assert.deepEqual([refused.statusCode, refused.json()], [400, envelope(400, 'ApplicationError', 'Your account email is not confirmed')]);

    const mail = await smtp.next('carol@example.com');
    const link = new RegExp(`http://[^/\\s]+/p/${p.slug}/api/auth/email-confirmation\\?confirmation=([0-9a-f]{64})`).exec(mail.text);
    assert.ok(link, mail.text);
    const bad = await p.client(null).get('/api/auth/email-confirmation?confirmation=nope');
    assert.deepEqual([bad.statusCode, bad.json()], [400, envelope(400, 'ValidationError', 'Invalid token')]);
    const confirmed = await p.client(null).get(`/api/auth/email-confirmation?confirmation=${link[1]}`);
    assert.equal(confirmed.statusCode, 302);
    assert.equal(confirmed.headers.location, 'https://app.example.com/welcome');
    assert.equal((await login('carol', 'secret123')).statusCode, 200);
    // Used once.
    assert.equal((await p.client(null).get(`/api/auth/email-confirmation?confirmation=${link[1]}`)).statusCode, 400);
  });

  it('send-email-confirmation mails a new link, refuses confirmed users', async () => {
    assert.equal((await register('dave', 'dave@example.com')).statusCode, 200);
    await smtp.next('dave@example.com');
    const res = await p.client(null).post('/api/auth/send-email-confirmation', { email: 'Dave@example.com' });
    assert.deepEqual([res.statusCode, res.json()], [200, { email: 'dave@example.com', sent: true }]);
    const mail = await smtp.next('dave@example.com');
    const code = /confirmation=([0-9a-f]{64})/.exec(mail.text)![1];
    assert.equal((await p.client(null).get(`/api/auth/email-confirmation?confirmation=${code}`)).statusCode, 302);
    const already = await p.client(null).post('/api/auth/send-email-confirmation', { email: 'dave@example.com' });
    assert.deepEqual([already.statusCode, already.json()], [400, envelope(400, 'ApplicationError', 'Already confirmed')]);
    for (const body of [{}, { email: 5 }, { email: 'nope' }, { email: 'dave@example.com', extra: 1 }]) {
      const bad = await p.client(null).post('/api/auth/send-email-confirmation', body);
      assert.equal(bad.statusCode, 400, JSON.stringify(body));
      assert.equal(bad.json().error.name, 'ValidationError');
    }
  });

  it('links in e-mails keep the host form the client used', async () => {
    const res = await t.inject({
      method: 'POST', url: '/api/auth/send-email-confirmation', headers: { host: `${p.slug}.example.test` },
      payload: { email: 'erin@example.com' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal((await register('erin', 'erin@example.com')).statusCode, 200);
    await smtp.next('erin@example.com');
    const resent = await t.inject({ method: 'POST', url: '/api/auth/send-email-confirmation', headers: { host: `${p.slug}.example.test` }, payload: { email: 'erin@example.com' } });
    assert.equal(resent.statusCode, 200);
    const mail = await smtp.next('erin@example.com');
    assert.match(mail.text, new RegExp(`http://${p.slug}\\.example\\.test/api/auth/email-confirmation\\?confirmation=[0-9a-f]{64}`));
  });
});
