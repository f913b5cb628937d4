import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { as, count, createProject, signup, type Session } from '../helpers/management.ts';

const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

describe('management API: projects and isolation', () => {
  let t: TestApp;
  let alice: Session;
  let bob: Session;
  const schemaExists = async (name: string) =>
    Boolean(await t.platform.db.pool.maybeOneFirst(compiledQuery({ text: 'SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', values: [name] })));

  before(async () => {
    t = await startTestApp();
    alice = await signup(t);
    bob = await signup(t);
  });
  after(async () => t?.close());

  it('creates a project: 201 with the contract shape, its schema, default locale and roles', async () => {
    const res = await as(t, alice).post('/v1/projects', { name: 'Acme Blog' });
    assert.equal(res.statusCode, 201);
    const { project } = res.json();
    assert.deepEqual(Object.keys(project), ['id', 'slug', 'name', 'defaultLocale', 'apiUrl', 'graphqlUrl', 'plan', 'createdAt', 'role']);
    assert.equal(project.role, 'owner');
    assert.equal(project.slug, 'acme-blog');
    assert.equal(project.name, 'Acme Blog');
    assert.equal(project.defaultLocale, 'en');
    assert.equal(project.plan, 'free');
    // inject() sends `Host: localhost:80`: the URLs follow the request's origin.
    assert.equal(project.apiUrl, 'http://localhost:80/p/acme-blog/api');
    assert.equal(project.graphqlUrl, 'http://localhost:80/p/acme-blog/graphql');
    assert.match(project.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(await schemaExists(`t_${project.id}`));
    const files = await t.platform.db.pool.maybeOneFirst(compiledQuery({ text: `SELECT to_regclass($1)::text`, values: [`t_${project.id}.files`] }));
    assert.equal(files, `t_${project.id}.files`);
    const roles = await as(t, alice).get('/v1/projects/acme-blog/roles');
    assert.deepEqual(roles.json(), { roles: [{ type: 'public', name: 'Public', permissions: {} }, { type: 'authenticated', name: 'Authenticated', permissions: {} }] });
    const locales = await as(t, alice).get('/v1/projects/acme-blog/locales');
    assert.deepEqual(locales.json(), { locales: [{ code: 'en', name: 'English (en)', isDefault: true }] });
  });

  it('takes a given slug and defaultLocale; a clashing given slug is 409, a derived one gets a suffix', async () => {
    const given = await createProject(t, alice, { name: 'Whatever', slug: 'my-shop', defaultLocale: 'fr' });
    assert.equal(given.slug, 'my-shop');
    assert.equal((await as(t, alice).get('/v1/projects/my-shop')).json().project.defaultLocale, 'fr');
    const clash = await as(t, bob).post('/v1/projects', { name: 'x', slug: 'my-shop' });
    assert.equal(clash.statusCode, 409);
    assert.equal(clash.json().error.name, 'ApplicationError');
    const derived = await createProject(t, bob, { name: 'Acme Blog' });
    assert.match(derived.slug, /^acme-blog-[0-9a-f]{6}$/);
  });

  it('refuses bad names, slugs and locales with 400, writing nothing', async () => {
    const before = await count(t, 'projects');
    const schemasBefore = Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: "SELECT count(*) FROM information_schema.schemata WHERE schema_name LIKE 't\\_%'", values: [] })));
    for (const body of [
      { name: '' }, { name: 'x'.repeat(10_000) }, { name: 42 }, { name: 'ok', slug: 'a' }, { name: 'ok', slug: 'Bad-Slug' },
      { name: 'ok', slug: "x'; DROP SCHEMA platform CASCADE; --" }, { name: 'ok', slug: 'ünïcødé' }, { name: 'ok', slug: 'a'.repeat(10_000) },
      { name: 'ok', slug: 'ends-with-' }, { name: 'ok', defaultLocale: 'xx-YY' }, { name: 'ok', defaultLocale: "en'--" }, { name: 'ok', extra: 1 },
    ]) {
      const res = await as(t, alice).post('/v1/projects', body);
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json().error.name, 'ValidationError');
    }
    assert.equal(await count(t, 'projects'), before);
    const schemasAfter = Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: "SELECT count(*) FROM information_schema.schemata WHERE schema_name LIKE 't\\_%'", values: [] })));
    assert.equal(schemasAfter, schemasBefore);
  });

  it('stores names with SQL metacharacters and unicode verbatim; refuses control characters; derives slugs', async () => {
    const name = `Café ☕ '); DROP SCHEMA platform CASCADE; -- "x" \\ $1`;
    const res = await as(t, bob).post('/v1/projects', { name });
    assert.equal(res.statusCode, 201);
    const { project } = res.json();
    assert.equal(project.name, name);
    assert.equal(project.slug, 'cafe-drop-schema-platform-cascade-x-1');
    const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT name FROM platform.projects WHERE id = $1', values: [project.id] }));
    assert.equal(stored, name);
    const symbols = await createProject(t, bob, { name: '☕☕ 42' });
    assert.equal(symbols.slug, 'project');
    const long = await createProject(t, bob, { name: `${'Very Long Name '.repeat(6)}`.slice(0, 90) });
    assert.match(long.slug, /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/);
    assert.equal(long.slug, 'very-long-name-very-long-name-very-long');
    const before = await count(t, 'projects');
    for (const bad of ['a\u0000b', 'tab\there', 'bell\u0007', '\ud800 lone surrogate', '   ']) {
      const r = await as(t, bob).post('/v1/projects', { name: bad });
      assert.equal(r.statusCode, 400, bad);
      assert.deepEqual(r.json().error.details.errors.map((e: { path: string[] }) => e.path), [['name']]);
    }
    assert.equal(await count(t, 'projects'), before);
    for (const slug of [project.slug, symbols.slug, long.slug]) assert.equal((await as(t, bob).del(`/v1/projects/${slug}`)).statusCode, 204);
  });

  it('gets one project with the same JSON as at creation; lists exactly the contract shape', async () => {
    const created = (await as(t, alice).post('/v1/projects', { name: 'Shape', slug: 'shape-check' })).json().project;
    const got = await as(t, alice).get('/v1/projects/shape-check');
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), { project: created });
    const listed = (await as(t, alice).get('/v1/projects')).json();
    assert.deepEqual(Object.keys(listed), ['projects']);
    assert.deepEqual(listed.projects.find((p: { slug: string }) => p.slug === 'shape-check'), created);
    // The URLs follow the origin the request came through.
    const viaHost = await t.inject({ url: '/v1/projects/shape-check', headers: { authorization: `Bearer ${alice.token}`, host: 'api.example.org:8443' } });
    assert.equal(viaHost.json().project.apiUrl, 'http://api.example.org:8443/p/shape-check/api');
    assert.equal((await as(t, alice).del('/v1/projects/shape-check')).statusCode, 204);
  });

  it('answers 404 to its owner for an unknown slug on every project endpoint', async () => {
    const a = as(t, alice);
    for (const slug of ['nope-nope', 'x', "a'--", '%C3%BC', 'a'.repeat(200)]) {
      const base = `/v1/projects/${slug}`;
      const attempts = [
        a.get(base), a.del(base), a.get(`${base}/schema`), a.put(`${base}/schema`, { contentTypes: {} }), a.put(`${base}/content-types/api::x.x`, {}),
        a.del(`${base}/content-types/api::x.x`), a.put(`${base}/components/a.b`, {}), a.get(`${base}/locales`), a.post(`${base}/locales`, { code: 'de' }),
        a.del(`${base}/locales/en`), a.get(`${base}/roles`), a.post(`${base}/roles`, { type: 'x', name: 'x' }), a.put(`${base}/roles/public/permissions`, { permissions: {} }),
        a.del(`${base}/roles/x`), a.get(`${base}/api-tokens`), a.post(`${base}/api-tokens`, { name: 'x', type: 'read-only' }), a.del(`${base}/api-tokens/1`), a.get(`${base}/usage`),
      ];
      for (const res of await Promise.all(attempts)) {
        assert.equal(res.statusCode, 404, `${slug.slice(0, 20)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        assert.deepEqual(res.json(), notFound);
      }
    }
  });

  it('lists only the account’s own projects', async () => {
    const mine = (await as(t, alice).get('/v1/projects')).json().projects.map((p: { slug: string }) => p.slug);
    assert.deepEqual(mine, ['acme-blog', 'my-shop']);
    const bobs = (await as(t, bob).get('/v1/projects')).json().projects.map((p: { slug: string }) => p.slug);
    assert.equal(bobs.length, 1);
  });

  it('answers 404 to another account on every project endpoint, whatever the body, changing nothing', async () => {
    const a = as(t, alice);
    const base = '/v1/projects/acme-blog';
    // Give Alice's project some state to protect.
    assert.equal((await a.put(`${base}/schema`, blogRawModel())).statusCode, 200);
    assert.equal((await a.post(`${base}/locales`, { code: 'fr' })).statusCode, 201);
    assert.equal((await a.post(`${base}/roles`, { type: 'editor', name: 'Editor' })).statusCode, 201);
    assert.equal((await a.put(`${base}/roles/public/permissions`, { permissions: { 'api::post.post': ['find'] } })).statusCode, 200);
    const token = (await a.post(`${base}/api-tokens`, { name: 'ci', type: 'full-access' })).json();
    const snapshot = async () => Promise.all(['', '/schema', '/locales', '/roles', '/api-tokens'].map(async (p) => (await a.get(`${base}${p}`)).json()));
    const before = await snapshot();
    const counts = async () => Promise.all(['projects', 'schema_versions', 'locales', 'roles', 'api_tokens'].map((table) => count(t, table)));
    const countsBefore = await counts();

    const b = as(t, bob);
    const attempts = [
      b.get(base), b.del(base),
      b.get(`${base}/schema`), b.put(`${base}/schema`, { contentTypes: {}, components: {} }), b.put(`${base}/schema`, { nope: 1 }), b.put(`${base}/schema`),
      b.put(`${base}/content-types/api::post.post`, { kind: 'collectionType' }), b.del(`${base}/content-types/api::post.post`),
      b.put(`${base}/components/blog.cta`, {}), b.put(`${base}/components/blog.cta`, []),
      b.get(`${base}/locales`), b.post(`${base}/locales`, { code: 'de' }), b.post(`${base}/locales`, {}), b.del(`${base}/locales/fr`),
      b.get(`${base}/roles`), b.post(`${base}/roles`, { type: 'hacker', name: 'Hacker' }), b.post(`${base}/roles`, { type: 'Bad Type' }),
      b.put(`${base}/roles/public/permissions`, { permissions: {} }), b.put(`${base}/roles/public/permissions`, { permissions: 'all' }), b.del(`${base}/roles/editor`),
      b.get(`${base}/api-tokens`), b.post(`${base}/api-tokens`, { name: 'x', type: 'full-access' }), b.post(`${base}/api-tokens`, { type: 'god' }),
      b.del(`${base}/api-tokens/${token.apiToken.id}`), b.get(`${base}/usage`),
      t.inject({ method: 'POST', url: `${base}/locales`, headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' }, payload: '{"code": ' }),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.statusCode, 404, `${res.statusCode} ${res.body.slice(0, 200)}`);
      assert.deepEqual(res.json(), notFound);
    }
    assert.deepEqual(await snapshot(), before);
    assert.deepEqual(await counts(), countsBefore);
    // Alice's token still works on her project's content API.
    assert.equal((await t.inject({ url: '/p/acme-blog/api/posts', headers: { authorization: `Bearer ${token.accessKey}` } })).statusCode, 200);
  });

  it('deletes a project: 204, schema dropped, tokens/roles/locales rows gone, slug unknown', async () => {
    const project = await createProject(t, alice, { name: 'Doomed' });
    const key = (await as(t, alice).post(`/v1/projects/${project.slug}/api-tokens`, { name: 'k', type: 'read-only' })).json().accessKey;
    assert.equal((await as(t, alice).put(`/v1/projects/${project.slug}/schema`, blogRawModel())).statusCode, 200);
    assert.equal((await as(t, alice).post(`/v1/projects/${project.slug}/locales`, { code: 'de' })).statusCode, 201);
    // The content API knows the project (and caches the token) before the deletion.
    assert.equal((await t.inject({ url: `/p/${project.slug}/api/posts`, headers: { authorization: `Bearer ${key}` } })).statusCode, 200);
    await t.platform.usage.flush();
    for (const table of ['api_tokens', 'roles', 'locales', 'schema_versions', 'usage_counters']) {
      const n = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM platform.${table} WHERE project_id = $1`, values: [project.id] }));
      assert.ok(Number(n) > 0, table);
    }
    assert.ok(await schemaExists(`t_${project.id}`));
    // The projects deleted by the tests before are purged first.
    await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
    const res = await as(t, alice).del(`/v1/projects/${project.slug}`);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    // At once: 404 everywhere (below); the data stays for the restore window, then is purged.
    assert.ok(await schemaExists(`t_${project.id}`));
    assert.equal((await as(t, alice).get(`/v1/projects/${project.slug}`)).statusCode, 404);
    assert.deepEqual((await t.platform.maintenance.round(new Date(Date.now() + 6 * 86_400_000), ['purge'])).purged, []);
    assert.ok(await schemaExists(`t_${project.id}`));
    assert.deepEqual((await t.platform.maintenance.round(new Date(Date.now() + 7 * 86_400_000 + 60_000), ['purge'])).purged, [project.slug]);
    assert.equal(await schemaExists(`t_${project.id}`), false);
    for (const table of ['api_tokens', 'roles', 'locales', 'schema_versions', 'usage_counters']) {
      const n = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM platform.${table} WHERE project_id = $1`, values: [project.id] }));
      assert.equal(Number(n), 0, table);
    }
    assert.equal((await as(t, alice).get(`/v1/projects/${project.slug}`)).statusCode, 404);
    assert.equal((await t.inject({ url: `/p/${project.slug}/api/i18n/locales` })).statusCode, 404);
    assert.equal((await t.inject({ url: `/p/${project.slug}/api/posts`, headers: { authorization: `Bearer ${key}` } })).statusCode, 404);
    assert.equal((await t.platform.apiTokens.check(key)).status, 'unknown');
    assert.equal((await as(t, alice).del(`/v1/projects/${project.slug}`)).statusCode, 404);
    // The slug is free again, for anyone.
    const again = await createProject(t, bob, { name: 'Doomed', slug: project.slug });
    assert.notEqual(again.id, project.id);
    assert.ok(await schemaExists(`t_${again.id}`));
  });
});
