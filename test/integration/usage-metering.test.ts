// Usage metering by day, route and rejection: requests through a project's REST, GraphQL and
// upload APIs are counted exactly per UTC day and per route (ids normalised, content-type names
// filled in), requests refused by the per-second, monthly and auth limits per day and kind;
// the management API's `/usage/daily`, `/usage/routes` and `/usage/rejections` answer them to
// any member, validate their parameters and keep projects apart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { UsageMeter } from '@cms/billing';
import { compiledQuery } from '@cms/db';
import { silentLogger } from '@cms/telemetry';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { as, signup, type Session } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY_MS = 86_400_000;
/** The window's dates, oldest first, ending today (UTC). */
const windowDates = (days: number) => Array.from({ length: days }, (_, i) => new Date(Date.now() - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
const today = () => new Date().toISOString().slice(0, 10);
const invalid = (key: string, message: string, value?: unknown) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [key], message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }] } },
});
const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
/** Routes by requests, then by name in byte order (the API's order). */
const ranked = (counts: Record<string, number>) =>
  Object.entries(counts).map(([route, requests]) => ({ route, requests }))
    .sort((a, b) => b.requests - a.requests || (a.route < b.route ? -1 : a.route > b.route ? 1 : 0));

describe('usage metering by day, route and rejection', () => {
  let t: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  const sql = async (text: string, values: unknown[] = []) => (await t.platform.db.pool.query(compiledQuery({ text, values }))).rows as Json[];
  const usageOf = (project: ContentProject, who: Session = project.owner) => {
    const api = as(t, who);
    const base = `/v1/projects/${project.slug}/usage`;
    return {
      daily: (query = '') => api.get(`${base}/daily${query}`),
      routes: (query = '') => api.get(`${base}/routes${query}`),
      rejections: (query = '') => api.get(`${base}/rejections${query}`),
      month: () => api.get(base),
    };
  };
  const todayOf = async (project: ContentProject) => (await usageOf(project).daily('?days=1')).json().days[0];

  before(async () => {
    // Plan limits on (50 requests a second on free); auth routes allow 2 attempts per identifier.
    t = await startTestApp({ env: { PLAN_LIMITS: 'true', AUTH_RATE_LIMIT_MAX: '2' } });
    p = await setupContentProject(t, blogRawModel());
    q = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
  });

  it('counts every request of the day by route: REST, GraphQL, upload and media files; ids and unknown names never become routes', async () => {
    const expected: Record<string, number> = {};
    const expect = async (route: string, status: number, send: Promise<LightMyRequestResponse>) => {
      const res = await send;
      assert.equal(res.statusCode, status, `${route}: ${res.body}`);
      expected[route] = (expected[route] ?? 0) + 1;
      return res;
    };
    for (let i = 0; i < 3; i++) await expect('GET /api/posts', 200, p.api.get('/api/posts'));
    const tag = await expect('POST /api/tags', 201, p.api.post('/api/tags', { data: { label: 'first' } }));
    const documentId = tag.json().data.documentId as string;
    await expect('GET /api/tags/:documentId', 200, p.api.get(`/api/tags/${documentId}`));
    await expect('GET /api/tags/:documentId', 200, p.api.get(`/api/tags/${documentId}?fields[0]=label`));
    await expect('PUT /api/tags/:documentId', 200, p.api.put(`/api/tags/${documentId}`, { data: { label: 'renamed' } }));
    // Failed requests count under the pattern: a made-up name or id is no route of its own.
    await expect('GET /api/:name/:documentId', 404, p.api.get('/api/posts/no-such-document'));
    await expect('GET /api/:name', 404, p.api.get('/api/made-up-name'));
    await expect('other', 404, p.api.get('/nothing/here'));
    for (let i = 0; i < 2; i++) await expect('POST /graphql', 200, p.api.post('/graphql', { query: '{ tags { label } }' }));
    const upload = await expect('POST /api/upload', 201, p.api.raw('POST', '/api/upload', await multipart({ files: { name: 'hello.txt', content: 'hello', type: 'text/plain' } })));
    const file = upload.json()[0];
    await expect('GET /uploads/*', 200, p.client(null).get(file.url as string));
    await expect('GET /api/upload/files/:id', 200, p.api.get(`/api/upload/files/${file.id}`));
    // Preflights are not metered.
    await p.api.raw('OPTIONS', '/api/posts', { headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    // Another project's request is its own.
    assert.equal((await q.api.get('/api/tags')).statusCode, 200);

    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    assert.equal(total, 15);
    // Each answer writes this instance's pending counts first: no explicit flush needed.
    const daily = await usageOf(p).daily();
    assert.equal(daily.statusCode, 200, daily.body);
    assert.deepEqual(daily.json(), { days: windowDates(30).map((date) => ({ date, requests: date === today() ? total : 0, rejected: 0 })) });
    const routes = await usageOf(p).routes('?limit=20');
    assert.deepEqual(routes.json(), { routes: ranked(expected) });
    assert.equal(ranked(expected).length, 11);
    // The default: the 10 busiest of the last 30 days.
    assert.deepEqual((await usageOf(p).routes()).json(), { routes: ranked(expected).slice(0, 10) });
    assert.deepEqual((await usageOf(p).routes('?limit=2&days=1')).json(), { routes: [{ route: 'GET /api/posts', requests: 3 }, { route: 'GET /api/tags/:documentId', requests: 2 }] });
    // The month's figure is unchanged and agrees with the days.
    assert.equal((await usageOf(p).month()).json().requests, total);

    // Project B saw only its own request.
    assert.deepEqual(await todayOf(q), { date: today(), requests: 1, rejected: 0 });
    assert.deepEqual((await usageOf(q).routes()).json(), { routes: [{ route: 'GET /api/tags', requests: 1 }] });

    // More requests add to the same day and routes.
    await p.api.get('/api/posts');
    await t.platform.usage.flush();
    assert.deepEqual(await todayOf(p), { date: today(), requests: total + 1, rejected: 0 });
    assert.deepEqual((await usageOf(p).routes('?limit=1')).json(), { routes: [{ route: 'GET /api/posts', requests: 4 }] });
  });

  it('counts requests refused by the per-second, monthly and auth limits per day and kind, and meters none of them', async () => {
    // A burst at the start of a second: the free plan serves 50 of it. The per-second window is the
    // clock's second: a burst that a loaded machine stretched into the next one is made again, on a
    // project of its own (its counts below are the day's).
    let r = await setupContentProject(t, blogRawModel());
    let burst: Awaited<ReturnType<typeof r.api.get>>[] = [];
    for (let attempt = 1; ; attempt++) {
      await sleep(1000 - (Date.now() % 1000) + 5);
      const second = Math.floor(Date.now() / 1000);
      burst = await Promise.all(Array.from({ length: 80 }, () => r.api.get('/api/posts')));
      if (Math.floor(Date.now() / 1000) === second || attempt === 3) break;
      r = await setupContentProject(t, blogRawModel());
    }
    assert.equal(burst.filter((res) => res.statusCode === 200).length, 50);
    assert.equal(burst.filter((res) => res.statusCode === 429).length, 30);
    await sleep(1100);
    // Auth: 2 attempts per identifier and IP, the third refused.
    const login = () => r.client(null).post('/api/auth/local', { identifier: 'nobody', password: 'wrong' });
    assert.deepEqual([(await login()).statusCode, (await login()).statusCode, (await login()).statusCode], [400, 400, 429]);

    assert.deepEqual(await todayOf(r), { date: today(), requests: 52, rejected: 31 });
    const rejections = await usageOf(r).rejections('?days=7');
    assert.equal(rejections.statusCode, 200, rejections.body);
    assert.deepEqual(rejections.json(), {
      days: windowDates(7).map((date) => ({ date, ...(date === today() ? { perSecond: 30, monthly: 0, auth: 1 } : { perSecond: 0, monthly: 0, auth: 0 }) })),
      total: { perSecond: 30, monthly: 0, auth: 1 },
    });
    assert.deepEqual((await usageOf(r).routes()).json(), { routes: [{ route: 'GET /api/posts', requests: 50 }, { route: 'POST /api/auth/local', requests: 2 }] });

    // A project at its monthly quota: every request refused as `monthly`, none metered.
    const full = await setupContentProject(t, blogRawModel());
    await sql(`INSERT INTO platform.usage_counters (project_id, period, requests) VALUES ($1, $2::date, 100000)`, [full.id, `${today().slice(0, 7)}-01`]);
    assert.equal((await full.api.get('/api/posts')).statusCode, 429);
    assert.equal((await full.api.post('/graphql', { query: '{ tags { label } }' })).statusCode, 429);
    assert.deepEqual(await todayOf(full), { date: today(), requests: 0, rejected: 2 });
    assert.deepEqual((await usageOf(full).rejections('?days=1')).json(), {
      days: [{ date: today(), perSecond: 0, monthly: 2, auth: 0 }], total: { perSecond: 0, monthly: 2, auth: 0 },
    });
    assert.deepEqual((await usageOf(full).routes()).json(), { routes: [] });
    assert.equal((await usageOf(full).month()).json().requests, 100000);
    // Nobody else's rejections.
    assert.deepEqual((await usageOf(p).rejections('?days=1')).json().total, { perSecond: 0, monthly: 0, auth: 0 });
  });

  it('keeps at most 200 routes a project a day; the rest count as other', async () => {
    const c = await setupContentProject(t, blogRawModel());
    const meter = t.platform.usage;
    // Straight into the meter: the gateway's own routes never make that many.
    for (let i = 0; i < 250; i++) meter.record(c.id, `GET /route-${String(i).padStart(3, '0')}`);
    await meter.flush();
    const stored = async () => sql(`SELECT route, requests FROM platform.usage_routes WHERE project_id = $1 ORDER BY route COLLATE "C"`, [c.id]);
    let rows = await stored();
    assert.equal(rows.length, 201);
    assert.deepEqual(rows.at(-1), { route: 'other', requests: 50 });
    // A later batch: known routes keep counting, new ones go to other.
    meter.record(c.id, 'GET /route-000');
    meter.record(c.id, 'GET /brand-new');
    await meter.flush();
    rows = await stored();
    assert.equal(rows.length, 201);
    assert.deepEqual(rows.find((row) => row.route === 'GET /route-000'), { route: 'GET /route-000', requests: 2 });
    assert.deepEqual(rows.at(-1), { route: 'other', requests: 51 });
    assert.deepEqual((await usageOf(c).routes('?limit=2')).json(), { routes: [{ route: 'other', requests: 51 }, { route: 'GET /route-000', requests: 2 }] });
    assert.deepEqual(await todayOf(c), { date: today(), requests: 252, rejected: 0 });
  });

  it('answers every day of the window, oldest first, with stored days in place', async () => {
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    const longAgo = new Date(Date.now() - 89 * DAY_MS).toISOString().slice(0, 10);
    await sql(`INSERT INTO platform.usage_daily (project_id, day, requests, rejected_per_second, rejected_monthly, rejected_auth)
               VALUES ($1, $2::date, 7, 1, 2, 3), ($1, $3::date, 9, 0, 0, 0)`, [q.id, yesterday, longAgo]);
    await sql(`INSERT INTO platform.usage_routes (project_id, day, route, requests) VALUES ($1, $2::date, 'GET /api/posts', 7), ($1, $3::date, 'GET /api/posts', 9)`,
      [q.id, yesterday, longAgo]);
    const two = (await usageOf(q).daily('?days=2')).json();
    assert.deepEqual(two, { days: [{ date: yesterday, requests: 7, rejected: 6 }, { date: today(), requests: 1, rejected: 0 }] });
    const ninety = (await usageOf(q).daily('?days=90')).json().days as Json[];
    assert.equal(ninety.length, 90);
    assert.deepEqual(ninety[0], { date: longAgo, requests: 9, rejected: 0 });
    assert.deepEqual((await usageOf(q).rejections('?days=2')).json().total, { perSecond: 1, monthly: 2, auth: 3 });
    assert.deepEqual((await usageOf(q).routes('?days=1')).json(), { routes: [{ route: 'GET /api/tags', requests: 1 }] });
    assert.deepEqual((await usageOf(q).routes('?days=2')).json(), { routes: [{ route: 'GET /api/posts', requests: 7 }, { route: 'GET /api/tags', requests: 1 }] });
    assert.deepEqual((await usageOf(q).routes('?days=90')).json(), { routes: [{ route: 'GET /api/posts', requests: 16 }, { route: 'GET /api/tags', requests: 1 }] });

    // Route rows older than 90 days are pruned (once a day by each instance's meter); days stay.
    const tooOld = new Date(Date.now() - 91 * DAY_MS).toISOString().slice(0, 10);
    await sql(`INSERT INTO platform.usage_routes (project_id, day, route, requests) VALUES ($1, $2::date, 'GET /api/posts', 5)`, [q.id, tooOld]);
    await sql(`INSERT INTO platform.usage_daily (project_id, day, requests) VALUES ($1, $2::date, 5)`, [q.id, tooOld]);
    const fresh = new UsageMeter(t.platform.db.pool, silentLogger());
    fresh.record(q.id, 'GET /api/tags');
    await fresh.close();
    assert.deepEqual(await sql(`SELECT count(*)::int AS n FROM platform.usage_routes WHERE day < $1::date`, [longAgo]), [{ n: 0 }]);
    assert.deepEqual(await sql(`SELECT requests::int FROM platform.usage_daily WHERE project_id = $1 AND day = $2::date`, [q.id, tooOld]), [{ requests: 5 }]);
    assert.deepEqual(await todayOf(q), { date: today(), requests: 2, rejected: 0 });
  });

  it('refuses bad parameters with 400 ValidationError naming the key', async () => {
    const u = usageOf(p);
    const days = 'days must be an integer from 1 to 90';
    const limit = 'limit must be an integer from 1 to 100';
    for (const [query, key, message, value] of [
      ['?days=0', 'days', days, '0'], ['?days=91', 'days', days, '91'], ['?days=abc', 'days', days, 'abc'], ['?days=1.5', 'days', days, '1.5'],
      ['?days=-1', 'days', days, '-1'], ['?days=', 'days', days, ''], ['?days=1e1', 'days', days, '1e1'], ['?days=%2030', 'days', days, ' 30'],
    ] as const) {
      for (const res of [await u.daily(query), await u.rejections(query), await u.routes(query)]) {
        assert.deepEqual([res.statusCode, res.json()], [400, invalid(key, message, value)], query);
      }
    }
    assert.deepEqual((await u.daily('?days[]=1')).json(), invalid('days', days, ['1']));
    assert.deepEqual((await u.daily('?days=1&days=2')).json(), invalid('days', days, ['1', '2']));
    for (const [query, value] of [['?limit=0', '0'], ['?limit=101', '101'], ['?limit=ten', 'ten']] as const) {
      assert.deepEqual((await u.routes(query)).json(), invalid('limit', limit, value), query);
    }
    // Unknown keys are refused (limit is a key of /routes only).
    assert.deepEqual((await u.daily('?limit=5')).json(), invalid('limit', 'limit is not a valid key'));
    assert.deepEqual((await u.rejections('?from=2024-01-01')).json(), invalid('from', 'from is not a valid key'));
    const two = await u.routes('?days=0&limit=0');
    assert.equal(two.json().error.message, '2 errors occurred');
    assert.deepEqual(two.json().error.details.errors.map((e: Json) => e.path), [['days'], ['limit']]);
    // The bounds themselves are fine.
    assert.equal((await u.daily('?days=1')).json().days.length, 1);
    assert.equal((await u.routes('?days=90&limit=100')).statusCode, 200);
  });

  it('any member may read a project\'s usage; others get 404, the anonymous 401', async () => {
    const viewer = await signup(t);
    await sql(`INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, 'viewer')`, [p.id, viewer.account.id]);
    const asViewer = usageOf(p, viewer);
    const asOwner = usageOf(p);
    for (const path of ['daily', 'routes', 'rejections'] as const) {
      const seen = await asViewer[path]();
      assert.equal(seen.statusCode, 200, seen.body);
      assert.deepEqual(seen.json(), (await asOwner[path]()).json());
    }
    // Project B's owner (a member of B only) and an account of no project: 404 on A's usage.
    const stranger = await signup(t);
    for (const who of [q.owner, stranger]) {
      const u = usageOf(p, who);
      for (const res of [await u.daily(), await u.routes(), await u.rejections(), await u.daily('?days=0')]) {
        assert.deepEqual([res.statusCode, res.json()], [404, NOT_FOUND]);
      }
    }
    const anonymous = await t.inject({ method: 'GET', url: `/v1/projects/${p.slug}/usage/daily` });
    assert.equal(anonymous.statusCode, 401);
    // The viewer of A sees nothing of B either.
    assert.equal((await usageOf(q, viewer).routes()).statusCode, 404);
  });
});
