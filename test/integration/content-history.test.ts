// Content history's management routes (management-api.md § Content history, docs/history.md):
// the list (filters, pagination, newest first, exact total), one version (its schema, its data's
// shapes, its author named), the diff (components and dynamic zones by path, against another
// version, the previous one or the current document), restore (a published document becomes
// modified with the version as its draft; after a model change; a deleted document comes back
// with its documentId; relations and files gone are left out and reported), who may do what
// (viewers read, editors restore, API tokens nothing) and isolation between projects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { envelope, fieldError, forbidden, notFound, unauthorized } from '../helpers/envelope.ts';
import { addMember, as, signup, type Session } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const localized = { pluginOptions: { i18n: { localized: true } } };
const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const NOTE = 'api::note.note';

/** The model; `changed`: `legacy` removed and `subtitle` added (a later push). */
function model(changed = false) {
  const { legacy, ...kept } = {
    legacy: { type: 'string' },
    title: { type: 'string', ...localized },
    views: { type: 'integer' },
    body: { type: 'blocks', ...localized },
    tags: { type: 'relation', relation: 'manyToMany', target: TAG, inversedBy: 'articles' },
    cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
    seo: { type: 'component', component: 'shared.seo', ...localized },
    sections: { type: 'dynamiczone', components: ['sections.hero', 'sections.text'], ...localized },
  };
  return {
    contentTypes: {
      [ARTICLE]: ct('article', 'articles', changed ? { ...kept, subtitle: { type: 'string', ...localized } } : { legacy, ...kept }, localized),
      [TAG]: ct('tag', 'tags', {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'manyToMany', target: ARTICLE, mappedBy: 'tags' },
      }, { options: { draftAndPublish: false } }),
      [NOTE]: ct('note', 'notes', { text: { type: 'string' } }, { options: { draftAndPublish: false } }),
    },
    components: {
      'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' }, metaDescription: { type: 'text' } } },
      'sections.hero': { collectionName: 'components_sections_heroes', info: { displayName: 'hero' }, attributes: { title: { type: 'string' } } },
      'sections.text': { collectionName: 'components_sections_texts', info: { displayName: 'text' }, attributes: { text: { type: 'richtext' } } },
    },
  };
}

interface Version {
  id: number;
  contentType: string;
  relatedDocumentId: string;
  locale: string | null;
  status: string;
  data: Record<string, any>;
  schema: Record<string, any>;
  origin: string;
  createdAt: string;
  createdBy: { type: string; id: number | string; name: string | null } | null;
}

