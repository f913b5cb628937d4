// The audit log (management-api.md § Audit log and account security, docs/audit-log.md): every
// content write (in its own transaction, with its actor: API token, end user, member, system) and
// every management write on a project is an entry; owners list it (filters, paging, newest first)
// and export it as JSON Lines; each account reads its own log; nothing secret is stored; no route
// and no SQL statement changes or deletes an entry (retention aside); another account sees none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { ForbiddenError } from '@cms/errors';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { envelope, forbidden, notFound } from '../helpers/envelope.ts';
import { as, PASSWORD, signup, type Session } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';
import { gqlData } from '../helpers/graphql.ts';
import { startFakeStripe, stripeEnv, type FakeStripe } from '../helpers/fake-stripe.ts';
import { subscribe } from '../helpers/billing.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const ARTICLE = 'api::article.article';
const MODEL = {
  contentTypes: {
    [ARTICLE]: ct('article', 'articles', { title: { type: 'string' }, body: { type: 'text' } }),
  },
  components: {},
};
const DAY = 86_400_000;

interface Entry {
  id: number;
  action: string;
  actor: { type: string; id: string | null; email?: string };
  ip: string | null;
  userAgent: string | null;
  payload: Record<string, any>;
  date: string;
}

describe('audit log', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let p: ContentProject;
  let stranger: Session;
  let tokenId: string;
  let tokenKey: string;

  const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> =>
    (await t.platform.db.pool.query(compiledQuery({ text, values }))).rows as T[];
  const list = async (query = '', session: Session = p.owner, slug = p.slug) => {
    const res = await as(t, session).get(`/v1/projects/${slug}/audit-logs${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: Entry[]; meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } } };
  };
  /** The project's entries of `documentId`, oldest first, as `action actorType:actorId`. */
  const ofDocument = async (documentId: string) => (await list('?pageSize=100')).data
    .filter((e) => e.payload.documentId === documentId).reverse().map((e) => `${e.action} ${e.actor.type}:${e.actor.id}`);

  before(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({ env: { ...stripeEnv(fake), SCHEDULER: 'true' } });
    p = await setupContentProject(t, MODEL);
    stranger = await signup(t);
    const created = await p.admin.post(`/v1/projects/${p.slug}/api-tokens`, { name: 'audited', type: 'full-access', description: 'for the audit log' });
    assert.equal(created.statusCode, 201, created.body);
    tokenId = String(created.json().apiToken.id);
    tokenKey = created.json().accessKey;
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  it('content writes with an API token: one entry per event, its actor, ip, user agent and a summary of ids and field names', async () => {
    const api = p.client(tokenKey);
    const created = await api.post('/api/articles', { data: { title: 'Hello', body: 'secret body text' } }, { 'user-agent': 'audit-test/1.0' });
    assert.equal(created.statusCode, 201, created.body);
    const documentId = created.json().data.documentId as string;
    assert.equal((await api.put(`/api/articles/${documentId}?status=draft`, { data: { body: 'changed' } })).statusCode, 200);
    assert.equal((await api.del(`/api/articles/${documentId}`)).statusCode, 204);
    const token = `api-token:${tokenId}`;
    assert.deepEqual(await ofDocument(documentId), [`entry.create ${token}`, `entry.publish ${token}`, `entry.update ${token}`, `entry.delete ${token}`]);
    const [create] = (await list(`?action=entry.create&actor=${token}`)).data;
    assert.deepEqual(create, {
      id: create!.id, action: 'entry.create', actor: { type: 'api-token', id: tokenId }, ip: '127.0.0.1', userAgent: 'audit-test/1.0',
      payload: { uid: ARTICLE, documentId, locale: null, status: 'published', fields: ['title', 'body'] }, date: create!.date,
    });
    assert.match(create!.date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(!JSON.stringify(await list('?pageSize=100')).includes('secret body text'), 'field values are never recorded');
    // GraphQL: the same entries.
    const data = await gqlData(api, 'mutation { createArticle(data: { title: "gql" }, status: DRAFT) { documentId } }');
    assert.deepEqual(await ofDocument((data as any).createArticle.documentId), [`entry.create ${token}`]);
  });

  it('end users (their JWT), anonymous callers, members through the dashboard and the management API', async () => {
    assert.equal((await p.admin.put(`/v1/projects/${p.slug}/roles/authenticated/permissions`, { permissions: { [ARTICLE]: ['create'] } })).statusCode, 200);
    const registered = await p.client(null).post('/api/auth/local/register', { username: 'ann', email: 'ann@example.net', password: 'secret123' });
    assert.equal(registered.statusCode, 200, registered.body);
    const { jwt, user } = registered.json();
    const byUser = await p.client(jwt).post('/api/articles', { data: { title: 'by ann' } });
    assert.equal(byUser.statusCode, 201, byUser.body);
    assert.deepEqual(await ofDocument(byUser.json().data.documentId), [`entry.create end-user:${user.id}`, `entry.publish end-user:${user.id}`]);
    // Anonymous, through the public role: an end user without id.
    await p.setPublic({ [ARTICLE]: ['create'] });
    const anonymous = await p.client(null).post('/api/articles', { data: { title: 'anonymous' } });
    assert.equal(anonymous.statusCode, 201, anonymous.body);
    assert.deepEqual(await ofDocument(anonymous.json().data.documentId), ['entry.create end-user:null', 'entry.publish end-user:null']);
    await p.setPublic({});

    const access = await p.admin.post(`/v1/projects/${p.slug}/content-access`);
    const dashboard = p.client(access.json().accessKey);
    const doc = await dashboard.post('/api/articles', { data: { title: 'From the editor' } });
    assert.equal(doc.statusCode, 201, doc.body);
    const documentId = doc.json().data.documentId as string;
    assert.equal((await p.admin.post(`/v1/projects/${p.slug}/content/${ARTICLE}/${documentId}/unpublish`, {})).statusCode, 204);
    const me = `account:${p.owner.account.id}`;
    assert.deepEqual(await ofDocument(documentId), [`entry.create ${me}`, `entry.publish ${me}`, `entry.unpublish ${me}`]);
    const [publish] = (await list(`?action=entry.publish&actor=${encodeURIComponent(p.owner.account.email)}`)).data;
    assert.deepEqual(publish!.actor, { type: 'account', id: String(p.owner.account.id), email: p.owner.account.email });
  });

  it('the scheduler publishes as system', async () => {
    const draft = await p.api.post('/api/articles?status=draft', { data: { title: 'later' } });
    const documentId = draft.json().data.documentId as string;
    const scheduled = await p.admin.post(`/v1/projects/${p.slug}/scheduled-actions`, {
      contentType: ARTICLE, documentId, action: 'publish', scheduledFor: { datetime: new Date(Date.now() + 1500).toISOString(), timezone: 'UTC' },
    });
    assert.equal(scheduled.statusCode, 201, scheduled.body);
    const deadline = Date.now() + 10_000;
    let found: string[] = [];
    while (Date.now() < deadline && !(found = await ofDocument(documentId)).includes('entry.publish system:null')) await new Promise((r) => setTimeout(r, 200));
    assert.ok(found.includes('entry.publish system:null'), JSON.stringify(found));
  });

  it('media uploads and deletes', async () => {
    const form = await multipart({ files: { name: 'a.txt', content: 'hello', type: 'text/plain' } });
    const uploaded = await p.client(tokenKey).raw('POST', '/api/upload', { payload: form.payload, headers: form.headers });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const fileId = String(uploaded.json()[0].id);
    assert.equal((await p.client(tokenKey).del(`/api/upload/files/${fileId}`)).statusCode, 200);
    const media = (await list('?action=media')).data.map((e) => [e.action, e.actor.type, e.payload.fileIds]);
    assert.deepEqual(media, [['media.delete', 'api-token', [fileId]], ['media.create', 'api-token', [fileId]]]);
  });

  it('a write rolled back after its events were written leaves no entry', async () => {
    const before = (await list()).meta.pagination.total;
    const quota = t.platform.documentQuota;
    const admission = quota.admission;
    // The document limit's check runs last in a create's transaction, after its events.
    quota.admission = () => async () => { throw new ForbiddenError('over the limit'); };
    try {
      const refused = await p.api.post('/api/articles', { data: { title: 'refused' } });
      assert.equal(refused.statusCode, 403, refused.body);
    } finally {
      quota.admission = admission;
    }
    assert.equal((await list()).meta.pagination.total, before);
  });

  it('management writes: the action of each route, the member, and the names of the fields, never their secret values', async () => {
    const base = `/v1/projects/${p.slug}`;
    const hook = await p.admin.post(`${base}/webhooks`, { name: 'hook', url: 'https://example.com/hook?key=abc', events: ['entry.create'], headers: { Authorization: 'Bearer hook-secret' } });
    assert.equal(hook.statusCode, 201, hook.body);
    const hookId = hook.json().webhook?.id ?? hook.json().data?.id;
    assert.equal((await p.admin.put(`${base}/webhooks/${hookId}`, { name: 'hook 2' })).statusCode, 200);
    const token = await p.admin.post(`${base}/api-tokens`, { name: 'temp', type: 'read-only' });
    const tempId = token.json().apiToken.id;
    const accessKey = token.json().accessKey as string;
    assert.equal((await p.admin.del(`${base}/api-tokens/${tempId}`)).statusCode, 204);
    assert.equal((await p.admin.put(`${base}/roles/public/permissions`, { permissions: { [ARTICLE]: ['find'] } })).statusCode, 200);
    assert.equal((await p.admin.post(`${base}/invitations`, { email: 'new@example.com', role: 'editor' })).statusCode, 201);
    assert.equal((await p.admin.put(`${base}/settings/preview`, { draftAccess: 'find', urls: {} })).statusCode, 200);
    assert.equal((await p.admin.put(`${base}/schema`, { ...MODEL, contentTypes: { [ARTICLE]: ct('article', 'articles', { title: { type: 'string' }, body: { type: 'text' }, extra: { type: 'string' } }) } })).statusCode, 200);
    // Reads and refusals are not entries.
    assert.equal((await p.admin.get(`${base}/webhooks`)).statusCode, 200);
    assert.equal((await p.admin.post(`${base}/api-tokens`, { name: '' })).statusCode, 400);

    const entries = (await list('?actor=account&pageSize=100')).data.filter((e) => !e.action.startsWith('entry.'));
    const actions = entries.map((e) => e.action);
    for (const action of ['webhook.create', 'webhook.update', 'api-token.create', 'api-token.delete', 'role.update', 'member.invite', 'project.settings.update', 'content-type.update']) {
      assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    }
    assert.ok(entries.every((e) => e.actor.type === 'account' && e.actor.id === String(p.owner.account.id) && e.actor.email === p.owner.account.email));
    const byAction = (a: string) => entries.find((e) => e.action === a)!.payload;
    assert.deepEqual(byAction('webhook.create'), { fields: ['name', 'url', 'events', 'headers'], name: 'hook', events: ['entry.create'] });
    assert.deepEqual(byAction('api-token.delete'), { id: String(tempId) });
    assert.deepEqual(byAction('member.invite'), { fields: ['email', 'role'], email: 'new@example.com', role: 'editor' });
    assert.equal(byAction('role.update').type, 'public');
    const all = JSON.stringify(await sql('SELECT payload, action FROM platform.audit_logs'));
    for (const secret of ['hook-secret', 'key=abc', accessKey, tokenKey, 'secret123']) assert.ok(!all.includes(secret), `no ${secret.slice(0, 12)}… in any payload`);
    assert.equal((await list('?action=entry.create&actor=system')).data.length, 0);
  });

  it('Stripe\'s webhook changing the plan: billing.plan-change by system', async () => {
    await subscribe(t, fake, p.owner, p.slug, 'pro');
    const [change] = (await list('?action=billing.plan-change')).data;
    assert.deepEqual([change!.actor, change!.payload.plan], [{ type: 'system', id: null }, 'pro']);
    assert.ok((await list('?action=billing.checkout')).data.length === 1);
  });

  it('filters, paging and their validation', async () => {
    const all = await list('?pageSize=100');
    const total = all.meta.pagination.total;
    assert.ok(total > 10);
    const dates = all.data.map((e) => e.date);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
    const page2 = await list('?page=2&pageSize=3');
    assert.deepEqual(page2.meta.pagination, { page: 2, pageSize: 3, pageCount: Math.ceil(total / 3), total });
    assert.deepEqual(page2.data.map((e) => e.id), all.data.slice(3, 6).map((e) => e.id));
    const family = await list('?action=entry&pageSize=100');
    assert.ok(family.data.length > 0 && family.data.every((e) => e.action.startsWith('entry.')));
    const future = new Date(Date.now() + DAY).toISOString();
    assert.equal((await list(`?from=${future}`)).meta.pagination.total, 0);
    assert.equal((await list(`?to=${future}&from=2000-01-01`)).meta.pagination.total, total);
    assert.equal((await list('?to=2000-01-01')).meta.pagination.total, 0);
    assert.equal((await list('?actor=nobody@example.com')).meta.pagination.total, 0);
    for (const [query, key] of [['?page=0', 'page'], ['?pageSize=101', 'pageSize'], ['?from=yesterday', 'from'], ['?actor=robot:1', 'actor'], ['?action=Entry.Create', 'action'], ['?sort=id', 'sort'], ['?page=1&page=2', 'page']] as const) {
      const res = await p.admin.get(`/v1/projects/${p.slug}/audit-logs${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error.name, 'ValidationError');
      assert.equal(res.json().error.details.key, key);
      assert.equal(res.json().data, null);
    }
  });

  it('the export: JSON Lines with the same filters, streamed', async () => {
    const res = await p.admin.get(`/v1/projects/${p.slug}/audit-logs/export?action=entry`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/x-ndjson; charset=utf-8');
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="audit-log-[a-z0-9-]+\.jsonl"$/);
    assert.equal(res.headers['transfer-encoding'], 'chunked', 'streamed, not buffered whole');
    const lines = res.body.trimEnd().split('\n').map((l) => JSON.parse(l) as Entry);
    const listed = await list('?action=entry&pageSize=100');
    assert.deepEqual(lines, listed.data);
    assert.ok(res.body.endsWith('\n'));
    // More than a page (500) of entries: every one, in order.
    await sql(`INSERT INTO platform.audit_logs (project_id, action, actor_type, payload) SELECT $1, 'test.bulk', 'system', jsonb_build_object('n', n) FROM generate_series(1, 1203) n`, [p.id]);
    const bulk = await p.admin.get(`/v1/projects/${p.slug}/audit-logs/export?action=test.bulk`);
    const ns = bulk.body.trimEnd().split('\n').map((l) => JSON.parse(l).payload.n);
    assert.equal(ns.length, 1203);
    assert.deepEqual(ns, Array.from({ length: 1203 }, (_, i) => 1203 - i));
    const bad = await p.admin.get(`/v1/projects/${p.slug}/audit-logs/export?page=2`);
    assert.equal(bad.statusCode, 400);
  });

  it('owners only; another account\'s project is a 404; nothing of it shows in another project or account', async () => {
    const editor = await signup(t);
    await sql('INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, $3)', [p.id, editor.account.id, 'editor']);
    const res = await as(t, editor).get(`/v1/projects/${p.slug}/audit-logs`);
    assert.deepEqual([res.statusCode, res.json()], [403, forbidden('Only the owners of this project can do this (your role: editor)')]);
    assert.equal((await as(t, editor).get(`/v1/projects/${p.slug}/audit-logs/export`)).statusCode, 403);
    for (const url of [`/v1/projects/${p.slug}/audit-logs`, `/v1/projects/${p.slug}/audit-logs/export`]) {
      const other = await as(t, stranger).get(url);
      assert.deepEqual([other.statusCode, other.json()], [404, notFound()]);
    }
    // The stranger's own project and account log hold none of p's entries.
    const mine = await as(t, stranger).post('/v1/projects', { name: 'Stranger' });
    const slug = mine.json().project.slug;
    const theirs = await list('?pageSize=100', stranger, slug);
    assert.deepEqual(theirs.data.map((e) => e.action), ['project.create']);
    const account = await as(t, stranger).get('/v1/auth/audit-logs');
    assert.ok(account.json().data.every((e: Entry) => e.actor.type !== 'account' || e.actor.id === String(stranger.account.id)));
    assert.equal((await as(t, stranger).get('/v1/projects/x/audit-logs')).statusCode, 404);
  });

  it('no route changes or deletes an entry (405 in the envelope), and Postgres refuses UPDATE, DELETE and TRUNCATE', async () => {
    const [entry] = (await list()).data;
    const base = `/v1/projects/${p.slug}/audit-logs`;
    for (const [method, url] of [['PUT', `${base}/${entry!.id}`], ['PATCH', `${base}/${entry!.id}`], ['DELETE', `${base}/${entry!.id}`], ['DELETE', base], ['POST', base], ['PUT', base],
      ['DELETE', '/v1/auth/audit-logs'], ['POST', '/v1/auth/audit-logs'], ['DELETE', `/v1/auth/audit-logs/${entry!.id}`], ['DELETE', `${base}/export`]] as const) {
      const res = await t.inject({ method, url, headers: { authorization: `Bearer ${p.owner.token}` }, payload: method === 'DELETE' ? undefined : {} });
      assert.deepEqual([method, url, res.statusCode, res.json()], [method, url, 405, envelope(405, 'MethodNotAllowedError', 'Method Not Allowed')]);
      assert.equal(res.headers.allow, 'GET, HEAD');
    }
    // A stranger's attempt is the project's 404, as everywhere.
    assert.equal((await as(t, stranger).del(`${base}/${entry!.id}`)).statusCode, 404);
    for (const statement of [
      `UPDATE platform.audit_logs SET action = 'x.y' WHERE id = ${entry!.id}`,
      `DELETE FROM platform.audit_logs WHERE id = ${entry!.id}`,
      'TRUNCATE platform.audit_logs',
    ]) {
      await assert.rejects(sql(statement), /audit log entries cannot be changed or deleted/, statement);
    }
    const [row] = await sql<{ action: string }>('SELECT action FROM platform.audit_logs WHERE id = $1', [entry!.id]);
    assert.equal(row!.action, entry!.action);
    assert.equal((await list()).data[0]!.id, entry!.id);
  });

  it('the account\'s own log: its sign-ins, refused ones included, with ip and user agent; no other account\'s', async () => {
    const who = await signup(t);
    const login = (password: string) => t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: who.account.email, password }, headers: { 'user-agent': 'login-test' } });
    assert.equal((await login('wrong password')).statusCode, 401);
    assert.equal((await login(PASSWORD)).statusCode, 200);
    // Another account's sign-in is in its own log only.
    assert.equal((await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: stranger.account.email, password: PASSWORD } })).statusCode, 200);
    // What a caller puts in a payload is redacted whatever it is.
    await t.platform.audit.recordAccount({ accountId: who.account.id, action: 'account.password.change', ip: '10.0.0.1', userAgent: 'test', payload: { currentPassword: 'old one', newPassword: 'new one' } });
    const res = await as(t, who).get('/v1/auth/audit-logs?pageSize=10');
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: Entry[]; meta: { pagination: Record<string, number> } };
    const me = { type: 'account', id: String(who.account.id), email: who.account.email };
    const byAction = (action: string) => body.data.filter((e) => e.action === action);
    assert.deepEqual(byAction('account.password.change').map((e) => [e.actor, e.ip, e.userAgent, e.payload]), [
      [me, '10.0.0.1', 'test', { currentPassword: '[redacted]', newPassword: '[redacted]' }],
    ]);
    const [success] = byAction('admin.auth.success');
    assert.deepEqual([success!.actor, success!.ip, success!.userAgent, success!.payload.method], [me, '127.0.0.1', 'login-test', 'password']);
    const [failure] = byAction('admin.auth.failure');
    assert.deepEqual([failure!.actor, failure!.userAgent, failure!.payload.reason], [me, 'login-test', 'password']);
    assert.ok(body.data.every((e) => e.actor.type !== 'account' || e.actor.id === String(who.account.id)), 'no other account\'s entry');
    assert.ok(body.meta.pagination.total >= 3);
    const text = JSON.stringify(body);
    for (const secret of ['wrong password', PASSWORD, 'old one', 'new one']) assert.ok(!text.includes(secret), secret);
    assert.equal((await t.inject({ method: 'GET', url: '/v1/auth/audit-logs' })).statusCode, 401);
    assert.equal((await as(t, who).get('/v1/auth/audit-logs?action=x')).statusCode, 400);
  });

  it('retention: the round deletes entries past the plan\'s days (free 7, pro 90) and keeps the rest; accounts\' logs a year', async () => {
    const other = await setupContentProject(t, MODEL);
    const clock = new Date(Date.now() + DAY + 60_000);
    const ago = (days: number) => new Date(clock.getTime() - days * DAY).toISOString();
    // Entries dated by hand (a statement of the test's own, with the retention's setting: the trigger refuses any other).
    const dated = async (projectId: number | null, accountId: number | null, days: number, tag: string) =>
      sql(`INSERT INTO platform.audit_logs (project_id, account_id, action, actor_type, payload, created_at) VALUES ($1, $2, 'test.retention', 'system', jsonb_build_object('tag', $3::text), $4)`,
        [projectId, accountId, tag, ago(days)]);
    for (const [days, tag] of [[400, 'y+'], [100, 'q+'], [30, 'm'], [8, 'w+'], [6, 'w-'], [0, 'now']] as const) {
      await dated(other.id, null, days, tag);
      await dated(p.id, null, days, tag);
    }
    await dated(null, other.owner.account.id, 400, 'account-old');
    await dated(null, other.owner.account.id, 300, 'account-kept');
    const tags = async (projectId: number | null, accountId?: number) => (await sql<{ tag: string }>(
      `SELECT payload->>'tag' AS tag FROM platform.audit_logs WHERE action = 'test.retention' AND ${projectId === null ? 'project_id IS NULL AND account_id = $1' : 'project_id = $1'} ORDER BY created_at`,
      [projectId ?? accountId])).map((r) => r.tag);
    const round = await t.platform.maintenance.round(clock, ['history']);
    assert.equal(round.ran, true);
    assert.ok(round.auditEntriesDeleted >= 4 + 2 + 1, JSON.stringify(round));
    assert.deepEqual(await tags(other.id), ['w-', 'now'], 'free: 7 days');
    assert.deepEqual(await tags(p.id), ['m', 'w+', 'w-', 'now'], 'pro: 90 days');
    assert.deepEqual(await tags(null, other.owner.account.id), ['account-kept']);
    // Newer entries (this test's own writes) are all still there.
    assert.ok((await list()).meta.pagination.total > 10);
  });

  it('a deleted project\'s log goes with its purge, 7 days later', async () => {
    const gone = await setupContentProject(t, MODEL);
    const count = async () => Number((await sql<{ n: string }>('SELECT count(*)::text AS n FROM platform.audit_logs WHERE project_id = $1', [gone.id]))[0]!.n);
    assert.equal((await gone.admin.del(`/v1/projects/${gone.slug}`)).statusCode, 204);
    assert.ok(await count() > 0, 'kept while the project can be restored');
    const round = await t.platform.maintenance.round(new Date(Date.now() + 7 * DAY + 60_000), ['purge']);
    assert.ok(round.purged.includes(gone.slug));
    assert.equal(await count(), 0);
  });
});
