// A document created published (draft & publish) whose component and relations fit in one
// statement gets its draft and published rows from that statement (@cms/documents fresh-row.ts),
// not from publishing's copy. The rows must be the ones the copy gives: compared with a document
// created as a draft and published afterwards (the copy), row by row, and its answers with that
// document's. A missing relation target still refuses the whole write.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';

const ct = (singular: string, plural: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType', info: { singularName: singular, pluralName: plural, displayName: singular }, attributes, ...extra,
});

const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string', required: true },
      rating: { type: 'integer', default: 3 },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
      seo: { type: 'component', component: 'shared.seo' },
    }, { options: { draftAndPublish: true } }),
    'api::author.author': ct('author', 'authors', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
    }),
    'api::tag.tag': ct('tag', 'tags', {
      label: { type: 'string' },
      articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
    }),
  },
  components: {
    'shared.seo': { info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' }, metaDescription: { type: 'text' } } },
  },
};

describe('create published in one statement', () => {
  let t: TestApp;
  let p: ContentProject;
  let author: string;
  let tags: string[];
  const query = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Record<string, unknown>>;
  const body = (title: string) => ({ title, author, tags, seo: { metaTitle: `SEO ${title}`, metaDescription: 'About it' } });

  /** The document's rows: versions (draft first), their component rows and link rows, with ids only as ranks. */
  async function rowsOf(documentId: string) {
    const versions = await query(
      `SELECT id::text, title, rating, published_at IS NOT NULL AS published, created_at = updated_at AS untouched, created_at::text AS created
       FROM "${p.schema}".ct_article WHERE document_id = $1 ORDER BY id`, [documentId]);
    const ids = versions.map((v) => v.id as string);
    const seo = await query(
      `SELECT id::text, array_position($1::text[], owner_id::text) AS version, owner_type, owner_field, ord, "metaTitle", "metaDescription"
       FROM "${p.schema}".cmp_shared__seo WHERE owner_id = ANY($1::bigint[]) ORDER BY id`, [ids]);
    const links = async (table: string) => query(
      `SELECT id::text, array_position($1::text[], source_id::text) AS version, target_document_id, ord, inv_ord
       FROM "${p.schema}".${table} WHERE source_id = ANY($1::bigint[]) ORDER BY id`, [ids]);
    return { versions, seo, authorLinks: await links('lnk_ct_article__author'), tagLinks: await links('lnk_ct_article__tags') };
  }

  const ascending = (ids: unknown[]) => ids.every((id, i) => i === 0 || BigInt(id as string) > BigInt(ids[i - 1] as string));

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL);
    author = (await p.api.post('/api/authors', { data: { name: 'Ann' } })).json().data.documentId;
    tags = [];
    for (const label of ['red', 'green']) tags.push((await p.api.post('/api/tags', { data: { label } })).json().data.documentId);
  });
  after(async () => t?.close());

  it('writes the rows publishing a draft writes, and answers the same', async () => {
    const created = await p.api.post('/api/articles', { data: body('Direct') });
    assert.equal(created.statusCode, 201, created.body);
    const direct = created.json().data;
    const draft = (await p.api.post('/api/articles?status=draft', { data: body('Copied') })).json().data;
    const published = await p.api.put(`/api/articles/${draft.documentId}?status=published`, { data: {} });
    assert.equal(published.statusCode, 200, published.body);

    const a = await rowsOf(direct.documentId);
    const b = await rowsOf(draft.documentId);
    // Versions: a draft and its published version, same values and timestamps, draft first.
    assert.deepEqual(a.versions.map((v) => [v.title, v.rating, v.published, v.untouched]), [['Direct', 3, false, true], ['Direct', 3, true, true]]);
    assert.equal(a.versions[0]!.created, a.versions[1]!.created);
    assert.deepEqual(b.versions.map((v) => [v.published]), [[false], [true]]);
    assert.equal(direct.id, Number(a.versions[1]!.id), 'the answer is the published row');
    // One seo row per version, in version order, same values.
    const seo = (rows: Array<Record<string, unknown>>) => rows.map(({ id: _id, ...r }) => r);
    assert.deepEqual(seo(a.seo), [
      { version: 1, owner_type: 'api::article.article', owner_field: 'seo', ord: 0, metaTitle: 'SEO Direct', metaDescription: 'About it' },
      { version: 2, owner_type: 'api::article.article', owner_field: 'seo', ord: 0, metaTitle: 'SEO Direct', metaDescription: 'About it' },
    ]);
    assert.deepEqual(seo(a.seo).map((r) => ({ ...r, metaTitle: '' })), seo(b.seo).map((r) => ({ ...r, metaTitle: '' })));
    // Links: the draft's, then the published version's with the same order and inverse order.
    for (const key of ['authorLinks', 'tagLinks'] as const) {
      const shape = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.version, r.target_document_id, r.ord]);
      assert.deepEqual(shape(a[key]), shape(b[key]), key);
      const inv = (rows: Array<Record<string, unknown>>, version: number) => rows.filter((r) => r.version === version).map((r) => r.inv_ord);
      assert.deepEqual(inv(a[key], 2), inv(a[key], 1), `${key}: the published links keep the draft's inverse order`);
      assert.deepEqual(inv(b[key], 2), inv(b[key], 1));
      // Created after the direct document: one further back in each target's list.
      assert.deepEqual(inv(b[key], 1), inv(a[key], 1).map((n) => Number(n) + 1));
    }
    assert.deepEqual(shapeOf(a.tagLinks), [[1, tags[0], 1], [1, tags[1], 2], [2, tags[0], 1], [2, tags[1], 2]]);
    for (const rows of [a.versions, a.seo, a.authorLinks, a.tagLinks]) assert.ok(ascending(rows.map((r) => r.id)), 'ids in version order');

    // Answers: the same as the copied document's, published and draft, with everything populated.
    const strip = (d: Record<string, unknown>) => JSON.parse(JSON.stringify(d, (k, v) => (['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'].includes(k) ? typeof v : k === 'title' || k === 'metaTitle' ? '' : v)));
    for (const status of ['published', 'draft']) {
      const q = `?status=${status}&populate=*`;
      const one = (await p.api.get(`/api/articles/${direct.documentId}${q}`)).json().data;
      const other = (await p.api.get(`/api/articles/${draft.documentId}${q}`)).json().data;
      assert.deepEqual(strip(one), strip(other), status);
      assert.equal(one.seo.metaTitle, 'SEO Direct');
      assert.deepEqual(one.tags.map((x: { documentId: string }) => x.documentId), tags);
      assert.equal(one.author.documentId, author);
    }
    // The inverse side sees both articles, in creation order.
    const fromAuthor = (await p.api.get(`/api/authors/${author}?populate=articles`)).json().data;
    assert.deepEqual(fromAuthor.articles.map((x: { documentId: string }) => x.documentId), [direct.documentId, draft.documentId]);
    const total = (await p.api.get('/api/articles?pagination[withCount]=true')).json().meta.pagination.total;
    assert.equal(total, 2);
  });

  it('a missing relation target refuses the write: 400, nothing written, totals unchanged', async () => {
    const counts = async () => Promise.all(['ct_article', 'cmp_shared__seo', 'lnk_ct_article__author', 'lnk_ct_article__tags'].map(async (table) =>
      Number((await query(`SELECT count(*)::int AS n FROM "${p.schema}".${table}`))[0]!.n)));
    const before = await counts();
    const res = await p.api.post('/api/articles', { data: { ...body('Broken'), tags: [tags[0], 'nosuchtag0000000000000000'] } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { data: null, error: { status: 400, name: 'ValidationError', message: 'Document with id "nosuchtag0000000000000000", locale "null" not found', details: {} } });
    assert.deepEqual(await counts(), before);
    const list = (await p.api.get('/api/articles?pagination[withCount]=true')).json().meta.pagination.total;
    assert.equal(list, 2);
  });
});

function shapeOf(rows: Array<Record<string, unknown>>): unknown[] {
  return rows.map((r) => [r.version, r.target_document_id, r.ord]);
}
