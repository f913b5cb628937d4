// Two front doors on one database and one Redis: a change made through one is served by the
// other on its next request (Redis pub/sub invalidation of the registry and runtime caches).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../helpers/db.ts';
import { insertProject } from '../helpers/fixtures.ts';
import { call, spawnGateway, type GatewayProcess } from '../helpers/process.ts';

const noteType = (extra: Record<string, unknown> = {}) => ({
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, ...extra },
    },
  },
  components: {},
});

describe('two gateway processes', () => {
  let db: TestDatabase;
  let a: GatewayProcess;
  let b: GatewayProcess;
  before(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${db.name}:`,
      APP_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'warn',
    };
    a = await spawnGateway(env);
    b = await spawnGateway(env);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('serves on B a project created and changed through A', async () => {
    const signup = await call(a.url, 'POST', '/v1/auth/signup', { email: 'two@example.com', password: 'long enough pw' });
    assert.equal(signup.status, 201);
    const token = signup.body.token as string;
    // B learns about the slug being unknown first (negative cache), then the project appears.
    assert.equal((await call(b.url, 'GET', '/p/two-doors/api/i18n/locales')).status, 404);
    const created = await call(a.url, 'POST', '/v1/projects', { name: 'Two doors', slug: 'two-doors' }, token);
    assert.equal(created.status, 201);
    const first = await call(b.url, 'GET', '/p/two-doors/api/i18n/locales');
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.map((l: { code: string }) => l.code), ['en']);
    // B now caches the project; a locale added on A must show on B's next request.
    const added = await call(a.url, 'POST', '/v1/projects/two-doors/locales', { code: 'fr' }, token);
    assert.equal(added.status, 201);
    const second = await call(b.url, 'GET', '/p/two-doors/api/i18n/locales');
    assert.deepEqual(second.body.map((l: { code: string }) => l.code), ['en', 'fr']);
    // A schema push on A is served by B on its next request.
    await call(b.url, 'GET', '/p/two-doors/api/notes'); // B now caches the empty model
    assert.equal((await call(a.url, 'PUT', '/v1/projects/two-doors/schema', noteType(), token)).status, 200);
    assert.equal((await call(a.url, 'PUT', '/v1/projects/two-doors/roles/public/permissions', { permissions: { 'api::note.note': ['find'] } }, token)).status, 200);
    const listed = await call(b.url, 'GET', '/p/two-doors/api/notes');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body, { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    assert.equal((await call(a.url, 'PUT', '/v1/projects/two-doors/schema', noteType({ body: { type: 'text' } }), token)).status, 200);
    const refused = await call(b.url, 'GET', '/p/two-doors/api/notes?fields=body');
    assert.equal(refused.status, 200, JSON.stringify(refused.body));
    assert.equal((await call(a.url, 'PUT', '/v1/projects/two-doors/schema', noteType(), token)).status, 200);
    const gone = await call(b.url, 'GET', '/p/two-doors/api/notes?fields=body');
    assert.equal(gone.status, 400);
    assert.equal(gone.body.error.message, 'Invalid key body');
    // Deleting the project on A makes it unknown on B at once.
    assert.equal((await call(a.url, 'DELETE', '/v1/projects/two-doors', undefined, token)).status, 204);
    assert.equal((await call(b.url, 'GET', '/p/two-doors/api/i18n/locales')).status, 404);
  });
});

describe('two in-process instances: runtime cache invalidation', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await startTestApp();
    b = await startTestApp({ share: a });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('rebuilds the runtime on B after a model push on A, once, and caches it', async () => {
    const { slug } = await insertProject(a, 'runtime-cache');
    const entryB = await b.platform.registry.resolve(slug);
    const before = await b.platform.runtimes.get(entryB!.project);
    assert.equal(before.version, 0);
    assert.deepEqual(Object.keys(before.model.contentTypes), []);

    const entryA = await a.platform.registry.resolve(slug);
    const pushed = await a.platform.models.push(entryA!.project, noteType());
    assert.equal(pushed.version, 1);
    // Pub/sub delivery is asynchronous; give it the time a next request would take to arrive.
    await waitFor(async () => (await b.platform.registry.resolve(slug))!.project.modelVersion === 1);
    const afterPush = await b.platform.runtimes.get((await b.platform.registry.resolve(slug))!.project);
    assert.equal(afterPush.version, 1);
    assert.deepEqual(Object.keys(afterPush.model.contentTypes), ['api::note.note']);
    const builds = b.platform.runtimes.builds;
    const again = await b.platform.runtimes.get((await b.platform.registry.resolve(slug))!.project);
    assert.equal(again, afterPush);
    assert.equal(b.platform.runtimes.builds, builds);

    await a.platform.models.push(entryA!.project, noteType({ body: { type: 'text' } }));
    await waitFor(async () => (await b.platform.registry.resolve(slug))!.project.modelVersion === 2);
    const v2 = await b.platform.runtimes.get((await b.platform.registry.resolve(slug))!.project);
    assert.deepEqual(Object.keys(v2.model.contentTypes['api::note.note']!.attributes), ['title', 'body']);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
