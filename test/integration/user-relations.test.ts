// Content-type relations whose target is the end-user type `plugin::users-permissions.user`
// (REST): pushing such a model, writing links by documentId / id / connect / disconnect / set,
// populated users shaped exactly like `/api/users` items, the users `find` permission, filters,
// private user fields, deleted users and tenant isolation — asserting bodies and link rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { as, createProject, signup } from '../helpers/management.ts';

type Json = Record<string, any>;

const USERS_UID = 'plugin::users-permissions.user';
const USERS = 'plugin::users-permissions';
const ARTICLE = 'api::article.article';
const USER_KEYS = ['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt'];
const ARTICLE_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];

const toUsers = (relation: string) => ({ type: 'relation', relation, target: USERS_UID });
const MODEL = {
  contentTypes: {
    [ARTICLE]: {
      kind: 'collectionType',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        author: toUsers('manyToOne'),
        readers: toUsers('manyToMany'),
        byline: { type: 'component', component: 'shared.byline' },
      },
    },
  },
  components: {
    'shared.byline': { info: { displayName: 'Byline' }, attributes: { note: { type: 'string' }, editor: toUsers('manyToOne') } },
  },
};

const envelope = (status: number, name: string, message: string, details: Json = {}) => ({ data: null, error: { status, name, message, details } });
const notFound = (id: string) => envelope(400, 'ValidationError', `Document with id "${id}", locale "null" not found`);
const invalidKey = (key: string, param: string, path: string | null) =>
  envelope(400, 'ValidationError', path !== null && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`, { key, path, source: 'query', param });

/** Deep equality and the same key order. */
function assertJson(actual: unknown, expected: unknown, message?: string): void {
  assert.deepEqual(actual, expected, message);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), message ?? 'key order');
}

describe('relations to plugin::users-permissions.user (REST)', () => {
  let t: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  let seq = 0;

  const query = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Record<string, any>>;
  const countRows = async (table: string, where = 'TRUE', values: unknown[] = [], project = p) =>
    Number((await query(`SELECT count(*)::int AS n FROM "${project.schema}".${table} WHERE ${where}`, values))[0]!.n);
  /** Target documentIds of an article's link rows, per version row (draft first), in stored order. */
  const links = async (table: string, documentId: string) => (await query(
    `SELECT a.published_at IS NOT NULL AS published, array_agg(l.target_document_id ORDER BY l.ord, l.id) AS targets
     FROM "${p.schema}".${table} l JOIN "${p.schema}".ct_article a ON a.id = l.source_id
     WHERE a.document_id = $1 GROUP BY 1 ORDER BY 1`, [documentId])).map((r) => [r.published ? 'published' : 'draft', r.targets]);

  /** Register a user through the content API; answers the bare user object. */
  const register = async (name: string, project = p): Promise<Json> => {
    const username = `${name}${++seq}`;
    const res = await project.client(null).post('/api/auth/local/register', { username, email: `${username}@example.com`, password: 'secret123' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().user;
  };
  /** The user exactly as `GET /api/users/:id` answers it. */
  const userItem = async (id: number, project = p): Promise<Json> => {
    const res = await project.api.get(`/api/users/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    const user = res.json();
    assert.deepEqual(Object.keys(user), USER_KEYS);
    return user;
  };
  const create = async (client: ContentClient, data: Json, query = 'populate=author,readers') => {
    const res = await client.post(`/api/articles?${query}`, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as Json;
  };
  const get = async (client: ContentClient, documentId: string, query: string) => {
    const res = await client.get(`/api/articles/${documentId}?${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Json;
  };
  const pick = (doc: Json, ...keys: string[]) => Object.fromEntries(keys.filter((k) => Object.hasOwn(doc, k)).map((k) => [k, doc[k]]));
  const base = (doc: Json) => pick(doc, 'id', 'documentId', 'title', 'createdAt', 'updatedAt', 'publishedAt');

  let alice: Json;
  let bob: Json;
  let carol: Json;
  let mallory: Json;

  before(async () => {
    t = await startTestApp({ env: { AUTH_RATE_LIMIT_MAX: '10000', AUTH_IP_RATE_LIMIT_MAX: '10000' } });
    p = await setupContentProject(t, MODEL);
    q = await setupContentProject(t, MODEL);
    alice = await userItem((await register('alice')).id);
    bob = await userItem((await register('bob')).id);
    carol = await userItem((await register('carol')).id);
    mallory = await register('mallory', q);
  });
  after(async () => t?.close());

  it('accepts a model whose relations target the user type (content types and components)', async () => {
    const session = await signup(t);
    const project = await createProject(t, session, { name: 'User relations push' });
    const res = await as(t, session).put(`/v1/projects/${project.slug}/schema`, MODEL);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...MODEL, version: 1 });
  });

  it('refuses a relation to the user type with inversedBy, and other plugin targets', async () => {
    const session = await signup(t);
    const project = await createProject(t, session, { name: 'User relations refused' });
    const bad = structuredClone(MODEL) as Json;
    bad.contentTypes[ARTICLE].attributes.author.inversedBy = 'articles';
    bad.contentTypes[ARTICLE].attributes.cover = { type: 'relation', relation: 'oneToOne', target: 'plugin::upload.file' };
    const res = await as(t, session).put(`/v1/projects/${project.slug}/schema`, bad);
    assert.equal(res.statusCode, 400, res.body);
    const at = (...path: string[]) => ['contentTypes', ARTICLE, 'attributes', ...path];
    const m1 = 'relations to plugin::users-permissions.user must be one-way (inversedBy is not allowed: the user type cannot be edited)';
    const m2 = 'target "plugin::upload.file" is not a content type of this model (use a media attribute for files)';
    assert.deepEqual(res.json(), envelope(400, 'ValidationError', '2 errors occurred', { errors: [
      { path: at('author', 'inversedBy'), message: m1, name: 'ValidationError' },
      { path: at('cover', 'target'), message: m2, name: 'ValidationError' },
    ] }));
  });

  describe('writes', () => {
    it('creates an article with an author by documentId and readers by id and {documentId}; populated like /api/users items', async () => {
      const doc = await create(p.api, { title: 'First', author: alice.documentId, readers: [bob.id, { documentId: alice.documentId }] });
      assertJson(doc, { ...base(doc), author: alice, readers: [bob, alice] });
      assert.deepEqual(Object.keys(doc), ['id', 'documentId', 'title', 'createdAt', 'updatedAt', 'publishedAt', 'author', 'readers']);
      // The draft and the published row both link the user document.
      assert.deepEqual(await links('lnk_ct_article__author', doc.documentId), [['draft', [alice.documentId]], ['published', [alice.documentId]]]);
      assert.deepEqual(await links('lnk_ct_article__readers', doc.documentId), [
        ['draft', [bob.documentId, alice.documentId]], ['published', [bob.documentId, alice.documentId]],
      ]);
      const read = await get(p.api, doc.documentId, 'populate[0]=author&populate[1]=readers');
      assertJson(read, doc);
    });

    it('connect, disconnect and set by documentId or id; null clears', async () => {
      const doc = await create(p.api, { title: 'Edited', author: { connect: [{ id: alice.id }] }, readers: { set: [carol.documentId] } });
      assertJson(pick(doc, 'author', 'readers'), { author: alice, readers: [carol] });
      const put = async (data: Json) => {
        const res = await p.api.put(`/api/articles/${doc.documentId}?populate=author,readers`, { data });
        assert.equal(res.statusCode, 200, res.body);
        return pick(res.json().data, 'author', 'readers');
      };
      assertJson(await put({ author: bob.documentId, readers: { connect: [{ documentId: alice.documentId, position: { start: true } }, bob.id] } }),
        { author: bob, readers: [alice, carol, bob] });
      assertJson(await put({ readers: { disconnect: [carol.id, { documentId: bob.documentId }] } }), { author: bob, readers: [alice] });
      assertJson(await put({ author: { set: [{ id: carol.id }] }, readers: { set: [] } }), { author: carol, readers: [] });
      assertJson(await put({ author: { disconnect: [carol.documentId] } }), { author: null, readers: [] });
      assertJson(await put({ author: carol.id }), { author: carol, readers: [] });
      assertJson(await put({ author: null }), { author: null, readers: [] });
      assert.deepEqual(await links('lnk_ct_article__author', doc.documentId), []);
    });

    it('links users inside components', async () => {
      const doc = await create(p.api, { title: 'Bylined', byline: { note: 'n', editor: bob.documentId } }, 'populate[byline][populate]=editor');
      assertJson(doc.byline, { id: doc.byline.id, note: 'n', editor: bob });
      assertJson((await get(p.api, doc.documentId, 'populate[byline][populate][editor][fields][0]=username')).byline,
        { id: doc.byline.id, note: 'n', editor: { id: bob.id, documentId: bob.documentId, username: bob.username } });
    });

    it('refuses unknown users with the missing-document error and writes nothing', async () => {
      const articles = await countRows('ct_article');
      const authorLinks = await countRows('lnk_ct_article__author');
      for (const [author, shown] of [['nope', 'nope'], [999999, '999999'], [{ id: 999999 }, '999999'], [{ documentId: 'nope' }, 'nope']] as const) {
        const res = await p.api.post('/api/articles', { data: { title: 'Ghost', author } });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), notFound(shown));
      }
      const res = await p.api.post('/api/articles', { data: { title: 'Ghost', author: alice.documentId, readers: [bob.documentId, 'nope'] } });
      assert.deepEqual([res.statusCode, res.json()], [400, notFound('nope')]);
      assert.equal(await countRows('ct_article'), articles);
      assert.equal(await countRows('lnk_ct_article__author'), authorLinks);

      const doc = await create(p.api, { title: 'Kept', readers: [alice.documentId] });
      const put = await p.api.put(`/api/articles/${doc.documentId}`, { data: { title: 'Changed', readers: { connect: ['nope'] } } });
      assert.deepEqual([put.statusCode, put.json()], [400, notFound('nope')]);
      assertJson(pick(await get(p.api, doc.documentId, 'populate=readers'), 'title', 'readers'), { title: 'Kept', readers: [alice] });
    });

    it('cannot link a user of another project (tenant isolation)', async () => {
      const articles = await countRows('ct_article');
      for (const author of [mallory.documentId, { documentId: mallory.documentId }]) {
        const res = await p.api.post('/api/articles', { data: { title: 'Foreign', author } });
        assert.deepEqual([res.statusCode, res.json()], [400, notFound(mallory.documentId)]);
      }
      const res = await p.api.post('/api/articles', { data: { title: 'Foreign', readers: { connect: [mallory.documentId] } } });
      assert.deepEqual([res.statusCode, res.json()], [400, notFound(mallory.documentId)]);
      assert.equal(await countRows('ct_article'), articles);
      // And the other project links its own user only.
      const own = await create(q.api, { title: 'Mine', author: mallory.documentId });
      assertJson(own.author, await userItem(mallory.id, q));
      const cross = await q.api.post('/api/articles', { data: { title: 'Cross', author: alice.documentId } });
      assert.deepEqual([cross.statusCode, cross.json()], [400, notFound(alice.documentId)]);
    });
  });

  describe('reads', () => {
    let first: Json;
    let second: Json;
    before(async () => {
      first = await create(p.api, { title: 'Read one', author: alice.documentId, readers: [carol.documentId, bob.documentId], byline: { note: 'b', editor: carol.id } });
      second = await create(p.api, { title: 'Read two', author: bob.documentId, readers: [alice.documentId] });
    });
    const readTitles = async (client: ContentClient, filters: string) => {
      const res = await client.get(`/api/articles?fields[0]=title&filters[title][$startsWith]=Read&${filters}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((d: Json) => d.title);
    };

    it('populate: fields, *, lists and the v4 format', async () => {
      assertJson(await get(p.api, first.documentId, 'fields[0]=title&populate[author][fields][0]=username&populate[readers][fields]=email,blocked'), {
        id: first.id, documentId: first.documentId, title: 'Read one',
        author: { id: alice.id, documentId: alice.documentId, username: alice.username },
        readers: [
          { id: carol.id, documentId: carol.documentId, email: carol.email, blocked: false },
          { id: bob.id, documentId: bob.documentId, email: bob.email, blocked: false },
        ],
      });
      const star = await get(p.api, first.documentId, 'populate=*');
      assertJson(star, { ...base(first), author: alice, readers: [carol, bob], byline: { id: star.byline.id, note: 'b' } });
      const list = await p.api.get('/api/articles?fields[0]=title&filters[title][$startsWith]=Read&populate[author][fields][0]=username&sort=title');
      assert.equal(list.statusCode, 200, list.body);
      assertJson(list.json().data, [
        { id: first.id, documentId: first.documentId, title: 'Read one', author: { id: alice.id, documentId: alice.documentId, username: alice.username } },
        { id: second.id, documentId: second.documentId, title: 'Read two', author: { id: bob.id, documentId: bob.documentId, username: bob.username } },
      ]);
      const v4 = await p.api.get(`/api/articles/${first.documentId}?fields[0]=title&populate[author][fields][0]=username`, { 'strapi-response-format': 'v4' });
      assertJson(v4.json().data, {
        id: first.id, documentId: first.documentId,
        attributes: { title: 'Read one', author: { data: { id: alice.id, documentId: alice.documentId, attributes: { username: alice.username } } } },
      });
    });

    it('needs find on users: a read-only token populates them, a custom token without it leaves them out', async () => {
      const readOnly = p.client(await p.token('read-only'));
      assertJson(pick(await get(readOnly, first.documentId, 'populate=author,readers'), 'author', 'readers'), { author: alice, readers: [carol, bob] });

      const noUsers = p.client(await p.token('custom', { [ARTICLE]: ARTICLE_ACTIONS }));
      assertJson(await get(noUsers, first.documentId, 'populate=author,readers'), base(first));
      const star = await get(noUsers, first.documentId, 'populate=*');
      assertJson(star, { ...base(first), byline: { id: star.byline.id, note: 'b' } });
      assertJson((await get(noUsers, first.documentId, 'fields[0]=title&populate[byline][populate]=*')).byline, { id: star.byline.id, note: 'b' });
      // Filtering or sorting through a relation the caller may not find is an unknown key.
      const filtered = await noUsers.get('/api/articles?filters[author][username][$eq]=x');
      assert.deepEqual([filtered.statusCode, filtered.json()], [400, invalidKey('author', 'filters', null)]);
      const sorted = await noUsers.get('/api/articles?sort=author.username');
      assert.deepEqual([sorted.statusCode, sorted.json()], [400, invalidKey('author', 'sort', null)]);
      // Relation keys it may not find are dropped from write bodies (Strapi's input sanitiser).
      const written = await create(noUsers, { title: 'Sanitised', author: alice.documentId, readers: [bob.documentId] }, 'populate=*');
      assertJson(written, { ...base(written), byline: null });
      assert.deepEqual(await links('lnk_ct_article__author', written.documentId), []);

      const withUsers = p.client(await p.token('custom', { [ARTICLE]: ARTICLE_ACTIONS, [USERS]: ['find'] }));
      assertJson(pick(await get(withUsers, first.documentId, 'populate=author'), 'author'), { author: alice });
    });

    it('the public role populates users only once granted find on users', async () => {
      const anon = p.client(null);
      await p.setPublic({ [ARTICLE]: ['find', 'findOne'] });
      assertJson(await get(anon, first.documentId, 'populate=author,readers'), base(first));
      await p.setPublic({ [ARTICLE]: ['find', 'findOne'], [USERS]: ['find'] });
      assertJson(pick(await get(anon, first.documentId, 'populate=author'), 'author'), { author: alice });
      await p.setPublic({});
    });

    it('filters and sorts through the relation on public user fields', async () => {
      assert.deepEqual(await readTitles(p.api, `filters[author][username][$eq]=${alice.username}`), ['Read one']);
      assert.deepEqual(await readTitles(p.api, `filters[author][id][$eq]=${bob.id}`), ['Read two']);
      assert.deepEqual(await readTitles(p.api, `filters[author][documentId][$eq]=${bob.documentId}`), ['Read two']);
      assert.deepEqual(await readTitles(p.api, `filters[readers][email][$eqi]=${alice.email.toUpperCase()}`), ['Read two']);
      assert.deepEqual(await readTitles(p.api, `filters[readers][username][$in][0]=${alice.username}&filters[readers][username][$in][1]=${bob.username}&sort=title:desc`), ['Read two', 'Read one']);
      assert.deepEqual(await readTitles(p.api, `filters[byline][editor][username][$eq]=${carol.username}`), ['Read one']);
      assert.deepEqual(await readTitles(p.api, 'sort=author.username:desc'), ['Read two', 'Read one']);
    });

    it('refuses private user fields in filters, sort, fields and populate', async () => {
      for (const key of ['password', 'resetPasswordToken', 'confirmationToken', 'reset_password_token', 'role']) {
        const cases: Array<[string, ReturnType<typeof invalidKey>]> = [
          [`filters[author][${key}][$eq]=x`, invalidKey(key, 'filters', 'author')],
          [`filters[readers][${key}][$null]=false`, invalidKey(key, 'filters', 'readers')],
          [`filters[$or][0][author][${key}][$eq]=x`, invalidKey(key, 'filters', 'author')],
          [`sort=author.${key}`, invalidKey(key, 'sort', 'author')],
          [`populate[author][fields][0]=${key}`, invalidKey(key, 'fields', `author.${key}`)],
          [`populate[author][filters][${key}][$eq]=x`, invalidKey(key, 'filters', null)],
        ];
        for (const [qs, expected] of cases) {
          const res = await p.api.get(`/api/articles?${qs}`);
          assert.deepEqual([res.statusCode, res.json()], [400, expected], qs);
        }
      }
      const nested = await p.api.get('/api/articles?populate[author][populate][role][fields][0]=name');
      assert.deepEqual([nested.statusCode, nested.json()], [400, invalidKey('fields', 'populate', 'author.role')]);
    });

    it("populates a linked user's role, exactly as /api/users?populate=role shows it", async () => {
      const doc = await create(p.api, { title: 'With role', author: alice.documentId, readers: [alice.documentId, bob.documentId] });
      const expected = async (id: number) => {
        const res = await p.api.get(`/api/users/${id}?populate=role`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      for (const query of ['populate[author][populate]=role', 'populate[author][populate][role]=true', 'populate[author][populate]=*']) {
        const read = await get(p.api, doc.documentId, `${query}&populate[readers][populate]=role`);
        assertJson(read.author, await expected(alice.id), query);
        assertJson(read.readers, [await expected(alice.id), await expected(bob.id)], query);
        assert.deepEqual(Object.keys(read.author.role), ['id', 'name', 'description', 'type', 'createdAt', 'updatedAt']);
      }
      const list = await p.api.get('/api/articles?populate[readers][populate]=role&filters[title][$eq]=With%20role');
      assert.equal(list.json().data[0].readers[1].role.type, 'authenticated');
      // roles are joined by the project's own schema: p's role ids, not another project's
      const roleIds = await query('SELECT r.id FROM platform.roles r JOIN platform.projects x ON x.id = r.project_id WHERE x.schema_name = $1', [p.schema]);
      assert.ok(roleIds.some((r) => Number(r.id) === list.json().data[0].readers[1].role.id));
    });
  });

  describe('GraphQL', () => {
    it('relation fields are UsersPermissionsUser, filterable by the user, and writable by documentId', async () => {
      const gql = async (query: string, variables?: Json) => {
        const res = await p.api.post('/graphql', { query, variables });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        return body.data as Json;
      };
      const created = await gql(`mutation ($data: ArticleInput!) { createArticle(data: $data) { documentId title author { documentId username } readers { username } } }`,
        { data: { title: 'Via GraphQL', author: carol.documentId, readers: [alice.documentId, bob.documentId] } });
      assert.deepEqual(created.createArticle, {
        documentId: created.createArticle.documentId, title: 'Via GraphQL',
        author: { documentId: carol.documentId, username: carol.username }, readers: [{ username: alice.username }, { username: bob.username }],
      });
      const found = await gql(`{ articles(filters: { author: { username: { eq: "${carol.username}" } } }) { title author { email } } }`);
      assert.deepEqual(found.articles, [{ title: 'Via GraphQL', author: { email: carol.email } }]);
      const type = await gql(`{ __type(name: "Article") { fields { name type { name } } } }`);
      assert.deepEqual(type.__type.fields.find((f: Json) => f.name === 'author'), { name: 'author', type: { name: 'UsersPermissionsUser' } });
      // Private columns are not in the type.
      const refused = await p.api.post('/graphql', { query: '{ articles { author { password } } }' });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    });
  });

  describe('deleting a user', () => {
    it('a user deleted while articles linking to it are published: every publish succeeds or is a 4xx, never a 500', async () => {
      const statuses: number[] = [];
      for (let round = 0; round < 15; round++) {
        const eve = await register('eve');
        const drafts = await Promise.all([0, 1, 2].map(async (i) => {
          const res = await p.api.post('/api/articles?status=draft', { data: { title: `race ${round}.${i}`, author: eve.documentId, readers: [eve.documentId, alice.documentId] } });
          assert.equal(res.statusCode, 201, res.body);
          return res.json().data.documentId as string;
        }));
        const [deleted, ...published] = await Promise.all([
          p.api.del(`/api/users/${eve.id}`),
          ...drafts.map((documentId) => p.api.put(`/api/articles/${documentId}`, { data: { title: `published ${round}` } })),
        ]);
        assert.equal(deleted!.statusCode, 200, deleted!.body);
        for (const res of published) {
          statuses.push(res.statusCode);
          assert.ok(res.statusCode < 500, res.body);
        }
        // whatever the order, no link to the deleted user is left anywhere
        assert.equal(await countRows('lnk_ct_article__author', 'target_document_id = $1', [eve.documentId]), 0);
        assert.equal(await countRows('lnk_ct_article__readers', 'target_document_id = $1', [eve.documentId]), 0);
      }
      assert.ok(statuses.filter((s) => s === 200).length > 0, statuses.join(','));
    });

    it('removes the user from populated articles and deletes its link rows (draft and published)', async () => {
      const dave = await userItem((await register('dave')).id);
      const doc = await create(p.api, { title: 'Orphaned', author: dave.documentId, readers: [dave.documentId, alice.documentId], byline: { note: 'x', editor: dave.id } });
      assertJson(pick(doc, 'author', 'readers'), { author: dave, readers: [dave, alice] });
      const del = await p.api.del(`/api/users/${dave.id}`);
      assert.equal(del.statusCode, 200, del.body);
      assertJson(del.json(), dave);
      const read = await get(p.api, doc.documentId, 'populate[author]=true&populate[readers]=true&populate[byline][populate]=editor');
      assertJson(pick(read, 'author', 'readers'), { author: null, readers: [alice] });
      assertJson(read.byline, { id: read.byline.id, note: 'x', editor: null });
      assert.deepEqual(await links('lnk_ct_article__author', doc.documentId), []);
      assert.deepEqual(await links('lnk_ct_article__readers', doc.documentId), [['draft', [alice.documentId]], ['published', [alice.documentId]]]);
      for (const table of ['lnk_ct_article__author', 'lnk_ct_article__readers', 'lnk_cmp_shared__byline__editor']) {
        assert.equal(await countRows(table, 'target_document_id = $1', [dave.documentId]), 0, table);
      }
      const filtered = await p.api.get(`/api/articles?fields[0]=title&filters[author][username][$eq]=${dave.username}`);
      assert.deepEqual([filtered.statusCode, filtered.json().data], [200, []]);
    });
  });
});
