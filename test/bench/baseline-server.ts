// The hand-written baseline: plain fastify + pg, the same queries written by hand the way a
// careful developer would (JSON of relations aggregated in Postgres, exact count per list).
import Fastify from 'fastify';
import pg from 'pg';

const schema = process.env.BENCH_SCHEMA!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify();
const s = `"${schema}"`;
const COLS = `a.id, a.document_id AS "documentId", a.title, a.body, a.views, a.rating::float8 AS rating,
  to_char(a."publishedOn", 'YYYY-MM-DD') AS "publishedOn", a.created_at AS "createdAt", a.updated_at AS "updatedAt", a.published_at AS "publishedAt"`;
const PUBLISHED = 'a.published_at IS NOT NULL';

async function list(where: string, order: string, values: unknown[], select = COLS) {
  const [rows, count] = await Promise.all([
    pool.query(`SELECT ${select} FROM ${s}.ct_article a WHERE ${where} ORDER BY ${order} LIMIT 25`, values),
    pool.query(`SELECT count(*)::int AS n FROM ${s}.ct_article a WHERE ${where}`, values),
  ]);
  const total = count.rows[0].n as number;
  return { data: rows.rows, meta: { pagination: { page: 1, pageSize: 25, pageCount: Math.ceil(total / 25), total } } };
}

app.get('/list', () => list(PUBLISHED, 'a.id', []));
app.get('/populate', () => list(PUBLISHED, 'a.id', [], `${COLS},
  (SELECT json_build_object('id', au.id, 'documentId', au.document_id, 'name', au.name) FROM ${s}.lnk_ct_article__author l
     JOIN ${s}.ct_author au ON au.document_id = l.target_document_id WHERE l.source_id = a.id LIMIT 1) AS author,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'documentId', t.document_id, 'label', t.label) ORDER BY l.ord) FROM ${s}.lnk_ct_article__tags l
     JOIN ${s}.ct_tag t ON t.document_id = l.target_document_id WHERE l.source_id = a.id), '[]') AS tags`));
app.get('/filtered', () => list(`${PUBLISHED} AND a.views > $1 AND a.title LIKE $2`, 'a.views DESC, a.id', [50000, '%1%']));
app.get<{ Params: { id: string } }>('/one/:id', async (req, reply) => {
  const r = await pool.query(`SELECT ${COLS} FROM ${s}.ct_article a WHERE a.document_id = $1 AND ${PUBLISHED}`, [req.params.id]);
  if (!r.rows[0]) return reply.status(404).send({ data: null });
  return { data: r.rows[0], meta: {} };
});

// Create = what the content API does: a draft row and its published copy, each with its links,
// in one transaction, answering the published row.
app.post<{ Body: { data: { title: string; body: string; views: number; author: string; tags: string[] } } }>('/create', async (req, reply) => {
  const d = req.body.data;
  const documentId = `b${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`.padEnd(24, '0');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    let published: Record<string, unknown> | undefined;
    for (const publishedAt of [null, 'now']) {
      const r = await client.query(`INSERT INTO ${s}.ct_article AS a (document_id, published_at, title, body, views)
        VALUES ($1, ${publishedAt ? 'now()' : 'NULL'}, $2, $3, $4) RETURNING ${COLS}`, [documentId, d.title, d.body, d.views]);
      const row = r.rows[0];
      await client.query(`INSERT INTO ${s}.lnk_ct_article__author (source_id, target_document_id) VALUES ($1, $2)`, [row.id, d.author]);
      await client.query(`INSERT INTO ${s}.lnk_ct_article__tags (source_id, target_document_id, ord) SELECT $1, t, o FROM unnest($2::text[]) WITH ORDINALITY AS u(t, o)`, [row.id, d.tags]);
      published = row;
    }
    await client.query('COMMIT');
    return reply.status(201).send({ data: published, meta: {} });
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
});

// Exit on SIGTERM the normal way, so a `--cpu-prof` profile is written (profile-path.ts).
process.once('SIGTERM', () => process.exit(0));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
