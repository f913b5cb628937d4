// REST reads through the gateway: routes per model, permissions of the public role, the JSON
// built by Postgres spliced into Strapi's envelope.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { ModelStore } from '@cms/tenancy';
import { startTestApp, TEST_BASE_DOMAIN, type TestApp } from '../helpers/app.ts';
import { insertProject } from '../helpers/fixtures.ts';

const model = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
        views: { type: 'biginteger' },
        writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'articles' },
      },
    },
    'api::writer.writer': {
      kind: 'collectionType', info: { singularName: 'writer', pluralName: 'writers', displayName: 'Writer' },
      attributes: {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'writer' },
      },
    },
    'api::homepage.homepage': {
      kind: 'singleType', info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
      attributes: { headline: { type: 'string' } },
    },
  },
  components: {},
};

describe('REST reads through the gateway', () => {
  let t: TestApp;
  let slug: string;
  let schema: string;
  const exec = (text: string, values: unknown[] = []) => t.platform.db.pool.query(compiledQuery({ text, values }));
  const setPublic = async (permissions: Record<string, string[]>) => {
    const entry = (await t.platform.registry.resolve(slug))!;
    await exec(`INSERT INTO platform.roles (project_id, type, name, permissions) VALUES ($1, 'public', 'Public', $2::jsonb)
                ON CONFLICT (project_id, type) DO UPDATE SET permissions = EXCLUDED.permissions`, [entry.project.id, JSON.stringify(permissions)]);
    await t.platform.registry.invalidate({ projectId: entry.project.id, slug, scope: 'project' });
  };

  before(async () => {
    t = await startTestApp();
    const p = await insertProject(t, 'reads', ['en', 'fr']);
    slug = p.slug;
    schema = `t_${p.id}`;
    const entry = (await t.platform.registry.resolve(slug))!;
    await new ModelStore(t.platform.db.pool, t.platform.registry).push(entry.project, model);
    await exec(`INSERT INTO "${schema}".ct_writer (id, document_id, published_at, created_at, updated_at, name)
                VALUES (1, 'writerdoc000000000000001', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'Ann')`);
    await exec(`INSERT INTO "${schema}".ct_article (id, document_id, locale, published_at, created_at, updated_at, title, views) VALUES
      (1, 'articledoc00000000000001', 'en', NULL, '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', 'Draft one', 1),
      (2, 'articledoc00000000000001', 'en', '2026-01-03T00:00:00.123Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', 'First', 9007199254740993),
      (3, 'articledoc00000000000002', 'en', '2026-01-04T00:00:00Z', '2026-01-04T00:00:00Z', '2026-01-04T00:00:00Z', 'Second', NULL),
      (4, 'articledoc00000000000002', 'fr', '2026-01-04T00:00:00Z', '2026-01-04T00:00:00Z', '2026-01-04T00:00:00Z', 'Deuxième', NULL)`);
    await exec(`INSERT INTO "${schema}".lnk_ct_article__writer (source_id, target_document_id) VALUES (2, 'writerdoc000000000000001')`);
  });
  after(async () => t?.close());

  it('is private by default: 403 Forbidden for the public role', async () => {
    const res = await t.inject({ url: `/p/${slug}/api/articles` });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
  });

  it('lists published default-locale documents with Strapi pagination meta', async () => {
    await setPublic({ 'api::article.article': ['find', 'findOne'] });
    const res = await t.inject({ url: `/p/${slug}/api/articles` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(res.json(), {
      data: [
        { id: 2, documentId: 'articledoc00000000000001', title: 'First', views: '9007199254740993', createdAt: '2026-01-02T00:00:00.000Z',
          updatedAt: '2026-01-03T00:00:00.000Z', publishedAt: '2026-01-03T00:00:00.123Z', locale: 'en' },
        { id: 3, documentId: 'articledoc00000000000002', title: 'Second', views: null, createdAt: '2026-01-04T00:00:00.000Z',
          updatedAt: '2026-01-04T00:00:00.000Z', publishedAt: '2026-01-04T00:00:00.000Z', locale: 'en' },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
    });
  });

  it('applies status, locale, filters and fields', async () => {
    const drafts = await t.inject({ url: `/p/${slug}/api/articles?status=draft&fields=title` });
    assert.deepEqual(drafts.json().data, [{ id: 1, documentId: 'articledoc00000000000001', title: 'Draft one' }]);
    const fr = await t.inject({ url: `/p/${slug}/api/articles?locale=fr&fields[0]=title` });
    assert.deepEqual(fr.json().data, [{ id: 4, documentId: 'articledoc00000000000002', title: 'Deuxième' }]);
    const filtered = await t.inject({ url: `/p/${slug}/api/articles?filters[title][$startsWith]=Sec&fields=title` });
    assert.deepEqual(filtered.json().data.map((d: { title: string }) => d.title), ['Second']);
  });

  it('gets one document, 404 for unknown documentIds', async () => {
    const one = await t.inject({ url: `/p/${slug}/api/articles/articledoc00000000000002?fields=title` });
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), { data: { id: 3, documentId: 'articledoc00000000000002', title: 'Second' }, meta: {} });
    const missing = await t.inject({ url: `/p/${slug}/api/articles/nope` });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.name, 'NotFoundError');
  });

  it('omits relations whose target the caller may not find, populates them once allowed', async () => {
    const hidden = await t.inject({ url: `/p/${slug}/api/articles/articledoc00000000000001?populate=writer&fields=title` });
    assert.deepEqual(hidden.json().data, { id: 2, documentId: 'articledoc00000000000001', title: 'First' });
    await setPublic({ 'api::article.article': ['find', 'findOne'], 'api::writer.writer': ['find'] });
    const shown = await t.inject({ url: `/p/${slug}/api/articles/articledoc00000000000001?populate[writer][fields][0]=name&fields=title` });
    assert.deepEqual(shown.json().data, {
      id: 2, documentId: 'articledoc00000000000001', title: 'First', writer: { id: 1, documentId: 'writerdoc000000000000001', name: 'Ann' },
    });
  });

  it('answers 400 in the envelope for invalid queries, never 500', async () => {
    for (const [query, message] of [
      ['filters[nope][$eq]=1', 'Invalid key nope'],
      ['filters[title][$nope]=1', 'Invalid key $nope at title'],
      ['sort=title:sideways', 'Invalid order. order can only be one of asc|desc|ASC|DESC'],
      ['status=bogus', 'Invalid status parameter: expected "draft" or "published"'],
      ['filters[views][$gt]=abc', undefined],
    ] as const) {
      const res = await t.inject({ url: `/p/${slug}/api/articles?${query}` });
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error.name, 'ValidationError', query);
      if (message) assert.equal(res.json().error.message, message, query);
    }
  });

  it('serves single types at /api/:singular: 404 until the document exists', async () => {
    await setPublic({ 'api::article.article': ['find', 'findOne'], 'api::homepage.homepage': ['find'] });
    assert.equal((await t.inject({ url: `/p/${slug}/api/homepage` })).statusCode, 404);
    await exec(`INSERT INTO "${schema}".ct_homepage (document_id, published_at, created_at, updated_at, headline)
                VALUES ('homedoc00000000000000001', '2026-01-05T00:00:00Z', '2026-01-05T00:00:00Z', '2026-01-05T00:00:00Z', 'Hello')`);
    const res = await t.inject({ url: `/api/homepage?fields=headline`, headers: { host: `${slug}.${TEST_BASE_DOMAIN}` } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { data: { id: 1, documentId: 'homedoc00000000000000001', headline: 'Hello' }, meta: {} });
    assert.equal((await t.inject({ url: `/p/${slug}/api/homepage/x` })).statusCode, 404);
  });

  it('answers 404 for unknown content types and 401 for unknown credentials', async () => {
    assert.equal((await t.inject({ url: `/p/${slug}/api/nothings` })).statusCode, 404);
    const bad = await t.inject({ url: `/p/${slug}/api/articles`, headers: { authorization: 'Bearer nope' } });
    assert.equal(bad.statusCode, 401);
    assert.deepEqual(bad.json().error, { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} });
    const otherScheme = await t.inject({ url: `/p/${slug}/api/articles`, headers: { authorization: 'Token nope' } });
    assert.equal(otherScheme.statusCode, 200);
  });
});
