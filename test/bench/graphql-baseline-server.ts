// The hand-written GraphQL baseline: fastify + mercurius + pg with a tiny schema covering exactly
// what the bench asks, written the way a competent developer would: published rows only, an
// exact count(*) for the total (only when pageInfo is asked), and mercurius loaders so author and
// tags are fetched in one batched query per level (no N+1). Same env as baseline-server.ts.
import Fastify from 'fastify';
import mercurius, { type MercuriusLoaders } from 'mercurius';
import pg from 'pg';

const schema = process.env.BENCH_SCHEMA!;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const s = `"${schema}"`;
const PUBLISHED = 'a.published_at IS NOT NULL';
const ARTICLE_COLS = 'a.id, a.document_id AS "documentId", a.title, a.views';

const typeDefs = `
  input PaginationArg { page: Int, pageSize: Int }
  type Author { name: String }
  type Tag { label: String }
  type Article { documentId: ID! title: String views: Int author: Author tags: [Tag]! }
  type Pagination { page: Int! pageSize: Int! pageCount: Int! total: Int! }
  type ArticleEntityResponseCollection { nodes: [Article!]! pageInfo: Pagination! }
  type Query {
    articles_connection(pagination: PaginationArg): ArticleEntityResponseCollection
    article(documentId: ID!): Article
  }
`;

interface ArticleRow { id: number | string; documentId: string; title: string; views: number }
interface Page { page: number; pageSize: number }

const resolvers = {
  Query: {
    articles_connection: (_: unknown, args: { pagination?: { page?: number | null; pageSize?: number | null } | null }): Page => ({
      page: Math.max(1, args.pagination?.page ?? 1),
      pageSize: Math.max(1, args.pagination?.pageSize ?? 10),
    }),
    article: async (_: unknown, args: { documentId: string }) => {
      const r = await pool.query(`SELECT ${ARTICLE_COLS} FROM ${s}.ct_article a WHERE a.document_id = $1 AND ${PUBLISHED}`, [args.documentId]);
      return r.rows[0] ?? null;
    },
  },
  // nodes and pageInfo resolve in parallel; the count only runs when pageInfo is selected.
  ArticleEntityResponseCollection: {
    nodes: async (p: Page) => (await pool.query(
      `SELECT ${ARTICLE_COLS} FROM ${s}.ct_article a WHERE ${PUBLISHED} ORDER BY a.id LIMIT $1 OFFSET $2`, [p.pageSize, (p.page - 1) * p.pageSize],
    )).rows,
    pageInfo: async (p: Page) => {
      const total = (await pool.query(`SELECT count(*)::int AS n FROM ${s}.ct_article a WHERE ${PUBLISHED}`)).rows[0].n as number;
      return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize), total };
    },
  },
};

// One query per relation for all the articles of a level.
const loaders: MercuriusLoaders = {
  Article: {
    async author(queries: Array<{ obj: ArticleRow }>) {
      const ids = queries.map((q) => q.obj.id);
      const r = await pool.query(`SELECT l.source_id AS id, au.name FROM ${s}.lnk_ct_article__author l
        JOIN ${s}.ct_author au ON au.document_id = l.target_document_id WHERE l.source_id = ANY($1)`, [ids]);
      const byId = new Map<string, { name: string }>();
      for (const row of r.rows) if (!byId.has(String(row.id))) byId.set(String(row.id), { name: row.name });
      return ids.map((id) => byId.get(String(id)) ?? null);
    },
    async tags(queries: Array<{ obj: ArticleRow }>) {
      const ids = queries.map((q) => q.obj.id);
      const r = await pool.query(`SELECT l.source_id AS id, t.label FROM ${s}.lnk_ct_article__tags l
        JOIN ${s}.ct_tag t ON t.document_id = l.target_document_id WHERE l.source_id = ANY($1) ORDER BY l.source_id, l.ord`, [ids]);
      const byId = new Map<string, Array<{ label: string }>>();
      for (const row of r.rows) {
        let list = byId.get(String(row.id));
        if (!list) byId.set(String(row.id), (list = []));
        list.push({ label: row.label });
      }
      return ids.map((id) => byId.get(String(id)) ?? []);
    },
  },
};

const app = Fastify();
await app.register(mercurius, { schema: typeDefs, resolvers, loaders, jit: 1, path: '/graphql' });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
