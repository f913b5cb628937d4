import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';

// POST /v1/projects/{slug}/schema/plan: what a push would do, rehearsed and rolled back.
describe('management API: schema plan (preview before applying)', () => {
  let t: TestApp;
  let owner: Session;
  let project: { id: number; slug: string };
  const api = () => as(t, owner);
  const url = (p = '') => `/v1/projects/${project.slug}${p}`;
  const tables = async () => (await t.platform.db.pool.anyFirst(compiledQuery({
    text: `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'ct\\_%' ORDER BY 1`, values: [`t_${project.id}`],
  }))) as string[];
  const version = async () => (await api().get(url('/schema'))).json().version as number;
  const labels = async () => (await t.platform.db.pool.anyFirst(compiledQuery({
    text: `SELECT label FROM "t_${project.id}".ct_tag ORDER BY id`, values: [],
  }))) as string[];

  before(async () => {
    t = await startTestApp();
    owner = await signup(t);
    project = await createProject(t, owner, { name: 'Plan' });
  });
  after(async () => t?.close());

  it('lists the steps of a first model without creating anything', async () => {
    const res = await api().post(url('/schema/plan'), blogRawModel());
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.changed, true);
    assert.equal(body.destructive, false);
    assert.deepEqual(body.changes.filter((c: { op: string }) => c.op === 'createContentType').map((c: { type: string }) => c.type).sort(),
      ['api::author.author', 'api::post.post', 'api::site.site', 'api::tag.tag']);
    assert.deepEqual(body.changes.find((c: { type: string }) => c.type === 'api::tag.tag'),
      { op: 'createContentType', type: 'api::tag.tag', attribute: null, description: 'create content type api::tag.tag', destructive: false });
    assert.equal(await version(), 0);
    assert.deepEqual(await tables(), []);
  });

  it('an unchanged model plans nothing; a display-only change is a change without steps', async () => {
    const blog = blogRawModel();
    assert.equal((await api().put(url('/schema'), blog)).statusCode, 200);
    assert.deepEqual((await api().post(url('/schema/plan'), blog)).json(), { changed: false, destructive: false, changes: [] });
    (blog.contentTypes['api::tag.tag'] as { info: { displayName: string } }).info.displayName = 'Label';
    assert.deepEqual((await api().post(url('/schema/plan'), blog)).json(), { changed: true, destructive: false, changes: [] });
    assert.equal(await version(), 1);
  });

  it('marks dropped attributes and types as destructive, and keeps their data', async () => {
    await t.platform.db.pool.query(compiledQuery({
      text: `INSERT INTO "t_${project.id}".ct_tag (document_id, published_at, label, slug) VALUES ('tagdoc000000000000000001', now(), 'News', 'news'), ('tagdoc000000000000000002', now(), 'News', 'news-2')`, values: [],
    }));
    const blog = blogRawModel();
    delete (blog.contentTypes['api::tag.tag'] as { attributes: Record<string, unknown> }).attributes.slug;
    (blog.contentTypes['api::tag.tag'] as { attributes: Record<string, unknown> }).attributes.color = { type: 'string' };
    delete blog.contentTypes['api::site.site'];
    const res = await api().post(url('/schema/plan'), blog);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      changed: true,
      destructive: true,
      changes: [
        { op: 'dropContentType', type: 'api::site.site', attribute: null, description: 'drop content type api::site.site', destructive: true },
        { op: 'dropAttribute', type: 'api::tag.tag', attribute: 'slug', description: 'drop attribute slug of api::tag.tag', destructive: true },
        { op: 'addAttribute', type: 'api::tag.tag', attribute: 'color', description: 'add attribute color to api::tag.tag', destructive: false },
      ],
    });
    assert.deepEqual(await tables(), ['ct_author', 'ct_post', 'ct_site', 'ct_tag']);
    assert.deepEqual(await labels(), ['News', 'News']);
    assert.equal(await version(), 1);
  });

  it('answers a change the data refuses with the same 400 as the push would, naming the attribute', async () => {
    const blog = blogRawModel();
    (blog.contentTypes['api::tag.tag'] as { attributes: Record<string, Record<string, unknown>> }).attributes.label!.unique = true;
    const planned = await api().post(url('/schema/plan'), blog);
    assert.equal(planned.statusCode, 400);
    const pushed = await api().put(url('/schema'), blog);
    assert.equal(pushed.statusCode, 400);
    assert.deepEqual(planned.json(), pushed.json());
    assert.deepEqual(planned.json().error.details.errors, [{
      path: ['contentTypes', 'api::tag.tag', 'attributes', 'label'],
      message: 'Cannot make attribute "label" of api::tag.tag unique: published entries share the same value',
      name: 'ValidationError',
    }]);
    assert.equal(await version(), 1);
  });

  it('expectedVersion: a stale copy is refused with 409 by the plan and the push, the current one applies', async () => {
    const blog = blogRawModel();
    (blog.contentTypes['api::tag.tag'] as { attributes: Record<string, unknown> }).attributes.color = { type: 'string' };
    for (const res of [await api().post(url('/schema/plan'), { ...blog, expectedVersion: 0 }), await api().put(url('/schema'), { ...blog, expectedVersion: 0 })]) {
      assert.equal(res.statusCode, 409);
      assert.deepEqual(res.json(), {
        data: null,
        error: { status: 409, name: 'ApplicationError', message: 'The model changed since version 0 (it is now version 1): reload it and apply again', details: { version: 1 } },
      });
    }
    assert.equal(await version(), 1);
    const applied = await api().put(url('/schema'), { ...blog, expectedVersion: 1 });
    assert.equal(applied.statusCode, 200, applied.body);
    assert.equal(applied.json().version, 2);
    assert.equal((await api().post(url('/schema/plan'), { contentTypes: {}, expectedVersion: -1 })).statusCode, 400);
  });

  it('needs a session, and another account\'s project is 404 whatever the body', async () => {
    assert.equal((await t.inject({ method: 'POST', url: url('/schema/plan'), payload: blogRawModel() })).statusCode, 401);
    const stranger = await signup(t);
    const res = await as(t, stranger).post(url('/schema/plan'), { contentTypes: {} });
    assert.equal(res.statusCode, 404);
    assert.equal(await version(), 2);
    assert.equal((await as(t, stranger).post(url('/schema/plan'), 'not json')).statusCode, 404);
  });
});
