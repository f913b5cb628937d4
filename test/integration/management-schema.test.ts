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
  const tables = async (prefix = 'ct') => (await t.platform.db.pool.anyFirst(compiledQuery({
    text: `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE $2 ORDER BY 1`, values: [`t_${project.id}`, `${prefix}\\_%`],
  }))) as string[];
  const version = async () => (await api().get(url('/schema'))).json().version;

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
    assert.deepEqual(await tables('cmp'), ['cmp_blog__cta', 'cmp_blog__figure', 'cmp_blog__meta']);
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

  it('refuses reserved attribute names, unknown relation targets and bad names, each with its path', async () => {
    const cases: [(m: any) => void, string][] = [
      ...['documentId', 'locale', 'publishedAt'].map((name): [(m: any) => void, string] => [
        (m) => { m.contentTypes['api::tag.tag'].attributes[name] = { type: 'string' }; }, `contentTypes.api::tag.tag.attributes.${name}`]),
      [(m) => { m.contentTypes['api::post.post'].attributes.author.target = 'api::nobody.nobody'; }, 'contentTypes.api::post.post.attributes.author'],
      [(m) => { m.contentTypes['api::post.post'].attributes.meta.component = 'blog.nothing'; }, 'contentTypes.api::post.post.attributes.meta'],
      [(m) => { m.contentTypes['api::tag.tag'].info.singularName = 'Tag Name'; }, 'contentTypes.api::tag.tag'],
    ];
    for (const [mutate, path] of cases) {
      const blog = blogRawModel();
      mutate(blog);
      const res = await api().put(url('/schema'), blog);
      assert.equal(res.statusCode, 400, path);
      assert.equal(res.json().error.name, 'ValidationError');
      const paths: string[] = res.json().error.details.errors.map((e: { path: string[] }) => e.path.join('.'));
      assert.ok(paths.some((p) => p.startsWith(path)), `${path} not in ${paths.join(' | ')}`);
    }
    assert.equal(await version(), 1);
  });

  it('answers malformed JSON, wrong body types and over-large bodies with the envelope, changing nothing', async () => {
    const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
    const bad = await t.inject({ method: 'PUT', url: url('/schema'), headers, payload: '{"contentTypes": {' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.name, 'SyntaxError');
    const huge = await t.inject({ method: 'PUT', url: url('/schema'), headers, payload: JSON.stringify({ contentTypes: {}, components: { pad: 'x'.repeat(1_100_000) } }) });
    assert.equal(huge.statusCode, 413);
    assert.equal(huge.json().error.name, 'PayloadTooLargeError');
    for (const [path, body] of [['/content-types/api::tag.tag', []], ['/content-types/api::tag.tag', 'x'], ['/components/blog.cta', 42]] as const) {
      const res = await t.inject({ method: 'PUT', url: url(path), headers, payload: JSON.stringify(body) });
      assert.equal(res.statusCode, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(res.json().error.name, 'ValidationError');
    }
    assert.equal(await version(), 1);
  });

  it('refuses a content type whose uid does not match its singularName', async () => {
    const tag = blogRawModel().contentTypes['api::tag.tag'];
    const res = await api().put(url('/content-types/api::label.label'), tag);
    assert.equal(res.statusCode, 400);
    assert.ok(res.json().error.details.errors.some((e: { path: string[] }) => e.path.join('.').startsWith('contentTypes.api::label.label')));
    assert.equal(await version(), 1);
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

describe('management API: concurrent partial schema edits', () => {
  let t: TestApp;
  after(async () => t?.close());

  it('keeps every one of several concurrent content-type PUTs', async () => {
    t = await startTestApp();
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'Concurrent' });
    const type = (name: string) => ({ kind: 'collectionType', info: { singularName: name, pluralName: `${name}s`, displayName: name }, attributes: { title: { type: 'string' } } });
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const results = await Promise.all(names.map((n) => as(t, owner).put(`/v1/projects/${project.slug}/content-types/api::${n}.${n}`, type(n))));
    assert.deepEqual(results.map((r) => r.statusCode), names.map(() => 200));
    const schema = (await as(t, owner).get(`/v1/projects/${project.slug}/schema`)).json();
    assert.deepEqual(Object.keys(schema.contentTypes).sort(), names.map((n) => `api::${n}.${n}`).sort());
    assert.equal(schema.version, names.length);
  });
});
