// A project's e-mail templates for its end users (management API `settings/email-templates`) and
// the platform's e-mail transport (`settings/email`): exact answers, the templates actually used
// in the mails a real SMTP server receives, viewers read-only, other accounts' projects 404, and
// bad input a 400 in the envelope.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.ts';

type Json = Record<string, any>;

const DEFAULTS = {
  emailConfirmation: {
    fromName: null,
    replyTo: null,
    subject: 'Account confirmation',
    message: '<p>Thank you for registering!</p>\n\n<p>Confirm your e-mail address with this link:</p>\n\n<p><a href="<%= URL %>?confirmation=<%= CODE %>"><%= URL %>?confirmation=<%= CODE %></a></p>',
  },
  resetPassword: {
    fromName: null,
    replyTo: null,
    subject: 'Reset password',
    message: '<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>Use this link to reset it:</p>\n\n<p><a href="<%= URL %>?code=<%= TOKEN %>"><%= URL %>?code=<%= TOKEN %></a></p>',
  },
};
const VARIABLES = {
  emailConfirmation: { subject: ['USER.username', 'USER.email'], message: ['URL', 'CODE', 'SERVER_URL', 'USER.username', 'USER.email'] },
  resetPassword: { subject: ['USER.username', 'USER.email'], message: ['URL', 'TOKEN', 'SERVER_URL', 'USER.username', 'USER.email'] },
};
const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
const viewersOnlyRead = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Viewers of this project can only read it', details: {} } };
const fieldErrors = (...errors: Array<[string[], string]>) => ({
  data: null,
  error: {
    status: 400, name: 'ValidationError', message: errors.length === 1 ? errors[0]![1] : `${errors.length} errors occurred`,
    details: { errors: errors.map(([path, message]) => ({ path, message, name: 'ValidationError' })) },
  },
});

/** One MIME part of a received mail (`text/plain` or `text/html`), decoded. */
function partOf(mail: ReceivedMail, type: string): string {
  const start = mail.text.indexOf(`Content-Type: ${type}`);
  assert.ok(start >= 0, `no ${type} part in ${mail.raw}`);
  const body = mail.text.slice(mail.text.indexOf('\r\n\r\n', start) + 4);
  return body.slice(0, body.search(/\r\n--[^\r\n]+/)).trim();
}