describe('content history routes', () => {
  let t: TestApp;
  let p: ContentProject;
  let botKey: string;
  let botId: number;

  const base = () => `/v1/projects/${p.slug}/history`;
  const list = async (query: string, who = p.admin) => {
    const res = await who.get(`${base()}${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: Version[]; meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } } };
  };
  /** The versions of one document, newest first. */
  const versionsOf = async (documentId: string, uid = ARTICLE) => (await list(`?contentType=${uid}&documentId=${documentId}`)).data;
  const restore = (id: number, who = p.admin) => who.put(`${base()}/${id}/restore`);
  const created = async (path: string, data: Record<string, unknown>, query = ''): Promise<string> => {
    const res = await p.api.post(`${path}${query}`, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId;
  };
  const updated = async (path: string, data: Record<string, unknown>, query = '') => {
    const res = await p.api.put(`${path}${query}`, { data });
    assert.equal(res.statusCode, 200, res.body);
  };
  const read = async (path: string) => {
    const res = await p.api.get(path);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Record<string, any>;
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, model(), ['fr']);
    const token = await p.admin.post(`/v1/projects/${p.slug}/api-tokens`, { name: 'Editor bot', type: 'full-access' });
    assert.equal(token.statusCode, 201, token.body);
    botKey = token.json().accessKey;
    botId = token.json().apiToken.id;
  });
  after(() => t.close());

  describe('list and read', () => {
    let first: string;
    let second: string;

    before(async () => {
      first = await created('/api/articles', { title: 'One', views: 1 });
      await updated(`/api/articles/${first}`, { title: 'Un' }, '?locale=fr');
      await updated(`/api/articles/${first}`, { views: 2 });
      second = await created('/api/articles', { title: 'Two' });
      await created('/api/notes', { text: 'note' });
    });

    it('lists newest first, filtered by type, document and locale, with an exact total', async () => {
      const all = await list(`?contentType=${ARTICLE}&documentId=${first}`);
      // create (en), fr created, update en (its shared `views` reaches fr: a version of each)
      assert.deepEqual(all.data.map((v) => [v.locale, v.data.title, v.data.views]), [['fr', 'Un', 2], ['en', 'One', 2], ['fr', 'Un', 1], ['en', 'One', 1]]);
      assert.deepEqual(all.meta, { pagination: { page: 1, pageSize: 20, pageCount: 1, total: 4 } });
      const ids = all.data.map((v) => v.id);
      assert.deepEqual([...ids].sort((a, b) => b - a), ids);
      const times = all.data.map((v) => v.createdAt);
      assert.deepEqual([...times].sort().reverse(), times);

      const fr = await list(`?contentType=${ARTICLE}&documentId=${first}&locale=fr`);
      assert.deepEqual(fr.data.map((v) => v.data.title), ['Un', 'Un']);
      assert.equal(fr.meta.pagination.total, 2);

      const articles = await list(`?contentType=${ARTICLE}`);
      assert.equal(articles.meta.pagination.total, 5);
      assert.equal(articles.data[0]!.relatedDocumentId, second);
      const everything = await list('');
      assert.equal(everything.meta.pagination.total, 6);
      assert.equal(everything.data[0]!.contentType, NOTE);
    });

    it('pages with page and pageSize; past the last page the total stays exact', async () => {
      const page1 = await list(`?contentType=${ARTICLE}&pageSize=2`);
      const page2 = await list(`?contentType=${ARTICLE}&pageSize=2&page=2`);
      const page3 = await list(`?contentType=${ARTICLE}&pageSize=2&page=3`);
      const page9 = await list(`?contentType=${ARTICLE}&pageSize=2&page=9`);
      assert.deepEqual([page1, page2, page3, page9].map((r) => [r.data.length, r.meta.pagination]), [
        [2, { page: 1, pageSize: 2, pageCount: 3, total: 5 }],
        [2, { page: 2, pageSize: 2, pageCount: 3, total: 5 }],
        [1, { page: 3, pageSize: 2, pageCount: 3, total: 5 }],
        [0, { page: 9, pageSize: 2, pageCount: 3, total: 5 }],
      ]);
      const whole = (await list(`?contentType=${ARTICLE}`)).data.map((v) => v.id);
      assert.deepEqual([...page1.data, ...page2.data, ...page3.data].map((v) => v.id), whole);
    });

    it('refuses malformed queries with a 400 naming the key, an unknown type with a 404', async () => {
      const cases: Array<[string, unknown]> = [
        ['?page=0', fieldError(['page'], 'page must be an integer from 1 to 1000000')],
        ['?page=x', fieldError(['page'], 'page must be an integer from 1 to 1000000')],
        ['?pageSize=101', fieldError(['pageSize'], 'pageSize must be an integer from 1 to 100')],
        ['?page=1&page=2', fieldError(['page'], 'page must be given once, as text')],
        ['?sort=id', fieldError(['sort'], 'sort is not a valid key')],
        [`?documentId=${'x'.repeat(65)}`, fieldError(['documentId'], 'documentId must be at most 64 characters')],
        ['?contentType=api::nope.nope', notFound('history.contentTypeNotFound')],
      ];
      for (const [query, body] of cases) {
        const res = await p.admin.get(`${base()}${query}`);
        const expected = body as { error: { status: number; details: Record<string, unknown> } };
        if (query.includes('nope')) expected.error.details = { contentType: 'api::nope.nope' };
        assert.equal(res.statusCode, expected.error.status, `${query}: ${res.body}`);
        assert.deepEqual(res.json(), expected, query);
      }
    });

    it('reads one version: its data as the content API returns it, its schema, its author named', async () => {
      const bot = p.client(botKey);
      const tag = await bot.post('/api/tags', { data: { name: 'news' } });
      assert.equal(tag.statusCode, 201, tag.body);
      const tagId = tag.json().data.documentId;
      const file = (await bot.raw('POST', '/api/upload', await multipart({ files: { name: 'a.txt', content: 'hello', type: 'text/plain' } }))).json()[0];
      const res = await bot.post('/api/articles?status=draft', { data: {
        title: 'Shapes', views: 3, body: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }], tags: [tagId], cover: file.id,
        seo: { metaTitle: 'M', metaDescription: 'D' }, sections: [{ __component: 'sections.hero', title: 'H' }],
      } });
      assert.equal(res.statusCode, 201, res.body);
      const documentId = res.json().data.documentId;
      const [listed] = await versionsOf(documentId);
      const one = await p.admin.get(`${base()}/${listed!.id}`);
      assert.equal(one.statusCode, 200, one.body);
      const v = one.json().data as Version;
      assert.deepEqual(v, listed);
      assert.deepEqual(Object.keys(v), ['id', 'contentType', 'relatedDocumentId', 'locale', 'status', 'data', 'schema', 'origin', 'createdAt', 'createdBy']);
      assert.deepEqual([v.contentType, v.relatedDocumentId, v.locale, v.status, v.origin], [ARTICLE, documentId, 'en', 'draft', 'rest']);
      assert.deepEqual(v.createdBy, { type: 'apiToken', id: botId, name: 'Editor bot' });
      assert.match(v.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(v.schema, model().contentTypes[ARTICLE]!.attributes);
      const { id, createdAt, updatedAt, seo, sections, ...content } = v.data;
      assert.equal(typeof id, 'number');
      assert.ok(createdAt && updatedAt);
      assert.deepEqual(content, {
        documentId, publishedAt: null, locale: 'en', legacy: null, title: 'Shapes', views: 3,
        body: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }],
        tags: [{ documentId: tagId, locale: null }], cover: { id: file.id },
      });
      assert.deepEqual({ ...seo, id: 0 }, { id: 0, metaTitle: 'M', metaDescription: 'D' });
      assert.deepEqual(sections.map((s: Record<string, unknown>) => ({ ...s, id: 0 })), [{ id: 0, __component: 'sections.hero', title: 'H' }]);
      // A type without draft & publish (its only row); its inverse side (`articles`) is the articles' to record.
      const [tagVersion] = await versionsOf(tagId, TAG);
      assert.deepEqual([tagVersion!.status, tagVersion!.locale, 'articles' in tagVersion!.data], ['published', null, false]);
    });

    it('answers 404 for an unknown version and 400 for a malformed id', async () => {
      assert.deepEqual((await p.admin.get(`${base()}/999999`)).json(), notFound('history.versionNotFound'));
      assert.equal((await p.admin.get(`${base()}/999999`)).statusCode, 404);
      const bad = await p.admin.get(`${base()}/abc`);
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json(), fieldError(['versionId'], 'versionId must be a positive integer'));
      assert.equal((await restore(999999)).statusCode, 404);
      assert.equal((await p.admin.get(`${base()}/999999/diff`)).statusCode, 404);
    });
  });

  describe('restore', () => {
    it('writes the version as the draft of a published document, which becomes modified', async () => {
      const documentId = await created('/api/articles', { title: 'First', views: 1, seo: { metaTitle: 'Old meta' } });
      await updated(`/api/articles/${documentId}`, { title: 'Second', views: 2, seo: { metaTitle: 'New meta' } });
      const [second, first] = await versionsOf(documentId);
      assert.deepEqual([first!.status, second!.status], ['published', 'published']);

      const res = await restore(first!.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { data: { documentId, locale: 'en', status: 'draft' }, meta: { dropped: [] } });

      const draft = await read(`/api/articles/${documentId}?status=draft&populate=seo`);
      assert.deepEqual([draft.title, draft.views, draft.seo.metaTitle], ['First', 1, 'Old meta']);
      const published = await read(`/api/articles/${documentId}?populate=seo`);
      assert.deepEqual([published.title, published.views, published.seo.metaTitle], ['Second', 2, 'New meta']);

      const [restored, ...rest] = await versionsOf(documentId);
      assert.deepEqual(rest.map((v) => v.id), [second!.id, first!.id]);
      assert.deepEqual([restored!.origin, restored!.status, restored!.createdBy], ['restore', 'modified', { type: 'account', id: p.owner.account.id, name: p.owner.account.email }]);
      // The draft now holds exactly the version's content.
      const diff = await p.admin.get(`${base()}/${restored!.id}/diff?against=${first!.id}`);
      assert.equal(diff.statusCode, 200, diff.body);
      assert.deepEqual(diff.json(), { data: { versionId: restored!.id, against: first!.id, changes: [] } });
    });

    it('updates a type without draft & publish', async () => {
      const documentId = await created('/api/notes', { text: 'v1' });
      await updated(`/api/notes/${documentId}`, { text: 'v2' });
      const [, first] = await versionsOf(documentId, NOTE);
      const res = await restore(first!.id);
      assert.deepEqual([res.statusCode, res.json()], [200, { data: { documentId, locale: null, status: 'published' }, meta: { dropped: [] } }]);
      assert.equal((await read(`/api/notes/${documentId}`)).text, 'v1');
      const [restored] = await versionsOf(documentId, NOTE);
      assert.deepEqual([restored!.origin, restored!.status, restored!.data.text], ['restore', 'published', 'v1']);
    });

    it('brings a deleted document back with its documentId', async () => {
      const documentId = await created('/api/articles', { title: 'Gone', views: 7 }, '?status=draft');
      const del = await p.api.del(`/api/articles/${documentId}`);
      assert.equal(del.statusCode, 204, del.body);
      assert.equal((await p.api.get(`/api/articles/${documentId}?status=draft`)).statusCode, 404);
      const [last] = await versionsOf(documentId);
      const res = await restore(last!.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { data: { documentId, locale: 'en', status: 'draft' }, meta: { dropped: [] } });
      const draft = await read(`/api/articles/${documentId}?status=draft`);
      assert.deepEqual([draft.documentId, draft.title, draft.views], [documentId, 'Gone', 7]);
      // A draft only: nothing was published.
      assert.equal((await p.api.get(`/api/articles/${documentId}`)).statusCode, 404);
      // Restoring it again updates the document it is now.
      assert.equal((await restore(last!.id)).statusCode, 200);
      assert.equal((await versionsOf(documentId)).length, 3);
    });

    it('brings a deleted locale back beside the others; refuses a locale the project no longer has', async () => {
      const documentId = await created('/api/articles', { title: 'Hello', views: 5 });
      await updated(`/api/articles/${documentId}`, { title: 'Bonjour' }, '?locale=fr');
      const [fr] = (await list(`?contentType=${ARTICLE}&documentId=${documentId}&locale=fr`)).data;
      assert.equal((await p.api.del(`/api/articles/${documentId}?locale=fr`)).statusCode, 204);
      assert.equal((await p.api.get(`/api/articles/${documentId}?locale=fr&status=draft`)).statusCode, 404);
      const res = await restore(fr!.id);
      assert.deepEqual([res.statusCode, res.json()], [200, { data: { documentId, locale: 'fr', status: 'draft' }, meta: { dropped: [] } }]);
      const draft = await read(`/api/articles/${documentId}?locale=fr&status=draft`);
      assert.deepEqual([draft.title, draft.locale, draft.views], ['Bonjour', 'fr', 5]);
      assert.equal((await read(`/api/articles/${documentId}`)).title, 'Hello');

      assert.equal((await p.admin.del(`/v1/projects/${p.slug}/locales/fr`)).statusCode, 204);
      try {
        const refused = await restore(fr!.id);
        assert.equal(refused.statusCode, 400);
        assert.deepEqual(refused.json(), envelope(400, 'ValidationError', 'The locale fr of this version is no longer one of the project\'s locales', { locale: 'fr' }));
      } finally {
        assert.equal((await p.admin.post(`/v1/projects/${p.slug}/locales`, { code: 'fr' })).statusCode, 201);
      }
    });

    it('leaves out the relations and files that no longer exist, and lists them in meta.dropped', async () => {
      const kept = await created('/api/tags', { name: 'kept' });
      const gone = await created('/api/tags', { name: 'gone' });
      const upload = await p.api.raw('POST', '/api/upload', await multipart({ files: { name: 'cover.txt', content: 'x', type: 'text/plain' } }));
      assert.equal(upload.statusCode, 201, upload.body);
      const fileId = upload.json()[0].id as number;
      const documentId = await created('/api/articles', { title: 'Linked', tags: [kept, gone], cover: fileId });
      const [version] = await versionsOf(documentId);
      assert.deepEqual([version!.data.tags, version!.data.cover], [[{ documentId: kept, locale: null }, { documentId: gone, locale: null }], { id: fileId }]);

      assert.equal((await p.api.del(`/api/tags/${gone}`)).statusCode, 204);
      assert.equal((await p.api.del(`/api/upload/files/${fileId}`)).statusCode, 200);
      await updated(`/api/articles/${documentId}`, { title: 'Changed', tags: [] });

      const res = await restore(version!.id);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { data: { documentId, locale: 'en', status: 'draft' }, meta: { dropped: [{ path: 'cover', id: fileId }, { path: 'tags.1', documentId: gone }] } });
      const draft = await read(`/api/articles/${documentId}?status=draft&populate[tags][fields][0]=name&populate[cover]=true`);
      assert.deepEqual([draft.title, draft.tags.map((x: { name: string }) => x.name), draft.cover], ['Linked', ['kept'], null]);
    });

    it('restores across a model change: a removed attribute is ignored, an added one keeps its value', async () => {
      const documentId = await created('/api/articles', { title: 'Before', legacy: 'old', views: 1 });
      const [old] = await versionsOf(documentId);
      const pushed = await p.admin.put(`/v1/projects/${p.slug}/schema`, model(true));
      assert.equal(pushed.statusCode, 200, pushed.body);
      try {
        await updated(`/api/articles/${documentId}`, { title: 'After', subtitle: 'Sub', views: 2 });
        const res = await restore(old!.id);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json().meta, { dropped: [] });
        const draft = await read(`/api/articles/${documentId}?status=draft`);
        assert.deepEqual([draft.title, draft.views, draft.subtitle, 'legacy' in draft], ['Before', 1, 'Sub', false]);
        // The old version still reads with the attributes it was recorded with.
        const again = (await p.admin.get(`${base()}/${old!.id}`)).json().data as Version;
        assert.deepEqual([again.data.legacy, 'legacy' in again.schema, 'subtitle' in again.schema], ['old', true, false]);
        const [latest] = await versionsOf(documentId);
        assert.deepEqual(['legacy' in latest!.schema, 'subtitle' in latest!.schema, latest!.data.subtitle], [false, true, 'Sub']);
      } finally {
        const back = await p.admin.put(`/v1/projects/${p.slug}/schema`, model());
        assert.equal(back.statusCode, 200, back.body);
      }
    });

    it('refuses a version of a content type the model no longer has', async () => {
      const documentId = await created('/api/notes', { text: 'doomed' });
      const [version] = await versionsOf(documentId, NOTE);
      const { [NOTE]: _dropped, ...contentTypes } = model().contentTypes;
      const pushed = await p.admin.put(`/v1/projects/${p.slug}/schema`, { ...model(), contentTypes });
      assert.equal(pushed.statusCode, 200, pushed.body);
      try {
        // Its versions stay listed and readable.
        assert.equal((await list(`?contentType=${NOTE}&documentId=${documentId}`)).meta.pagination.total, 1);
        const res = await restore(version!.id);
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), envelope(400, 'ValidationError', `The content type ${NOTE} no longer exists: this version cannot be restored`, { contentType: NOTE }));
      } finally {
        const back = await p.admin.put(`/v1/projects/${p.slug}/schema`, model());
        assert.equal(back.statusCode, 200, back.body);
      }
    });
  });

  describe('diff', () => {
    let v1: Version;
    let v2: Version;

    before(async () => {
      const documentId = await created('/api/articles', {
        title: 'Diff', seo: { metaTitle: 'A', metaDescription: 'Same' },
        sections: [{ __component: 'sections.hero', title: 'H' }, { __component: 'sections.text', text: 'T' }],
      });
      await updated(`/api/articles/${documentId}`, {
        seo: { metaTitle: 'B', metaDescription: 'Same' },
        sections: [{ __component: 'sections.hero', title: 'H2' }, { __component: 'sections.hero', title: 'X' }],
      });
      [v2, v1] = (await versionsOf(documentId)) as [Version, Version];
    });

    const diff = async (id: number, query = '') => {
      const res = await p.admin.get(`${base()}/${id}/diff${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    it('reports components and dynamic zones by path, an item of another component whole', async () => {
      const expected = {
        data: {
          versionId: v2.id, against: v1.id, changes: [
            { path: 'seo.metaTitle', before: 'A', after: 'B' },
            { path: 'sections.0.title', before: 'H', after: 'H2' },
            { path: 'sections.1', before: { __component: 'sections.text', text: 'T' }, after: { __component: 'sections.hero', title: 'X' } },
          ],
        },
      };
      assert.deepEqual(await diff(v2.id, `?against=${v1.id}`), expected);
      // By default: against the version before it.
      assert.deepEqual(await diff(v2.id), expected);
    });

    it('compares a first version with nothing, and a version with the current document', async () => {
      const first = await diff(v1.id);
      assert.deepEqual([first.data.against, first.data.changes.map((c: { path: string }) => c.path)], [null, ['title', 'seo', 'sections.0', 'sections.1']]);
      assert.deepEqual(await diff(v1.id, '?against=current'), {
        data: {
          versionId: v1.id, against: 'current', changes: [
            { path: 'seo.metaTitle', before: 'B', after: 'A' },
            { path: 'sections.0.title', before: 'H2', after: 'H' },
            { path: 'sections.1', before: { __component: 'sections.hero', title: 'X' }, after: { __component: 'sections.text', text: 'T' } },
          ],
        },
      });
      assert.deepEqual((await diff(v2.id, '?against=current')).data.changes, []);
    });

    it('refuses an unknown, malformed or foreign against', async () => {
      const note = (await versionsOf(await created('/api/notes', { text: 'n' }), NOTE))[0]!;
      const cases: Array<[string, number, unknown]> = [
        ['?against=999999', 404, notFound('history.againstNotFound')],
        ['?against=abc', 400, fieldError(['against'], 'against must be a version id, current or previous')],
        [`?against=${note.id}`, 400, fieldError(['against'], 'against must be a version of the same content type')],
        ['?against=current&x=1', 400, fieldError(['x'], 'x is not a valid key')],
      ];
      for (const [query, status, body] of cases) {
        const res = await p.admin.get(`${base()}/${v2.id}/diff${query}`);
        assert.deepEqual([res.statusCode, res.json()], [status, body], query);
      }
    });
  });

  describe('who may', () => {
    let viewer: Session;
    let editor: Session;
    let version: Version;

    before(async () => {
      viewer = await signup(t);
      editor = await signup(t);
      await addMember(t, p.id, viewer, 'viewer');
      await addMember(t, p.id, editor, 'editor');
      const documentId = await created('/api/articles', { title: 'Team' });
      await updated(`/api/articles/${documentId}`, { title: 'Team 2' });
      version = (await versionsOf(documentId))[1]!;
    });

    it('lets a viewer list, read and diff, not restore', async () => {
      const v = as(t, viewer);
      assert.equal((await list(`?documentId=${version.relatedDocumentId}`, v)).meta.pagination.total, 2);
      assert.equal((await v.get(`${base()}/${version.id}`)).statusCode, 200);
      assert.equal((await v.get(`${base()}/${version.id}/diff?against=current`)).statusCode, 200);
      const res = await restore(version.id, v);
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), forbidden('Viewers of this project can only read it'));
    });

    it('lets an editor restore, as its author', async () => {
      const res = await restore(version.id, as(t, editor));
      assert.equal(res.statusCode, 200, res.body);
      const [latest] = await versionsOf(version.relatedDocumentId);
      assert.deepEqual(latest!.createdBy, { type: 'account', id: editor.account.id, name: editor.account.email });
    });

    it('gives API tokens no access (401), and a request without credentials neither', async () => {
      for (const [method, url] of [['GET', base()], ['GET', `${base()}/${version.id}`], ['PUT', `${base()}/${version.id}/restore`]] as const) {
        const res = await t.inject({ method, url, headers: { authorization: `Bearer ${botKey}` } });
        assert.deepEqual([res.statusCode, res.json()], [401, unauthorized()], `${method} ${url}`);
        const anonymous = await t.inject({ method, url });
        assert.equal(anonymous.statusCode, 401);
      }
    });

    it('never shows a version to another project (404), whose own list is empty', async () => {
      const other = await setupContentProject(t, model());
      const otherBase = `/v1/projects/${other.slug}/history`;
      const own = await other.admin.get(otherBase);
      assert.deepEqual([own.statusCode, own.json()], [200, { data: [], meta: { pagination: { page: 1, pageSize: 20, pageCount: 0, total: 0 } } }]);
      for (const res of [
        await other.admin.get(`${otherBase}/${version.id}`),
        await other.admin.get(`${otherBase}/${version.id}/diff?against=current`),
        await other.admin.put(`${otherBase}/${version.id}/restore`),
      ]) assert.deepEqual([res.statusCode, res.json()], [404, notFound('history.versionNotFound')]);
      // The first project's routes are not the other owner's either.
      const foreign = await other.admin.get(`${base()}/${version.id}`);
      assert.deepEqual([foreign.statusCode, foreign.json()], [404, notFound()]);
      assert.equal((await other.admin.get(base())).statusCode, 404);
    });
  });
});
