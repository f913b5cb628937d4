// The hand-written baseline of `make bench-scale`: plain fastify + pg answering what the bench
// reads of each of thousands of projects — `GET /p/{slug}/api/articles?pagination[pageSize]=n`,
// a first page of published articles and its exact total — with the statement a careful developer
// would write for a schema per project: the page's JSON aggregated in Postgres and the total from
// the counts the platform keeps (`doc_counts`, as our gateway reads them), in one statement, with
// the schema's name in its text. Projects are found by slug once, then kept in memory.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 20) });
const app = Fastify();
const schemas = new Map<string, string | null>();

async function schemaOf(slug: string): Promise<string | null> {
  let schema = schemas.get(slug);
  if (schema === undefined) {
    const r = await pool.query('SELECT schema_name FROM platform.projects WHERE slug = $1', [slug]);
    schema = (r.rows[0]?.schema_name as string | undefined) ?? null;
    schemas.set(slug, schema);
  }
  return schema;
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

app.get<{ Params: { slug: string }; Querystring: Record<string, string> }>('/p/:slug/api/articles', async (req, reply) => {
  const schema = await schemaOf(req.params.slug);
  if (!schema) return reply.status(404).send({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  const pageSize = Math.min(100, Math.max(1, Number(req.query['pagination[pageSize]'] ?? 25) || 25));
  const s = `"${schema}"`;
  const r = await pool.query(
    `SELECT coalesce((SELECT json_agg(p ORDER BY p.id) FROM (
        SELECT a.id, a.document_id AS "documentId", a.title, a.body, ${iso('a.created_at')} AS "createdAt",
               ${iso('a.updated_at')} AS "updatedAt", ${iso('a.published_at')} AS "publishedAt"
          FROM ${s}.ct_article a WHERE a.published_at IS NOT NULL ORDER BY a.id LIMIT ${pageSize}) p), '[]') AS data,
       (SELECT coalesce(sum(n), 0)::int FROM ${s}.doc_counts WHERE tbl = 'ct_article' AND status = 'published') AS total`,
  );
  const { data, total } = r.rows[0] as { data: unknown[]; total: number };
  return { data, meta: { pagination: { page: 1, pageSize, pageCount: Math.ceil(total / pageSize), total } } };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