describe('management API: end users\' e-mail templates and transport', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let owner: Session;
  let viewer: Session;
  let stranger: Session;
  let a: { id: number; slug: string };
  let b: { id: number; slug: string };
  const templates = (slug: string) => `/v1/projects/${slug}/settings/email-templates`;
  const endUsers = (slug: string) => ({
    post: (url: string, payload: unknown) => t.inject({ method: 'POST', url: `/p/${slug}${url}`, payload: payload as object }),
    get: (url: string) => t.inject({ method: 'GET', url: `/p/${slug}${url}` }),
  });
  const register = async (slug: string, username: string, email: string) => {
    const res = await endUsers(slug).post('/api/auth/local/register', { username, email, password: 'secret123' });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'auth@platform.test' } });
    owner = await signup(t);
    viewer = await signup(t);
    stranger = await signup(t);
    a = await createProject(t, owner, { name: 'Mail A' });
    b = await createProject(t, stranger, { name: 'Mail B' });
    await t.platform.db.pool.query(compiledQuery({
      text: `INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, 'viewer')`, values: [a.id, viewer.account.id],
    }));
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('answers the default templates (the texts sent so far, in Strapi\'s format) and their variables', async () => {
    const res = await as(t, owner).get(templates(a.slug));
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { emailTemplates: DEFAULTS, variables: VARIABLES });
  });

  it('tells how e-mails are delivered: the SMTP host without its credentials, or the log', async () => {
    const res = await as(t, owner).get(`/v1/projects/${a.slug}/settings/email`);
    assert.deepEqual([res.statusCode, res.json()], [200, { email: { transport: 'smtp', from: 'auth@platform.test', host: smtp.url.slice('smtp://'.length) } }]);
    const withPassword = await startTestApp({ share: t, env: { SMTP_URL: 'smtp://mailer:s3cret@mail.example.com:587', EMAIL_FROM: 'hello@platform.test' } });
    try {
      const other = await withPassword.inject({ method: 'GET', url: `/v1/projects/${a.slug}/settings/email`, headers: { authorization: `Bearer ${owner.token}` } });
      assert.deepEqual([other.statusCode, other.json()], [200, { email: { transport: 'smtp', from: 'hello@platform.test', host: 'mail.example.com:587' } }]);
      assert.doesNotMatch(other.body, /s3cret|mailer/);
    } finally {
      await withPassword.close();
    }
    const logOnly = await startTestApp({ share: t, env: { SMTP_URL: '', EMAIL_FROM: '' } });
    try {
      const other = await logOnly.inject({ method: 'GET', url: `/v1/projects/${a.slug}/settings/email`, headers: { authorization: `Bearer ${owner.token}` } });
      assert.deepEqual([other.statusCode, other.json()], [200, { email: { transport: 'log', from: 'no-reply@localhost', host: null } }]);
    } finally {
      await logOnly.close();
    }
  });

  it('saves any subset and answers the effective templates; the mail sent uses them, values escaped in HTML', async () => {
    const reset = {
      fromName: 'Acme Support',
      replyTo: 'help@acme.test',
      subject: 'Reset the password of <%= USER.username %>',
      message: '<p>Hello <%= USER.username %> (<%= USER.email %>),</p>\n<p><a href="<%= URL %>?code=<%= TOKEN %>">Choose a new password</a></p>\n<p>Sent by <%= SERVER_URL %></p>',
    };
    const res = await as(t, owner).put(templates(a.slug), { resetPassword: reset });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { emailTemplates: { ...DEFAULTS, resetPassword: reset }, variables: VARIABLES });
    assert.deepEqual((await as(t, owner).get(templates(a.slug))).json().emailTemplates, { ...DEFAULTS, resetPassword: reset });
    // Another subset keeps what was saved before.
    const subjectOnly = await as(t, owner).put(templates(a.slug), { resetPassword: { subject: '  Your <%= USER.username %> account  ' } });
    assert.deepEqual(subjectOnly.json().emailTemplates.resetPassword, { ...reset, subject: 'Your <%= USER.username %> account' });

    assert.equal((await as(t, owner).put(`/v1/projects/${a.slug}/settings/users-permissions`, { resetPasswordUrl: 'https://app.acme.test/reset' })).statusCode, 200);
    await register(a.slug, '<img src=x>', 'img@example.com');
    const forgot = await endUsers(a.slug).post('/api/auth/forgot-password', { email: 'img@example.com' });
    assert.deepEqual([forgot.statusCode, forgot.json()], [200, { ok: true }]);
    const mail = await smtp.next('img@example.com');
    assert.equal(mail.from, 'auth@platform.test');
    assert.equal(mail.subject, 'Your <img src=x> account');
    assert.match(mail.raw, /^From: Acme Support <auth@platform\.test>\r$/m);
    assert.match(mail.raw, /^Reply-To: help@acme\.test\r$/m);
    const code = /code=([0-9a-f]{64})/.exec(mail.text)![1]!;
    const origin = new RegExp(`http://[^/\\s]+/p/${a.slug}`).exec(mail.text)![0];
    assert.equal(partOf(mail, 'text/plain'), [
      'Hello <img src=x> (img@example.com),',
      '',
      `Choose a new password (https://app.acme.test/reset?code=${code})`,
      '',
      `Sent by ${origin}`,
    ].join('\r\n'));
    assert.equal(partOf(mail, 'text/html'), [
      '<p>Hello &lt;img src=x&gt; (img@example.com),</p>',
      `<p><a href="https://app.acme.test/reset?code=${code}">Choose a new password</a></p>`,
      `<p>Sent by ${origin}</p>`,
    ].join('\r\n'));
    // The mailed code works.
    const done = await endUsers(a.slug).post('/api/auth/reset-password', { code, password: 'newsecret', passwordConfirmation: 'newsecret' });
    assert.equal(done.statusCode, 200, done.body);
  });

  it('a plain-text confirmation template is sent as plain text, and its link confirms', async () => {
    const message = 'Hi <%= USER.username %>,\n\nconfirm <%= USER.email %> here: <%= URL %>?confirmation=<%= CODE %>\n\nSee you!';
    const put = await as(t, owner).put(templates(a.slug), { emailConfirmation: { subject: 'Welcome <%= USER.username %>', message } });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal((await as(t, owner).put(`/v1/projects/${a.slug}/settings/users-permissions`, { emailConfirmation: true })).statusCode, 200);
    await register(a.slug, 'carol', 'Carol@Example.com');
    const mail = await smtp.next('carol@example.com');
    assert.equal(mail.subject, 'Welcome carol');
    assert.doesNotMatch(mail.raw, /text\/html/);
    const link = new RegExp(`^Hi carol,\\r\\n\\r\\nconfirm carol@example\\.com here: (http://[^/\\s]+/p/${a.slug}/api/auth/email-confirmation\\?confirmation=[0-9a-f]{64})\\r\\n\\r\\nSee you!`).exec(mail.text);
    assert.ok(link, mail.text);
    const confirmed = await endUsers(a.slug).get(link[1]!.slice(link[1]!.indexOf(`/p/${a.slug}`) + `/p/${a.slug}`.length));
    assert.equal(confirmed.statusCode, 302);
    assert.equal((await as(t, owner).put(`/v1/projects/${a.slug}/settings/users-permissions`, { emailConfirmation: false })).statusCode, 200);
  });

  it('keeps projects apart: another project\'s routes are 404, and its users get its own (default) templates', async () => {
    for (const [method, url] of [['GET', templates(b.slug)], ['PUT', templates(b.slug)], ['GET', `/v1/projects/${b.slug}/settings/email`]] as const) {
      const res = await t.inject({ method, url, payload: method === 'PUT' ? { resetPassword: { subject: 'Hijacked' } } : undefined, headers: { authorization: `Bearer ${owner.token}` } });
      assert.deepEqual([res.statusCode, res.json()], [404, notFound], `${method} ${url}`);
    }
    assert.deepEqual((await as(t, stranger).get(templates(b.slug))).json().emailTemplates, DEFAULTS);
    // B's users get B's default: no reset page set, so the code alone.
    await register(b.slug, 'dora', 'dora@example.com');
    assert.equal((await endUsers(b.slug).post('/api/auth/forgot-password', { email: 'dora@example.com' })).statusCode, 200);
    const mail = await smtp.next('dora@example.com');
    assert.equal(mail.subject, 'Reset password');
    assert.match(mail.raw, /^From: auth@platform\.test\r$/m);
    assert.doesNotMatch(mail.raw, /^Reply-To:/m);
    const code = /Your reset code: ([0-9a-f]{64})/.exec(mail.text)![1]!;
    assert.equal(partOf(mail, 'text/plain'), `We heard that you lost your password. Sorry about that!\r\n\r\nYour reset code: ${code}`);
    // B's own change never reaches A's users.
    assert.equal((await as(t, stranger).put(templates(b.slug), { resetPassword: { subject: 'From B' } })).statusCode, 200);
    assert.equal((await endUsers(a.slug).post('/api/auth/forgot-password', { email: 'img@example.com' })).statusCode, 200);
    assert.equal((await smtp.next('img@example.com')).subject, 'Your <img src=x> account');
    assert.equal((await as(t, owner).get(templates(a.slug))).json().emailTemplates.resetPassword.subject, 'Your <%= USER.username %> account');
  });

  it('viewers read the templates and the transport, and may not change them', async () => {
    const before = (await as(t, owner).get(templates(a.slug))).json();
    const read = await as(t, viewer).get(templates(a.slug));
    assert.deepEqual([read.statusCode, read.json()], [200, before]);
    assert.equal((await as(t, viewer).get(`/v1/projects/${a.slug}/settings/email`)).statusCode, 200);
    // Refused whatever the body, valid or not.
    for (const body of [{ resetPassword: { subject: 'By a viewer' } }, { nonsense: true }]) {
      const res = await as(t, viewer).put(templates(a.slug), body);
      assert.deepEqual([res.statusCode, res.json()], [403, viewersOnlyRead]);
    }
    assert.deepEqual((await as(t, owner).get(templates(a.slug))).json(), before);
    const anonymous = await t.inject({ method: 'GET', url: templates(a.slug) });
    assert.equal(anonymous.statusCode, 401);
  });

  it('refuses bad input with a 400 naming each path, and changes nothing', async () => {
    const before = (await as(t, owner).get(templates(a.slug))).json();
    const put = (body: unknown) => as(t, owner).put(templates(a.slug), body);
    const cases: Array<[unknown, ReturnType<typeof fieldErrors>]> = [
      [{ welcome: { subject: 'x' } }, fieldErrors([['welcome'], 'welcome is not a valid key'])],
      [{ resetPassword: 'x' }, fieldErrors([['resetPassword'], 'resetPassword must be an object'])],
      [{ resetPassword: { subject: '' } }, fieldErrors([['resetPassword', 'subject'], 'subject must be one line of 1 to 200 characters'])],
      [{ resetPassword: { subject: 'x'.repeat(201) } }, fieldErrors([['resetPassword', 'subject'], 'subject must be one line of 1 to 200 characters'])],
      [{ resetPassword: { subject: 'two\nlines' } }, fieldErrors([['resetPassword', 'subject'], 'subject must be one line of 1 to 200 characters'])],
      [{ resetPassword: { subject: 42 } }, fieldErrors([['resetPassword', 'subject'], 'subject must be one line of 1 to 200 characters'])],
      [{ resetPassword: { message: '   ' } }, fieldErrors([['resetPassword', 'message'], 'message must be text of 1 to 20000 characters'])],
      [{ resetPassword: { message: 'x'.repeat(20_001) } }, fieldErrors([['resetPassword', 'message'], 'message must be text of 1 to 20000 characters'])],
      [{ resetPassword: { message: 'a\u0000b' } }, fieldErrors([['resetPassword', 'message'], 'message must be text of 1 to 20000 characters'])],
      [{ resetPassword: { message: 'Code: <%= CODE %>' } }, fieldErrors([['resetPassword', 'message'], 'Unknown variable <%= CODE %> (known: URL, TOKEN, SERVER_URL, USER.username, USER.email)'])],
      [{ emailConfirmation: { subject: 'Code <%= CODE %>' } }, fieldErrors([['emailConfirmation', 'subject'], 'Unknown variable <%= CODE %> (known: USER.username, USER.email)'])],
      [{ emailConfirmation: { message: '<%= ADMIN_URL %> <%= USER.password %>' } }, fieldErrors([['emailConfirmation', 'message'], 'Unknown variables <%= ADMIN_URL %>, <%= USER.password %> (known: URL, CODE, SERVER_URL, USER.username, USER.email)'])],
      [{ emailConfirmation: { message: '<% process.exit() %>' } }, fieldErrors([['emailConfirmation', 'message'], 'Only variables can be used, written <%= NAME %> (known: URL, CODE, SERVER_URL, USER.username, USER.email)'])],
      [{ emailConfirmation: { message: '<%- URL %>' } }, fieldErrors([['emailConfirmation', 'message'], 'Only variables can be used, written <%= NAME %> (known: URL, CODE, SERVER_URL, USER.username, USER.email)'])],
      [{ resetPassword: { fromName: 'x'.repeat(101) } }, fieldErrors([['resetPassword', 'fromName'], 'fromName must be one line of 1 to 100 characters, or null'])],
      [{ resetPassword: { fromName: 'Evil\r\nBcc: all@example.com' } }, fieldErrors([['resetPassword', 'fromName'], 'fromName must be one line of 1 to 100 characters, or null'])],
      [{ resetPassword: { replyTo: 'not an address' } }, fieldErrors([['resetPassword', 'replyTo'], 'replyTo must be an e-mail address, or null'])],
      [
        { resetPassword: { subject: '', html: '<p>x</p>' }, emailConfirmation: { replyTo: 5 }, extra: 1 },
        fieldErrors(
          [['resetPassword', 'subject'], 'subject must be one line of 1 to 200 characters'],
          [['resetPassword', 'html'], 'html is not a valid key'],
          [['emailConfirmation', 'replyTo'], 'replyTo must be an e-mail address, or null'],
          [['extra'], 'extra is not a valid key'],
        ),
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await put(body);
      assert.deepEqual([res.statusCode, res.json()], [400, expected], JSON.stringify(body).slice(0, 80));
    }
    for (const body of [[], 'text', 5, null]) {
      const res = await t.inject({ method: 'PUT', url: templates(a.slug), payload: JSON.stringify(body), headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' } });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error.name, 'ValidationError');
    }
    for (const payload of ['{"resetPassword":', '\u0000']) {
      const res = await t.inject({ method: 'PUT', url: templates(a.slug), payload, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' } });
      assert.equal(res.statusCode, 400, payload);
      assert.equal(res.json().data, null);
    }
    assert.deepEqual((await as(t, owner).get(templates(a.slug))).json(), before);
    // Clearing the optional fields with null.
    const cleared = await put({ resetPassword: { fromName: null, replyTo: null } });
    assert.deepEqual([cleared.json().emailTemplates.resetPassword.fromName, cleared.json().emailTemplates.resetPassword.replyTo], [null, null]);
  });
});
