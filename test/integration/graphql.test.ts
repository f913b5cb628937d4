// GraphQL end to end on the blog example: every query and mutation form, permissions, round
// trips independent of page size, schema rebuilt after a model change, limits against abusive
// operations, project settings, tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { gql, gqlData as data } from '../helpers/graphql.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;


describe('GraphQL API', () => {
  let t: TestApp;
  let p: ContentProject;
  const author: Json = {};
  const tags: string[] = [];
  const posts: string[] = [];

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel(), ['fr']);
    Object.assign(author, (await p.api.post('/api/authors', { data: { name: 'Ann', bio: 'Writes' } })).json().data);
    for (const label of ['alpha', 'beta', 'gamma']) tags.push((await p.api.post('/api/tags', { data: { label } })).json().data.documentId);
    for (let i = 1; i <= 12; i++) {
      const res = await p.api.post('/api/posts', {
        data: {
          title: `Post ${String(i).padStart(2, '0')}`, readingMinutes: i, views: String(1000 * i), featured: i % 2 === 0, format: i % 3 === 0 ? 'video' : 'article',
          author: author.documentId, tags: tags.slice(0, i % 4), meta: { title: `Meta ${i}` },
          ctas: [{ label: `cta ${i}a` }, { label: `cta ${i}b` }],
          sections: [{ __component: 'blog.cta', label: `s${i}` }, { __component: 'blog.figure', caption: `fig ${i}` }],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      posts.push(res.json().data.documentId);
    }
  });
  after(async () => t?.close());

  describe('queries', () => {
    it('single document with relations, components, a dynamic zone and typed scalars', async () => {
      const d = await data(p.api, `query One($id: ID!) { post(documentId: $id) {
        documentId title views featured format readingMinutes publishedAt locale
        author { name bio } tags { label } meta { id title }
        ctas { id label } sections { __typename ... on ComponentBlogCta { label } ... on ComponentBlogFigure { caption } } } }`, { id: posts[4] });
      const post = d.post;
      assert.equal(post.documentId, posts[4]);
      assert.equal(post.title, 'Post 05');
      assert.equal(post.views, '5000');
      assert.equal(post.featured, false);
      assert.equal(post.format, 'article');
      assert.equal(post.locale, 'en');
      assert.match(post.publishedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.deepEqual(post.author, { name: 'Ann', bio: 'Writes' });
      assert.deepEqual(post.tags, [{ label: 'alpha' }]);
      assert.equal(typeof post.meta.id, 'string');
      assert.equal(post.meta.title, 'Meta 5');
      assert.deepEqual(post.ctas.map((c: Json) => c.label), ['cta 5a', 'cta 5b']);
      assert.deepEqual(post.sections, [{ __typename: 'ComponentBlogCta', label: 's5' }, { __typename: 'ComponentBlogFigure', caption: 'fig 5' }]);
    });

    it('an unknown documentId is null without an error', async () => {
      assert.deepEqual(await data(p.api, '{ post(documentId: "nope") { title } }'), { post: null });
    });

    it('flat list: default 10 rows, sort, filters, pagination', async () => {
      const d = await data(p.api, '{ posts { title } }');
      assert.equal(d.posts.length, 10);
      const sorted = await data(p.api, '{ posts(sort: "readingMinutes:desc", pagination: { limit: 3 }) { readingMinutes } }');
      assert.deepEqual(sorted.posts, [{ readingMinutes: 12 }, { readingMinutes: 11 }, { readingMinutes: 10 }]);
      const filtered = await data(p.api, '{ posts(filters: { featured: { eq: true }, readingMinutes: { lte: 6 } }, sort: ["readingMinutes"]) { readingMinutes } }');
      assert.deepEqual(filtered.posts, [{ readingMinutes: 2 }, { readingMinutes: 4 }, { readingMinutes: 6 }]);
    });

    it('connection: nodes and pageInfo, both pagination styles', async () => {
      const d = await data(p.api, '{ posts_connection(pagination: { page: 2, pageSize: 5 }, sort: "readingMinutes") { nodes { readingMinutes } pageInfo { page pageSize pageCount total } } }');
      assert.deepEqual(d.posts_connection.nodes.map((n: Json) => n.readingMinutes), [6, 7, 8, 9, 10]);
      assert.deepEqual(d.posts_connection.pageInfo, { page: 2, pageSize: 5, pageCount: 3, total: 12 });
      const offset = await data(p.api, '{ posts_connection(pagination: { start: 10, limit: 5 }, sort: "readingMinutes") { nodes { readingMinutes } pageInfo { page pageSize pageCount total } } }');
      assert.deepEqual(offset.posts_connection.nodes.map((n: Json) => n.readingMinutes), [11, 12]);
      assert.deepEqual(offset.posts_connection.pageInfo, { page: 3, pageSize: 5, pageCount: 3, total: 12 });
    });

    it('mixing page and start is a STRAPI_PAGINATION_ERROR', async () => {
      const { status, body } = await gql(p.api, '{ posts(pagination: { page: 1, start: 0 }) { title } }');
      assert.equal(status, 200);
      assert.equal(body.data, null);
      assert.deepEqual(body.errors[0].extensions, {
        code: 'STRAPI_PAGINATION_ERROR',
        error: { name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} },
      });
      assert.deepEqual(body.errors[0].path, ['posts']);
    });

    it('relation lists: _connection, arguments, and the same relation under two aliases', async () => {
      const d = await data(p.api, `query($id: ID!) { author(documentId: $id) {
        all: posts(pagination: { limit: -1 }, sort: "readingMinutes") { readingMinutes }
        firstTwo: posts(sort: "readingMinutes:desc", pagination: { limit: 2 }) { readingMinutes }
        featured: posts_connection(filters: { featured: { eq: true } }, sort: "readingMinutes", pagination: { pageSize: 3 }) { nodes { readingMinutes } }
        defaults: posts { readingMinutes } } }`, { id: author.documentId });
      assert.equal(d.author.all.length, 12);
      assert.deepEqual(d.author.firstTwo, [{ readingMinutes: 12 }, { readingMinutes: 11 }]);
      assert.deepEqual(d.author.featured, { nodes: [{ readingMinutes: 2 }, { readingMinutes: 4 }, { readingMinutes: 6 }] });
      // Relation lists default to 10 items, like Strapi.
      assert.equal(d.author.defaults.length, 10);
    });

    it('aliases and fragments: a scalar alias next to a relation named like it', async () => {
      const d = await data(p.api, `query($id: ID!) { post(documentId: $id) { name: title ...F } }
        fragment F on Post { title author { name } }`, { id: posts[0] });
      assert.deepEqual(d.post, { name: 'Post 01', title: 'Post 01', author: { name: 'Ann' } });
    });

    it('single types: null when empty, then the document', async () => {
      assert.deepEqual(await data(p.api, '{ site { title } }'), { site: null });
      await data(p.api, 'mutation { updateSite(data: { title: "My site", meta: { title: "M" } }) { title } }');
      assert.deepEqual(await data(p.api, '{ site { title tagline meta { title } } }'), { site: { title: 'My site', tagline: null, meta: { title: 'M' } } });
    });

    it('a repeated operation gives the same answer (compiled and cached paths)', async () => {
      const query = '{ posts(sort: "readingMinutes", pagination: { limit: 3 }) { title tags { label } author { name } } }';
      const first = await data(p.api, query);
      for (let i = 0; i < 3; i++) assert.deepEqual(await data(p.api, query), first);
    });
  });

  describe('drafts and locales', () => {
    it('status DRAFT reads drafts, default reads published; locale selects the version', async () => {
      const created = await data(p.api, 'mutation { createPost(status: DRAFT, data: { title: "Draft only" }) { documentId publishedAt } }');
      assert.equal(created.createPost.publishedAt, null);
      const id = created.createPost.documentId;
      assert.deepEqual(await data(p.api, `{ post(documentId: "${id}") { title } }`), { post: null });
      assert.deepEqual(await data(p.api, `{ post(documentId: "${id}", status: DRAFT) { title publishedAt } }`), { post: { title: 'Draft only', publishedAt: null } });
      const fr = await data(p.api, `mutation { updatePost(documentId: "${posts[0]}", locale: "fr", data: { title: "Article 01" }) { title locale } }`);
      assert.deepEqual(fr.updatePost, { title: 'Article 01', locale: 'fr' });
      const read = await data(p.api, `{ post(documentId: "${posts[0]}", locale: "fr") { title locale localizations { locale title } } }`);
      assert.deepEqual(read.post, { title: 'Article 01', locale: 'fr', localizations: [{ locale: 'en', title: 'Post 01' }] });
      await data(p.api, `mutation { deletePost(documentId: "${id}") { documentId } }`);
    });

    it('a locale that does not exist is refused on writes', async () => {
      const { body } = await gql(p.api, 'mutation { createPost(locale: "xx", data: { title: "X" }) { title } }');
      assert.equal(body.errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(body.errors[0].message, 'This locale doesn\'t exist');
    });
  });

  describe('mutations', () => {
    it('create, update, delete with relations by documentId, components and dynamic-zone items by __typename', async () => {
      const created = await data(p.api, `mutation($data: PostInput!) { createPost(data: $data) {
        documentId title author { name } tags { label } ctas { label } sections { __typename ... on ComponentBlogCta { label } } } }`, {
        data: { title: 'From GraphQL', author: author.documentId, tags: [tags[2], tags[0]], ctas: [{ label: 'go' }], sections: [{ __typename: 'ComponentBlogCta', label: 'dz' }], publishedAt: '2020-01-01T00:00:00.000Z' },
      });
      const id = created.createPost.documentId;
      assert.deepEqual({ ...created.createPost, documentId: undefined }, {
        documentId: undefined, title: 'From GraphQL', author: { name: 'Ann' }, tags: [{ label: 'gamma' }, { label: 'alpha' }], ctas: [{ label: 'go' }],
        sections: [{ __typename: 'ComponentBlogCta', label: 'dz' }],
      });
      const rows = await t.platform.db.pool.any(compiledQuery({ text: `SELECT published_at IS NULL AS draft FROM "${p.schema}".ct_post WHERE document_id = $1 ORDER BY 1`, values: [id] }));
      assert.deepEqual(rows.map((r) => r.draft), [false, true]);

      const updated = await data(p.api, `mutation { updatePost(documentId: "${id}", data: { title: "Renamed", tags: [] }) { title tags { label } } }`);
      assert.deepEqual(updated.updatePost, { title: 'Renamed', tags: [] });

      assert.deepEqual(await data(p.api, 'mutation { updatePost(documentId: "unknown", data: { title: "X" }) { title } }'), { updatePost: null });
      assert.deepEqual(await data(p.api, `mutation { deletePost(documentId: "${id}") { documentId } }`), { deletePost: { documentId: id } });
      assert.deepEqual(await data(p.api, 'mutation { deletePost(documentId: "unknown") { documentId } }'), { deletePost: { documentId: 'unknown' } });
      const left = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM "${p.schema}".ct_post WHERE document_id = $1`, values: [id] }));
      assert.equal(left, 0);
    });

    it('validation errors are BAD_USER_INPUT with every field error, and nothing is written', async () => {
      const before = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM "${p.schema}".ct_post`, values: [] }));
      const { status, body } = await gql(p.api, 'mutation { createPost(data: { readingMinutes: -1, author: "nobody" }) { title } }');
      assert.equal(status, 200);
      assert.deepEqual(body.data, { createPost: null });
      assert.equal(body.errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(body.errors[0].extensions.error.name, 'ValidationError');
      assert.ok(Array.isArray(body.errors[0].extensions.error.details.errors));
      const after = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM "${p.schema}".ct_post`, values: [] }));
      assert.equal(after, before);
    });

    it('a dynamic-zone item naming an unknown component is refused before execution', async () => {
      const { status, body } = await gql(p.api, 'mutation { createPost(data: { title: "x", sections: [{ __component: "blog.cta", label: "a" }] }) { title } }');
      assert.equal(status, 400);
      assert.equal(body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(body.errors[0].message, /Component not found\. expected one of: ComponentBlogCta, ComponentBlogFigure/);
    });
  });

  describe('permissions', () => {
    it('anonymous without permissions: FORBIDDEN, data null', async () => {
      const { status, body } = await gql(p.client(null), '{ posts { title } }');
      assert.equal(status, 200);
      assert.deepEqual(body, {
        errors: [{
          message: 'Forbidden access', locations: [{ line: 1, column: 3 }], path: ['posts'],
          extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } },
        }],
        data: null,
      });
    });

    it('an invalid token is refused before GraphQL with the REST 401 envelope', async () => {
      const res = await p.client('not-a-token').post('/graphql', { query: '{ posts { title } }' });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    });

    it('find and findOne are separate; unreadable relations stay empty; writes need their action', async () => {
      const key = await p.token('custom', { 'api::post.post': ['find'] });
      const client = p.client(key);
      const list = await data(client, '{ posts(pagination: { limit: 1 }, sort: "readingMinutes") { title author { name } tags { label } tags_connection { nodes { label } } } }');
      assert.deepEqual(list.posts, [{ title: 'Post 01', author: null, tags: [], tags_connection: { nodes: [] } }]);
      const one = await gql(client, `{ post(documentId: "${posts[0]}") { title } }`);
      assert.equal(one.body.errors[0].extensions.code, 'FORBIDDEN');
      assert.deepEqual(one.body.data, { post: null });
      const write = await gql(client, 'mutation { createPost(data: { title: "x" }) { title } }');
      assert.equal(write.body.errors[0].extensions.code, 'FORBIDDEN');
      const readOnly = p.client(await p.token('read-only'));
      assert.equal((await data(readOnly, `{ post(documentId: "${posts[0]}") { author { name } } }`)).post.author.name, 'Ann');
    });

    it('the public role applies to anonymous callers', async () => {
      await p.setPublic({ 'api::tag.tag': ['find'] });
      assert.deepEqual(await data(p.client(null), '{ tags(sort: "label") { label } }'), { tags: [{ label: 'alpha' }, { label: 'beta' }, { label: 'gamma' }] });
      await p.setPublic({});
    });
  });

  describe('round trips', () => {
    it('a connection with relations runs the same statements whatever its page size or depth', async () => {
      const pool = t.platform.db.pool as unknown as Record<string, (...args: unknown[]) => unknown>;
      const counted = ['any', 'one', 'oneFirst', 'maybeOne', 'maybeOneFirst', 'many', 'query'];
      const originals = new Map(counted.map((m) => [m, pool[m]!]));
      let statements = 0;
      // Statements on this project's schema; slonik passes the same token between its own methods.
      const seen = new WeakSet<object>();
      for (const m of counted) {
        pool[m] = (...args: unknown[]) => {
          const token = args[0] as { sql?: string } | undefined;
          if (token && typeof token === 'object' && !seen.has(token) && token.sql?.includes(`"${p.schema}"`)) {
            seen.add(token);
            statements++;
          }
          return originals.get(m)!.apply(pool, args);
        };
      }
      try {
        const run = async (size: number) => {
          statements = 0;
          const d = await data(p.api, `{ posts_connection(pagination: { pageSize: ${size} }) { nodes { title author { name posts { title tags { label } } } tags { label posts { title } } sections { __typename } } pageInfo { total } } }`);
          assert.equal(d.posts_connection.nodes.length, size);
          return statements;
        };
        const small = await run(2);
        const large = await run(12);
        assert.equal(small, 1, 'one statement for the page and its total');
        assert.equal(large, small);
      } finally {
        for (const [m, fn] of originals) pool[m] = fn;
      }
    });
  });

  describe('model changes', () => {
    it('the schema is rebuilt after a model change, without a restart', async () => {
      const base = `/v1/projects/${p.slug}`;
      const model = blogRawModel();
      const { status: before } = await gql(p.api, '{ tags { label color } }');
      assert.equal(before, 400);
      (model.contentTypes['api::tag.tag']!.attributes as Json).color = { type: 'string' };
      assert.equal((await p.admin.put(`${base}/schema`, model)).statusCode, 200);
      const d = await data(p.api, '{ tags(sort: "label", pagination: { limit: 1 }) { label color } }');
      assert.deepEqual(d.tags, [{ label: 'alpha', color: null }]);
      assert.equal((await p.admin.put(`${base}/schema`, blogRawModel())).statusCode, 200);
    });

    it('a model whose GraphQL names collide is refused at push, and the model is unchanged', async () => {
      const base = `/v1/projects/${p.slug}`;
      const model = blogRawModel();
      model.contentTypes['api::error.error'] = { kind: 'collectionType', info: { singularName: 'error', pluralName: 'errors', displayName: 'Error' }, attributes: { code: { type: 'string' } } };
      const res = await p.admin.put(`${base}/schema`, model);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.name, 'ValidationError');
      assert.match(res.json().error.message, /^The model cannot be served over GraphQL: .*"Error"/);
      assert.equal((await p.admin.get(`${base}/schema`)).json().contentTypes['api::error.error'], undefined);
    });
  });

  describe('limits and transport', () => {
    it('too deep an operation is refused before execution', async () => {
      let selection = 'title';
      for (let i = 0; i < 6; i++) selection = `author { posts { ${selection} } }`;
      const { status, body } = await gql(p.api, `{ posts { ${selection} } }`);
      assert.equal(status, 400);
      assert.equal(body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(body.errors[0].message, /exceeds the query depth limit of 10/);
    });

    it('too expensive an operation is refused before execution, also through variables', async () => {
      const query = 'query($n: Int) { posts(pagination: { limit: $n }) { tags(pagination: { limit: 50 }) { posts(pagination: { limit: 50 }) { title } } } }';
      const refused = await gql(p.api, query, { n: 100 });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(refused.body.errors[0].message, /estimated cost \d+ exceeds the limit of 50000/);
      assert.equal((await gql(p.api, query, { n: 1 })).status, 200);
    });

    it('each operation of a document is costed on its own', async () => {
      const document = 'query Cheap { tags { label } } query Dear { posts(pagination: { limit: 100 }) { tags(pagination: { limit: 50 }) { posts(pagination: { limit: 50 }) { title } } } }';
      const cheap = await p.api.post('/graphql', { query: document, operationName: 'Cheap' });
      assert.equal(cheap.statusCode, 200);
      const dear = await p.api.post('/graphql', { query: document, operationName: 'Dear' });
      assert.equal(dear.statusCode, 400);
      assert.match(dear.json().errors[0].message, /estimated cost \d+ exceeds the limit of 50000/);
    });

    it('GET runs queries, refuses mutations, and needs a CSRF-safe request', async () => {
      const q = encodeURIComponent('{ tags(sort: "label") { label } }');
      const blocked = await p.api.get(`/graphql?query=${q}`);
      assert.equal(blocked.statusCode, 400);
      assert.match(blocked.json().errors[0].message, /Cross-Site Request Forgery/);
      const ok = await p.api.get(`/graphql?query=${q}`, { 'apollo-require-preflight': 'true' });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().data.tags.length, 3);
      const mutation = await p.api.get(`/graphql?query=${encodeURIComponent('mutation { deleteTag(documentId: "x") { documentId } }')}`, { 'content-type': 'application/json' });
      assert.equal(mutation.statusCode, 405);
    });

    it('transport errors: malformed JSON, no query, bad variables', async () => {
      const malformed = await p.api.raw('POST', '/graphql', { payload: '{"query": ', headers: { 'content-type': 'application/json' } });
      assert.equal(malformed.statusCode, 400);
      assert.equal((await gql(p.api, '')).status, 400);
      const badVars = await gql(p.api, 'query($id: ID!) { post(documentId: $id) { title } }', { id: { nested: true } });
      assert.equal(badVars.status, 400);
      assert.equal(badVars.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    });

    it('GraphiQL is served to browsers', async () => {
      const page = await p.client(null).get('/graphql', { accept: 'text/html' });
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
      assert.match(page.body, /graphiql\/main\.js/);
      const config = await p.client(null).get('/graphiql/config.js');
      assert.equal(config.statusCode, 200);
      assert.match(config.body, /GRAPHQL_ENDPOINT = '\.\/graphql'/);
    });
  });

  describe('settings', () => {
    it('defaultLimit, maxLimit, introspection and playground are per-project settings', async () => {
      const url = `/v1/projects/${p.slug}/settings/graphql`;
      assert.deepEqual((await p.admin.get(url)).json(), {
        graphql: { defaultLimit: 10, maxLimit: -1, depthLimit: 10, costLimit: 50000, introspection: true, playground: true },
      });
      const bad = await p.admin.put(url, { defaultLimit: 0, maxLimit: 0, nope: 1 });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().error.details.errors.map((e: Json) => e.path[0]), ['defaultLimit', 'maxLimit', 'nope']);
      assert.equal((await p.admin.put(url, { defaultLimit: 3, maxLimit: 5, introspection: false, playground: false })).statusCode, 200);
      try {
        assert.equal((await data(p.api, '{ posts { title } }')).posts.length, 3);
        assert.equal((await data(p.api, '{ posts(pagination: { limit: 50 }) { title } }')).posts.length, 5);
        assert.equal((await data(p.api, '{ posts(pagination: { limit: -1 }) { title } }')).posts.length, 5);
        const introspection = await gql(p.api, '{ __schema { types { name } } }');
        assert.equal(introspection.status, 400);
        assert.equal(introspection.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
        assert.notEqual((await p.client(null).get('/graphql', { accept: 'text/html' })).statusCode, 200);
      } finally {
        await p.admin.put(url, { defaultLimit: 10, maxLimit: -1, introspection: true, playground: true });
      }
    });
  });

  describe('tenant isolation', () => {
    it('a token of another project is refused, and the same names read only this project\'s data', async () => {
      const other = await setupContentProject(t, blogRawModel());
      await other.api.post('/api/tags', { data: { label: 'foreign' } });
      const res = await other.client(await other.token('full-access')).post(`/graphql`, { query: '{ tags { label } }' });
      assert.deepEqual(res.json().data.tags, [{ label: 'foreign' }]);
      const key = await other.token('full-access');
      const crossed = await p.client(key).post('/graphql', { query: '{ tags { label } }' });
      assert.equal(crossed.statusCode, 401);
      assert.equal((await data(p.api, '{ tags(filters: { label: { eq: "foreign" } }) { label } }')).tags.length, 0);
    });
  });
});
