// The hand-written baselines of `make bench-100k`: plain fastify + pg, each on its own copy of
// the seeded tables (large.ts clones them, without our triggers), answering byte for byte what
// the gateway answers — JSON built by Postgres, sent as it comes. Two ways to know a total:
//   COUNT_MODE=exact   count(*) on every list, in the same statement as the page;
//   COUNT_MODE=cached  what a careful developer does to keep totals exact without rescanning:
//     per-status counts in a table updated in each write's transaction (one indexed read per
//     unfiltered list), and filtered totals cached in memory per filter and values, valid while
//     the type's write counter (bumped by every write, read in the page's statement) is unchanged.
// POST /graphql answers the bench's one connection operation with SQL written for it (no GraphQL
// library: the cheapest possible hand-written resolver).
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const schema = process.env.BENCH_SCHEMA!;
const cached = process.env.COUNT_MODE === 'cached';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify();
const s = `"${schema}"`;
const PAGE_SIZE = 25;
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ARTICLE = (a: string) => `'id', ${a}.id, 'documentId', ${a}.document_id, 'name', ${a}.name, 'body', ${a}.body, 'rating', ${a}.rating,
  'createdAt', ${iso(`${a}.created_at`)}, 'updatedAt', ${iso(`${a}.updated_at`)}, 'publishedAt', ${iso(`${a}.published_at`)}`;
const AUTHOR = (a: string) => `(SELECT json_build_object('id', au.id, 'documentId', au.document_id, 'name', au.name)
  FROM ${s}.lnk_ct_article__author l JOIN ${s}.ct_author au ON au.document_id = l.target_document_id AND au.published_at IS NOT NULL
  WHERE l.source_id = ${a}.id LIMIT 1)`;
const TAGS = (a: string) => `COALESCE((SELECT json_agg(json_build_object('id', t.id, 'documentId', t.document_id, 'label', t.label) ORDER BY l.ord, l.id)
  FROM ${s}.lnk_ct_article__tags l JOIN ${s}.ct_tag t ON t.document_id = l.target_document_id AND t.published_at IS NOT NULL
  WHERE l.source_id = ${a}.id), '[]')`;
const PUBLISHED = 'a.published_at IS NOT NULL';

interface Page { where: string; order: string; values: unknown[]; page: number; fields: string; filterKey?: string }

/** Filtered totals by filter and values, with the write counter they were counted at. */
const totals = new Map<string, { writes: string; total: number }>();

/** One statement: the page as JSON text and the total (or, cached, what is needed to know it). */
async function list(p: Page): Promise<{ data: string; total: number }> {
  const offset = (p.page - 1) * PAGE_SIZE;
  const rows = `(SELECT COALESCE(json_agg(json_build_object(${p.fields}) ORDER BY ${p.order}), '[]')::text FROM
    (SELECT * FROM ${s}.ct_article a WHERE ${p.where} ORDER BY ${p.order} LIMIT ${PAGE_SIZE} OFFSET ${offset}) a) AS data`;
  if (!cached) {
    const r = await pool.query(`SELECT ${rows}, (SELECT count(*)::int FROM ${s}.ct_article a WHERE ${p.where}) AS total`, p.values);
    return r.rows[0];
  }
  if (!p.filterKey) {
    const r = await pool.query(`SELECT ${rows}, (SELECT n::int FROM ${s}.bench_counts WHERE k = 'article:published') AS total`, p.values);
    return r.rows[0];
  }
  const key = `${p.filterKey}\0${JSON.stringify(p.values)}`;
  const r = await pool.query(`SELECT ${rows}, (SELECT n::text FROM ${s}.bench_counts WHERE k = 'article:writes') AS writes`, p.values);
  const { data, writes } = r.rows[0] as { data: string; writes: string };
  const hit = totals.get(key);
  if (hit && hit.writes === writes) return { data, total: hit.total };
  // Counted with the counter in one snapshot: the total belongs to that counter value.
  const c = await pool.query(`SELECT (SELECT n::text FROM ${s}.bench_counts WHERE k = 'article:writes') AS writes,
    (SELECT count(*)::int FROM ${s}.ct_article a WHERE ${p.where}) AS total`, p.values);
  totals.set(key, c.rows[0]);
  // A write between the two statements: this page's total is the newer one, still exact now.
  return { data, total: c.rows[0].total };
}

const pagination = (page: number, total: number) =>
  `{"pagination":{"page":${page},"pageSize":${PAGE_SIZE},"pageCount":${Math.ceil(total / PAGE_SIZE)},"total":${total}}}`;

async function send(reply: any, p: Page) {
  const { data, total } = await list(p);
  return reply.type('application/json').send(`{"data":${data},"meta":${pagination(p.page, total)}}`);
}

type PageQuery = { Querystring: { page?: string; min?: string } };
const pageOf = (q: { page?: string }, fallback: number) => Math.max(1, Number.parseInt(q.page ?? '', 10) || fallback);
// `?min=r`: rating ≥ r, in id order (answer-cache.ts's reads that never repeat), its total cached per value.
app.get<PageQuery>('/list', (req, reply) => send(reply, req.query.min === undefined
  ? { where: PUBLISHED, order: 'a.id', values: [], page: pageOf(req.query, 1), fields: ARTICLE('a') }
  : { where: `${PUBLISHED} AND a.rating >= $1`, order: 'a.id', values: [Number(req.query.min)], page: pageOf(req.query, 1), fields: ARTICLE('a'), filterKey: 'rating>=' }));
