// Exact list totals without a scan per request (docs/performance.md, "Exact totals"): unfiltered
// totals kept in `doc_counts` by every write's own transaction, filtered totals cached until a
// table their filter reads is written. Every answer is compared with a count of the rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery, type Db } from '@cms/db';
import { totalCache, type TotalSql } from '@cms/query';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { gqlData } from '../helpers/graphql.ts';
import { multipart } from '../helpers/multipart.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const i18n = { pluginOptions: { i18n: { localized: true } } };
const article = (options = { draftAndPublish: true }, localized = true) => ({
  ...ct('article', 'articles', {
    title: { type: 'string', ...(localized ? i18n : {}) },
    rating: { type: 'integer' },
    tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
  }, localized ? i18n : {}),
  options,
});
const tag = () => ct('tag', 'tags', {
  name: { type: 'string', unique: true },
  articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
});
const note = () => ({ ...ct('note', 'notes', { body: { type: 'string' } }), options: { draftAndPublish: false } });
const MODEL = { contentTypes: { 'api::article.article': article(), 'api::tag.tag': tag(), 'api::note.note': note() }, components: {} };

describe('exact totals', () => {
  let t: TestApp;
  let p: ContentProject;
  let pool: Db;

  const q = (text: string, values: unknown[] = []) => pool.any(compiledQuery({ text, values }));
  const countRows = async (sql: string) => Number(await pool.oneFirst(compiledQuery({ text: sql.replaceAll('$S', `"${p.schema}"`), values: [] })));

  /** A REST list's total, checked against the rows it answers (every page fits in 100). */
  const rest = async (client: ContentProject, path: string, query = '') => {
    const res = await client.api.get(`${path}?pagination[pageSize]=100&${query}`);
    assert.equal(res.statusCode, 200, `${path}?${query}: ${res.body}`);
    const body = res.json();
    assert.equal(body.meta.pagination.total, body.data.length, `${path}?${query}: total vs rows`);
    return body.meta.pagination.total as number;
  };
  const totals = async (path: string, queries: string[]) => {
    const out: Record<string, number> = {};
    for (const query of queries) out[query] = await rest(p, path, query);
    return out;
  };
  const created = async (url: string, data: unknown) => {
    const res = await p.api.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
  };
  const put = async (url: string, data: unknown) => {
    const res = await p.api.put(url, { data });
    assert.equal(res.statusCode, 200, res.body);
  };
  const action = async (name: 'unpublish' | 'discard', documentId: string, locale?: string) => {
    const res = await p.admin.post(`/v1/projects/${p.slug}/content/api::article.article/${documentId}/${name}`, locale ? { locale } : {});
    assert.equal(res.statusCode, 204, res.body);
  };
  /** `doc_counts` equals a recount of every counted table (zero rows may stay). */
  const assertKeptExact = async (schema: string) => {
    const tables = (await q(`SELECT DISTINCT c.relname AS t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
      WHERE g.tgname = 'cms_count_insert' AND c.relnamespace = $1::regnamespace ORDER BY 1`, [schema])).map((r) => String(r.t));
    const kept = (await q(`SELECT tbl, status, locale, sum(n)::int AS n FROM "${schema}".doc_counts WHERE status IS NOT NULL
      GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`)).map((r) => ({ ...r }));
    const recount: unknown[] = [];
    for (const table of tables) {
      recount.push(...(await q(`SELECT $1::text AS tbl, CASE WHEN published_at IS NULL THEN 'draft' ELSE 'published' END AS status,
        ${table === 'files' || table === 'up_users' ? `''` : `coalesce(locale, '')`} AS locale, count(*)::int AS n FROM "${schema}"."${table}" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`, [table])).map((r) => ({ ...r })));
    }
    assert.deepEqual(kept, recount);
  };
  const ARTICLE_QUERIES = ['', 'status=draft', 'locale=fr', 'locale=fr&status=draft', 'locale=*', 'status=draft&locale=*',
    'filters[rating][$gte]=3', 'filters[tags][name][$eq]=t1', 'status=draft&filters[tags][name][$eq]=t1', 'publicationFilter=modified&status=draft',
    '_q=hello', 'filters[title][$contains]=o&locale=*'];
  /** Every article list's total equals its rows, the kept counts equal a recount; returns the totals. */
  const check = async () => {
    await assertKeptExact(p.schema);
    return totals('/api/articles', ARTICLE_QUERIES);
  };

  before(async () => {
    // What is checked is how totals are counted in SQL: every read must run it (no answer cache).
    t = await startTestApp({ env: { ANSWER_CACHE_MB: '0' } });
    pool = t.platform.db.pool;
    p = await setupContentProject(t, MODEL, ['fr']);
  });
  after(async () => t?.close());

  it('keeps unfiltered totals in doc_counts and reads them with one indexed read', async () => {
    const schema = p.schema;
    assert.deepEqual(await check(), Object.fromEntries(ARTICLE_QUERIES.map((k) => [k, 0])));
    const plan = (await q(`EXPLAIN SELECT coalesce(sum(n), 0) FROM "${schema}".doc_counts WHERE tbl = 'ct_article' AND status = ANY('{published}') AND locale = 'en'`))
      .map((r) => String(r['QUERY PLAN'])).join('\n');
    assert.match(plan, /Index (Only )?Scan/);
  });

  it('a filtered total whose tables were not written since is not recounted (the count InitPlan never runs)', async () => {
    let captured: TotalSql | undefined;
    const original = totalCache.run;
    totalCache.run = async function (this: typeof totalCache, db: Db, sql: TotalSql) {
      if (sql.kind === 'checked') captured = sql;
      return original.call(this, db, sql);
    };
    const hits = totalCache.hits;
    try {
      await rest(p, '/api/articles', 'filters[rating][$gte]=1');
      await rest(p, '/api/articles', 'filters[rating][$gte]=1');
    } finally {
      totalCache.run = original;
    }
    assert.equal(totalCache.hits, hits + 1);
    const sql = captured!;
    const version = String(await pool.oneFirst(compiledQuery({ text: `SELECT "version" FROM (${sql.text}) c`, values: [...sql.values, '-1'] })));
    const explain = async (cached: string) => (await q(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${sql.text}`, [...sql.values, cached]))
      .map((r) => String(r['QUERY PLAN'])).join('\n');
    const current = await explain(version);
    assert.match(current, /InitPlan/);
    assert.match(current, /Seq Scan on ct_article .*\(never executed\)|\(never executed\)/);
    assert.match(current, /Aggregate \(never executed\)/);
    assert.doesNotMatch(await explain('-1'), /Aggregate \(never executed\)/);
  });

  it('every kind of write moves the totals: create, localization, publish, unpublish, discard, delete', async () => {
    const t1 = await created('/api/tags', { name: 't1' });
    await created('/api/tags', { name: 't2' });
    // create: draft only, then draft + published
    const a = await created('/api/articles?status=draft', { title: 'hello one', rating: 4, tags: [t1] });
    let r = await check();
    assert.equal(r[''], 0);
    assert.equal(r['status=draft'], 1);
    assert.equal(r['status=draft&filters[tags][name][$eq]=t1'], 1);
    const b = await created('/api/articles', { title: 'two', rating: 2 });
    r = await check();
    assert.equal(r[''], 1);
    assert.equal(r['status=draft'], 2);
    assert.equal(r['filters[rating][$gte]=3'], 0);
    // publish (a REST write without status=draft publishes)
    await put(`/api/articles/${a}`, { title: 'hello one', rating: 4 });
    r = await check();
    assert.equal(r[''], 2);
    assert.equal(r['filters[rating][$gte]=3'], 1);
    assert.equal(r['filters[tags][name][$eq]=t1'], 1);
    // a localization added (draft, then published)
    await put(`/api/articles/${a}?locale=fr&status=draft`, { title: 'bonjour' });
    r = await check();
    assert.equal(r['locale=fr&status=draft'], 1);
    assert.equal(r['locale=fr'], 0);
    assert.equal(r['status=draft&locale=*'], 3);
    await put(`/api/articles/${a}?locale=fr`, { title: 'bonjour' });
    r = await check();
    assert.equal(r['locale=fr'], 1);
    assert.equal(r['locale=*'], 3);
    // modified draft
    await put(`/api/articles/${b}?status=draft`, { title: 'two modified' });
    r = await check();
    assert.equal(r['publicationFilter=modified&status=draft'], 1);
    // unpublish one locale, discard a draft
    await action('unpublish', a, 'fr');
    r = await check();
    assert.equal(r['locale=fr'], 0);
    assert.equal(r['locale=fr&status=draft'], 1);
    await action('discard', b);
    r = await check();
    assert.equal(r['publicationFilter=modified&status=draft'], 0);
    // delete one locale, then every locale
    let res = await p.api.del(`/api/articles/${a}?locale=fr`);
    assert.equal(res.statusCode, 204, res.body);
    r = await check();
    assert.equal(r['locale=fr&status=draft'], 0);
    assert.equal(r['status=draft'], 2);
    res = await p.api.del(`/api/articles/${a}?locale=*`);
    assert.equal(res.statusCode, 204, res.body);
    r = await check();
    assert.equal(r[''], 1);
    assert.equal(r['status=draft'], 1);
    assert.equal(r['filters[tags][name][$eq]=t1'], 0);
  });

  it('a filtered total is recounted when a type its filter reaches is written, from either side', async () => {
    const tag3 = await created('/api/tags', { name: 't3' });
    const x = await created('/api/articles', { title: 'x', tags: [tag3] });
    assert.equal(await rest(p, '/api/articles', 'filters[tags][name][$eq]=t3'), 1);
    assert.equal(await rest(p, '/api/articles', 'filters[tags][name][$eq]=t3'), 1); // from the cache
    // The tag renamed: only the tag table is written.
    await put(`/api/tags/${tag3}`, { name: 't3b' });
    assert.equal(await rest(p, '/api/articles', 'filters[tags][name][$eq]=t3'), 0);
    assert.equal(await rest(p, '/api/articles', 'filters[tags][name][$eq]=t3b'), 1);
    // The link written from the tag's side (the inverse attribute).
    const y = await created('/api/articles', { title: 'y' });
    await put(`/api/tags/${tag3}`, { articles: [x, y] });
    assert.equal(await rest(p, '/api/articles', 'filters[tags][name][$eq]=t3b'), 2);
    await put(`/api/tags/${tag3}`, { articles: [] });
    assert.equal(await rest(p, '/api/articles', 'filters[tags][name][$eq]=t3b'), 0);
    // GraphQL connections read the same totals.
    const data = await gqlData(p.api, `{ all: articles_connection { pageInfo { total } }
      drafts: articles_connection(status: DRAFT) { pageInfo { total } }
      tagged: articles_connection(filters: { title: { eq: "x" } }) { pageInfo { total } } }`);
    assert.equal(data.all.pageInfo.total, await countRows(`SELECT count(*) FROM $S.ct_article WHERE published_at IS NOT NULL AND locale = 'en'`));
    assert.equal(data.drafts.pageInfo.total, await countRows(`SELECT count(*) FROM $S.ct_article WHERE published_at IS NULL AND locale = 'en'`));
    assert.equal(data.tagged.pageInfo.total, 1);
  });

  it('end users and media files: counted the same way', async () => {
    const usersBefore = Number((await p.api.get('/api/users/count')).body);
    const res = await p.api.post('/api/users', { username: 'kim', email: 'kim@example.com', password: 'secret123' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(Number((await p.api.get('/api/users/count')).body), usersBefore + 1);
    assert.equal(Number((await p.api.get('/api/users/count?filters[username][$eq]=kim')).body), 1);
    const files = async () => (await gqlData(p.api, '{ uploadFiles_connection { pageInfo { total } } }')).uploadFiles_connection.pageInfo.total as number;
    const before = await files();
    const body = await multipart({ files: { name: 'a.txt', content: 'hello', type: 'text/plain' } });
    const up = await p.api.raw('POST', '/api/upload', { payload: body.payload, headers: body.headers });
    assert.equal(up.statusCode, 201, up.body);
    assert.equal(await files(), before + 1);
    await assertKeptExact(p.schema);
  });

  it('a failed write changes no counter', async () => {
    await created('/api/tags', { name: 'unique-one' });
    const snapshot = async () => (await q(`SELECT * FROM "${p.schema}".doc_counts ORDER BY tbl, status, locale, n`)).map((r) => ({ ...r }));
    const before = await snapshot();
    const res = await p.api.post('/api/tags', { data: { name: 'unique-one' } });
    assert.equal(res.statusCode, 400, res.body);
    const bad = await p.api.post('/api/articles', { data: { title: 'bad', rating: 'not a number' } });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.deepEqual(await snapshot(), before);
  });

  it('schema pushes: draft & publish and i18n toggled, a type removed — recounted in the migration', async () => {
    const push = async (model: unknown) => {
      const res = await p.admin.put(`/v1/projects/${p.slug}/schema`, model);
      assert.equal(res.statusCode, 200, res.body);
    };
    await created('/api/notes', { body: 'n1' });
    const frOnly = await created('/api/articles?locale=fr', { title: 'fr only' });
    const before = await check();
    // i18n can only be turned off once no other locale has entries.
    const res = await p.api.del(`/api/articles/${frOnly}?locale=fr`);
    assert.equal(res.statusCode, 204, res.body);
    await push({ ...MODEL, contentTypes: { ...MODEL.contentTypes, 'api::article.article': article({ draftAndPublish: true }, false) } });
    await assertKeptExact(p.schema);
    const plain = await totals('/api/articles', ['', 'status=draft', 'filters[rating][$gte]=3']);
    assert.equal(plain[''], await countRows('SELECT count(*) FROM $S.ct_article WHERE published_at IS NOT NULL'));
    assert.equal(plain['status=draft'], await countRows('SELECT count(*) FROM $S.ct_article WHERE published_at IS NULL'));
    // draft & publish off
    await push({ ...MODEL, contentTypes: { ...MODEL.contentTypes, 'api::article.article': article({ draftAndPublish: false }, false) } });
    await assertKeptExact(p.schema);
    const rows = await countRows('SELECT count(*) FROM $S.ct_article');
    assert.deepEqual(await totals('/api/articles', ['', 'status=draft']), { '': rows, 'status=draft': rows });
    // both back on
    await push(MODEL);
    await assertKeptExact(p.schema);
    const back = await check();
    assert.equal(back[''], await countRows(`SELECT count(*) FROM $S.ct_article WHERE published_at IS NOT NULL AND locale = 'en'`));
    assert.ok(before['locale=*'] >= 1);
    // the note type removed: its counts go; added again it starts from zero
    await push({ ...MODEL, contentTypes: { 'api::article.article': article(), 'api::tag.tag': tag() } });
    assert.equal((await q(`SELECT * FROM "${p.schema}".doc_counts WHERE tbl = 'ct_note' AND status IS NOT NULL`)).length, 0);
    await push(MODEL);
    assert.equal(await rest(p, '/api/notes'), 0);
    await assertKeptExact(p.schema);
  });

  it('keeps each project’s counts apart (same type names)', async () => {
    const other = await setupContentProject(t, MODEL, ['fr']);
    const ours = await rest(p, '/api/tags');
    const res = await other.api.post('/api/tags', { data: { name: 'theirs' } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await rest(other, '/api/tags'), 1);
    assert.equal(await rest(other, '/api/tags', 'filters[name][$eq]=t1'), 0);
    assert.equal(await rest(p, '/api/tags'), ours);
    assert.equal(await rest(p, '/api/tags', 'filters[name][$eq]=t1'), 1);
    await assertKeptExact(other.schema);
    await assertKeptExact(p.schema);
  });

  it('concurrent writes and reads: every total equals count(*) in the snapshot that answered it', async () => {
    // Every total the server computes runs in a REPEATABLE READ transaction here, followed by the
    // list's own count(*) in the same snapshot (for a checked total: the same statement with no
    // cached entry, which always counts). Writers on other connections run meanwhile.
    const observed: Array<{ kind: string; total: number; truth: number }> = [];
    const original = totalCache.run;
    totalCache.run = async function (this: typeof totalCache, _db: Db, sql: TotalSql) {
      return t.platform.db.pool.transaction(async (tx) => {
        await tx.query(compiledQuery({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', values: [] }));
        const answer = await original.call(this, tx, sql);
        const total = answer.total;
        let truth: number;
        if (sql.kind === 'checked') {
          truth = Number(await tx.oneFirst(compiledQuery({ text: `SELECT "count" FROM (${sql.text}) c`, values: [...sql.values, '-1'] })));
        } else {
          // The ledger's key: the table and statuses are literals of the statement, the locale its parameter.
          const [, schema, table, statusList] = /FROM ("[^"]+")\."doc_counts" WHERE "tbl" = '([^']+)' AND "status" IN \(([^)]*)\)/.exec(sql.text)!;
          const statuses = [...statusList!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
          const [locale] = sql.values.slice(sql.offset) as [string | undefined];
          const conds = [`(CASE WHEN published_at IS NULL THEN 'draft' ELSE 'published' END) = ANY($1::text[])`];
          if (locale !== undefined) conds.push(`locale = $2`);
          truth = Number(await tx.oneFirst(compiledQuery({
            text: `SELECT count(*) FROM ${schema}."${table}" WHERE ${conds.join(' AND ')}`, values: locale !== undefined ? [statuses, locale] : [statuses],
          })));
        }
        observed.push({ kind: sql.kind, total, truth });
        return answer;
      });
    };
    try {
      const tags = [await created('/api/tags', { name: 'c1' }), await created('/api/tags', { name: 'c2' })];
      const live: string[] = [];
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; i < 25; i++) {
          const op = (i + w) % 4;
          if (op === 3 && live.length > 0) {
            const id = live.splice((i * 7 + w) % live.length, 1)[0]!;
            const res = await p.api.del(`/api/articles/${id}?locale=*`);
            assert.equal(res.statusCode, 204, res.body);
          } else if (op === 2 && live.length > 0) {
            const id = live[(i + w) % live.length]!;
            const res = await p.api.put(`/api/articles/${id}`, { data: { rating: i % 5, tags: [tags[i % 2]] } });
            assert.ok(res.statusCode === 200 || res.statusCode === 404, res.body);
          } else {
            const res = await p.api.post(`/api/articles${op === 1 ? '?status=draft' : ''}`, { data: { title: `c${w}-${i}`, rating: i % 5, tags: [tags[(i + w) % 2]] } });
            assert.equal(res.statusCode, 201, res.body);
            live.push(res.json().data.documentId);
          }
        }
      };
      const reader = async () => {
        const queries = ['', 'status=draft', 'locale=*', 'filters[rating][$gte]=3', 'filters[tags][name][$eq]=c1', 'status=draft&filters[tags][name][$eq]=c2'];
        let i = 0;
        while (!stop) {
          const query = queries[i++ % queries.length]!;
          const res = await p.api.get(`/api/articles?pagination[pageSize]=1&${query}`);
          assert.equal(res.statusCode, 200, res.body);
          if (i % 5 === 0) await gqlData(p.api, '{ articles_connection(filters: { rating: { gte: 2 } }) { pageInfo { total } } }');
        }
      };
      const readers = [reader(), reader(), reader()];
      await Promise.all([writer(0), writer(1), writer(2)]);
      stop = true;
      await Promise.all(readers);
    } finally {
      totalCache.run = original;
    }
    const wrong = observed.filter((o) => o.total !== o.truth);
    assert.deepEqual(wrong, [], `${wrong.length} of ${observed.length} totals differ from count(*) in their snapshot`);
    assert.ok(observed.filter((o) => o.kind === 'kept').length > 20, 'kept totals were read during the writes');
    assert.ok(observed.filter((o) => o.kind === 'checked').length > 20, 'checked totals were read during the writes');
    await assertKeptExact(p.schema);
  });
});
