import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';

describe('management API: schema (content-type builder)', () => {
  let t: TestApp;
  let owner: Session;
  let project: { id: number; slug: string };
  const api = () => as(t, owner);
  const url = (p = '') => `/v1/projects/${project.slug}${p}`;
  const tables = async () => (await t.platform.db.pool.anyFirst(compiledQuery({
    text: `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'ct\\_%' ORDER BY 1`, values: [`t_${project.id}`],
  }))) as string[];

  before(async () => {
    t = await startTestApp();
    owner = await signup(t);
    project = await createProject(t, owner, { name: 'Schema' });
  });
  after(async () => t?.close());

  it('starts empty at version 0', async () => {
    const res = await api().get(url('/schema'));
    assert.deepEqual(res.json(), { contentTypes: {}, components: {}, version: 0 });
  });

  it('pushes the blog example: 200, version 1, tables created, GET returns it in declaration order', async () => {
    const blog = blogRawModel();
    const res = await api().put(url('/schema'), blog);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...blog, version: 1 });
    assert.deepEqual(await tables(), ['ct_author', 'ct_post', 'ct_site', 'ct_tag']);
    const got = await api().get(url('/schema'));
    assert.equal(JSON.stringify(got.json()), JSON.stringify({ ...blog, version: 1 }));
    const again = await api().put(url('/schema'), blog);
    assert.equal(again.json().version, 1);
  });

  it('refuses an invalid schema with a path, changing nothing', async () => {
    const blog = blogRawModel();
    (blog.contentTypes['api::tag.tag'] as any).attributes.label.type = 'strnig';
    (blog.contentTypes['api::author.author'] as any).attributes.id = { type: 'string' };
    const res = await api().put(url('/schema'), blog);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.name, 'ValidationError');
    const paths = res.json().error.details.errors.map((e: { path: string[] }) => e.path.join('.'));
    assert.ok(paths.includes('contentTypes.api::tag.tag.attributes.label.type'), paths.join(' | '));
    assert.ok(paths.some((p: string) => p.startsWith('contentTypes.api::author.author.attributes.id')), paths.join(' | '));
    assert.equal((await api().get(url('/schema'))).json().version, 1);
    for (const body of [{ contentTypes: 'x' }, { contentTypes: {}, components: [] }, { nope: 1, contentTypes: {} }, {}]) {
      assert.equal((await api().put(url('/schema'), body)).statusCode, 400, JSON.stringify(body));
    }
  });

  it('refuses changing the pluralName of an existing type', async () => {
    const blog = blogRawModel();
    (blog.contentTypes['api::tag.tag'] as any).info.pluralName = 'labels';
    const res = await api().put(url('/schema'), blog);
    assert.equal(res.statusCode, 400);
    assert.match(res.json().error.message, /pluralName/);
    assert.equal((await api().get(url('/schema'))).json().version, 1);
  });

  it('changes one content type and keeps the data of unchanged attributes (seen through the REST API)', async () => {
    await t.platform.db.pool.query(compiledQuery({
      text: `INSERT INTO "t_${project.id}".ct_tag (document_id, published_at, label, slug) VALUES ('tagdoc000000000000000001', '2026-01-01T00:00:00Z', 'News', 'news')`, values: [],
    }));
    const tag = blogRawModel().contentTypes['api::tag.tag'] as any;
    tag.attributes.color = { type: 'enumeration', enum: ['red', 'blue'] };
    delete tag.attributes.slug;
    const res = await api().put(url('/content-types/api::tag.tag'), tag);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { contentType: tag, version: 2 });
    await api().put(url('/roles/public/permissions'), { permissions: { 'api::tag.tag': ['find'] } });
    const read = await t.inject({ url: `/p/${project.slug}/api/tags?fields=label,color` });
    assert.deepEqual(read.json().data, [{ id: 1, documentId: 'tagdoc000000000000000001', label: 'News', color: null }]);
  });

  it('adds a component, deletes a content type (204, table dropped), 404 for unknown', async () => {
    const comp = await api().put(url('/components/blog.quote'), { info: { displayName: 'Quote' }, attributes: { text: { type: 'text' } } });
    assert.equal(comp.statusCode, 200, comp.body);
    assert.deepEqual(comp.json(), { component: { info: { displayName: 'Quote' }, attributes: { text: { type: 'text' } } }, version: 3 });
    // site references nothing else: it can go alone.
    assert.equal((await api().del(url('/content-types/api::site.site'))).statusCode, 204);
    assert.deepEqual(await tables(), ['ct_author', 'ct_post', 'ct_tag']);
    assert.equal((await api().get(url('/schema'))).json().version, 4);
    assert.equal((await api().del(url('/content-types/api::site.site'))).statusCode, 404);
    // author is the target of post.author: removing it alone is invalid.
    const refused = await api().del(url('/content-types/api::author.author'));
    assert.equal(refused.statusCode, 400);
    assert.equal((await api().get(url('/schema'))).json().version, 4);
  });
});