app.get<PageQuery>('/populate', (req, reply) => send(reply, {
  where: PUBLISHED, order: 'a.id', values: [], page: pageOf(req.query, 1), fields: `${ARTICLE('a')}, 'author', ${AUTHOR('a')}, 'tags', ${TAGS('a')}`,
}));
app.get<PageQuery>('/filtered', (req, reply) => send(reply, {
  where: `${PUBLISHED} AND a.rating >= $1`, order: 'a.name, a.id', values: [4], page: pageOf(req.query, 3), fields: ARTICLE('a'), filterKey: 'rating>=',
}));
app.get<{ Params: { id: string } }>('/one/:id', async (req, reply) => {
  const r = await pool.query(`SELECT json_build_object(${ARTICLE('a')})::text AS data FROM ${s}.ct_article a WHERE a.document_id = $1 AND ${PUBLISHED}`, [req.params.id]);
  if (!r.rows[0]) return reply.status(404).send({ data: null });
  return reply.type('application/json').send(`{"data":${r.rows[0].data},"meta":{}}`);
});

const GQL_NODE = `json_build_object('documentId', a.document_id, 'name', a.name, 'rating', a.rating,
  'author', (SELECT json_build_object('name', au.name) FROM ${s}.lnk_ct_article__author l JOIN ${s}.ct_author au ON au.document_id = l.target_document_id AND au.published_at IS NOT NULL WHERE l.source_id = a.id LIMIT 1),
  'tags', COALESCE((SELECT json_agg(json_build_object('label', t.label) ORDER BY l.ord, l.id) FROM ${s}.lnk_ct_article__tags l JOIN ${s}.ct_tag t ON t.document_id = l.target_document_id AND t.published_at IS NOT NULL WHERE l.source_id = a.id), '[]'))`;
app.post('/graphql', async (_req, reply) => {
  const { data, total } = await gqlPage();
  return reply.type('application/json').send(`{"data":{"articles_connection":{"nodes":${data},"pageInfo":{"page":1,"pageSize":${PAGE_SIZE},"pageCount":${Math.ceil(total / PAGE_SIZE)},"total":${total}}}}}`);
});
async function gqlPage(): Promise<{ data: string; total: number }> {
  const nodes = `(SELECT COALESCE(json_agg(${GQL_NODE} ORDER BY a.id), '[]')::text FROM
    (SELECT * FROM ${s}.ct_article a WHERE ${PUBLISHED} ORDER BY a.id LIMIT ${PAGE_SIZE}) a) AS data`;
  const total = cached
    ? `(SELECT n::int FROM ${s}.bench_counts WHERE k = 'article:published')`
    : `(SELECT count(*)::int FROM ${s}.ct_article a WHERE ${PUBLISHED})`;
  return (await pool.query(`SELECT ${nodes}, ${total} AS total`)).rows[0];
}

// Create = what the content API does: a draft row and its published copy, each with its author
// link, two tag links (inverse order after the target's last link) and its component row, in one
// transaction; cached, the counts and the write counter move in the same transaction.
interface CreateBody { data: { name: string; body: string; rating: number; author: string; tags: string[]; seo: { metaTitle: string; metaDescription: string } } }
app.post<{ Body: CreateBody }>('/create', async (req, reply) => {
  const d = req.body.data;
  const documentId = randomBytes(18).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 24);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query(`INSERT INTO ${s}.ct_article AS a (document_id, published_at, name, body, rating)
      VALUES ($1, NULL, $2, $3, $4), ($1, now(), $2, $3, $4)
      RETURNING a.id, a.published_at IS NOT NULL AS published, json_build_object(${ARTICLE('a')})::text AS json`, [documentId, d.name, d.body, d.rating]);
    const ids = inserted.rows.map((r) => r.id);
    await client.query(`INSERT INTO ${s}.lnk_ct_article__author (source_id, target_document_id, ord, inv_ord)
      SELECT id, $2, 1, (SELECT coalesce(max(inv_ord), 0) FROM ${s}.lnk_ct_article__author WHERE target_document_id = $2) + o
      FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, o)`, [ids, d.author]);
    await client.query(`INSERT INTO ${s}.lnk_ct_article__tags (source_id, target_document_id, ord, inv_ord)
      SELECT r.id, t.t, t.o, (SELECT coalesce(max(inv_ord), 0) FROM ${s}.lnk_ct_article__tags WHERE target_document_id = t.t) + r.o
      FROM unnest($1::bigint[]) WITH ORDINALITY AS r(id, o), unnest($2::text[]) WITH ORDINALITY AS t(t, o)`, [ids, d.tags]);
    await client.query(`INSERT INTO ${s}.cmp_shared__seo (owner_id, owner_type, owner_field, ord, "metaTitle", "metaDescription")
      SELECT id, 'api::article.article', 'seo', 0, $2, $3 FROM unnest($1::bigint[]) AS u(id)`, [ids, d.seo.metaTitle, d.seo.metaDescription]);
    if (cached) {
      // The counter rows locked in one order by every writer (no deadlock between two creates).
      await client.query(`UPDATE ${s}.bench_counts c SET n = c.n + 1 FROM (SELECT k FROM ${s}.bench_counts
        WHERE k IN ('article:draft', 'article:published', 'article:writes') ORDER BY k FOR UPDATE) l WHERE c.k = l.k`);
    }
    await client.query('COMMIT');
    const published = inserted.rows.find((r) => r.published)!;
    return reply.status(201).type('application/json').send(`{"data":${published.json},"meta":{}}`);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
