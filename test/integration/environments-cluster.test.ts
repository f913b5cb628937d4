// Environments of a project on another Postgres cluster (DATABASE_URLS): the environment lives on
// its parent's cluster (the copy is one transaction there), that cluster's copy of the control row
// knows its parent (so a file delete in the parent's transaction keeps what the environment shows),
// and it serves its parent's content.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { column } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { multipart } from '../helpers/multipart.ts';

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true }, attributes: { title: { type: 'string' }, cover: { type: 'media', multiple: false } },
    },
  },
  components: {},
};

describe('environments on another cluster', () => {
  let second: TestDatabase;
  let t: TestApp;
  const projects: ContentProject[] = [];

  before(async () => {
    second = await createTestDatabase('cms_test_env_second');
    t = await startTestApp({ env: { DATABASE_URLS: `second=${second.url}` } });
  });
  after(async () => {
    await t?.close();
    await second?.drop();
  });

  it('copies the project on its own cluster and keeps the files the environment shows', async () => {
    for (let i = 0; i < 2; i++) projects.push(await setupContentProject(t, MODEL));
    const clusterOf = async (slug: string) => (await column(t.platform.db.pool, 'SELECT cluster FROM platform.projects WHERE slug = $1', [slug]))[0];
    const p = (await Promise.all(projects.map(async (x) => ((await clusterOf(x.slug)) === 'second' ? x : null)))).find((x) => x !== null)!;
    assert.ok(p, 'a project on the second cluster');
    const body = await multipart({ files: { name: 'cover.txt', content: Buffer.from('the cover'), type: 'text/plain' } });
    const uploaded = await p.api.raw('POST', '/api/upload', body);
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const file = uploaded.json()[0];
    const made = await p.api.post('/api/articles', { data: { title: 'on second', cover: file.id } });
    assert.equal(made.statusCode, 201, made.body);

    const created = await p.admin.post(`/v1/projects/${p.slug}/environments`, { name: 'staging' });
    assert.equal(created.statusCode, 202, created.body);
    await t.platform.environments.settled();
    const envSlug = `${p.slug}--staging`;
    assert.equal(await clusterOf(envSlug), 'second');
    const [envId] = await column(t.platform.db.pool, 'SELECT id::text FROM platform.projects WHERE slug = $1', [envSlug]);
    const [envSchema] = await column(t.platform.db.pool, 'SELECT schema_name FROM platform.projects WHERE slug = $1', [envSlug]);
    const secondPool = t.platform.db.poolOf('second');
    assert.deepEqual(await column(secondPool, 'SELECT parent_id::text FROM platform.projects WHERE id = $1', [envId]), [String(p.id)]);
    assert.deepEqual(await column(secondPool, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [envSchema]), ['1']);
    assert.deepEqual(await column(t.platform.db.pool, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [envSchema]), []);
    // Roles were mirrored there too (the API token's reads and the copied roles).
    assert.deepEqual(await column(secondPool, 'SELECT type FROM platform.roles WHERE project_id = $1 ORDER BY type', [envId]), ['authenticated', 'public']);

    const token = (await p.admin.post(`/v1/projects/${envSlug}/api-tokens`, { name: 'read', type: 'full-access' })).json().accessKey as string;
    const read = 'articles?status=draft&populate=*';
    const env = (url: string) => t.inject({ method: 'GET', url: `/p/${envSlug}/api/${url}`, headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual((await env(read)).json(), (await p.api.get(`/api/${read}`)).json());

    // Deleted in the parent (in its transaction on the second cluster): the environment keeps it.
    assert.equal((await p.api.del(`/api/upload/files/${file.id}`)).statusCode, 200);
    const served = await t.inject({ method: 'GET', url: `/p/${envSlug}${file.url}` });
    assert.equal(served.statusCode, 200);
    assert.equal(served.body, 'the cover');

    assert.equal((await p.admin.del(`/v1/projects/${p.slug}/environments/staging`)).statusCode, 204);
    assert.deepEqual(await column(secondPool, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [envSchema]), []);
  });
});
