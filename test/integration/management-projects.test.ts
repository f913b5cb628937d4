import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
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
    assert.deepEqual(Object.keys(project), ['id', 'slug', 'name', 'defaultLocale', 'apiUrl', 'graphqlUrl', 'plan', 'createdAt']);
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

  it('lists only the account’s own projects', async () => {
    const mine = (await as(t, alice).get('/v1/projects')).json().projects.map((p: { slug: string }) => p.slug);
    assert.deepEqual(mine, ['acme-blog', 'my-shop']);
    const bobs = (await as(t, bob).get('/v1/projects')).json().projects.map((p: { slug: string }) => p.slug);
    assert.equal(bobs.length, 1);
  });

  it('answers 404 to another account on every project endpoint, changing nothing', async () => {
    const b = as(t, bob);
    const attempts = [
      b.get('/v1/projects/acme-blog'), b.del('/v1/projects/acme-blog'),
      b.get('/v1/projects/acme-blog/schema'), b.put('/v1/projects/acme-blog/schema', { contentTypes: {}, components: {} }),
      b.put('/v1/projects/acme-blog/content-types/api::x.x', { kind: 'collectionType' }), b.del('/v1/projects/acme-blog/content-types/api::x.x'),
      b.put('/v1/projects/acme-blog/components/a.b', {}),
      b.get('/v1/projects/acme-blog/locales'), b.post('/v1/projects/acme-blog/locales', { code: 'de' }), b.del('/v1/projects/acme-blog/locales/en'),
      b.get('/v1/projects/acme-blog/roles'), b.post('/v1/projects/acme-blog/roles', { type: 'editor', name: 'Editor' }),
      b.put('/v1/projects/acme-blog/roles/public/permissions', { permissions: {} }), b.del('/v1/projects/acme-blog/roles/public'),
      b.get('/v1/projects/acme-blog/api-tokens'), b.post('/v1/projects/acme-blog/api-tokens', { name: 'x', type: 'full-access' }),
      b.del('/v1/projects/acme-blog/api-tokens/1'), b.get('/v1/projects/acme-blog/usage'),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.statusCode, 404, `${res.statusCode} ${res.body}`);
      assert.deepEqual(res.json(), notFound);
    }
    const still = await as(t, alice).get('/v1/projects/acme-blog');
    assert.equal(still.statusCode, 200);
    assert.deepEqual((await as(t, alice).get('/v1/projects/acme-blog/locales')).json().locales.map((l: { code: string }) => l.code), ['en']);
    assert.equal((await as(t, alice).get('/v1/projects/acme-blog/api-tokens')).json().apiTokens.length, 0);
  });

  it('deletes a project: 204, schema dropped, tokens/roles/locales rows gone, slug unknown', async () => {
    const project = await createProject(t, alice, { name: 'Doomed' });
    await as(t, alice).post(`/v1/projects/${project.slug}/api-tokens`, { name: 'k', type: 'read-only' });
    assert.ok(await schemaExists(`t_${project.id}`));
    const res = await as(t, alice).del(`/v1/projects/${project.slug}`);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(await schemaExists(`t_${project.id}`), false);
    for (const table of ['api_tokens', 'roles', 'locales']) {
      const n = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM platform.${table} WHERE project_id = $1`, values: [project.id] }));
      assert.equal(Number(n), 0, table);
    }
    assert.equal((await as(t, alice).get(`/v1/projects/${project.slug}`)).statusCode, 404);
    assert.equal((await t.inject({ url: `/p/${project.slug}/api/i18n/locales` })).statusCode, 404);
  });
});
