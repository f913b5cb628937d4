// Seeds the large benchmark project (`make bench-100k`): N published articles, each with its
// draft row (draft & publish keeps both), a manyToOne author (of 1,000), two manyToMany tags (of
// 200) and a `shared.seo` component — written with `INSERT … SELECT generate_series`, not through
// the API, so 100,000 documents take seconds. Links carry `inv_ord` as the API would write them.
import pg from 'pg';
import { loadConfig } from '@cms/config';
import { silentLogger } from '@cms/telemetry';
import { createPlatform } from '@cms/gateway';
import { benchProject } from './seed.ts';

export const LARGE_MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        name: { type: 'string', required: true },
        body: { type: 'text' },
        rating: { type: 'integer' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
        seo: { type: 'component', component: 'shared.seo', repeatable: false },
      },
    },
    'api::author.author': {
      kind: 'collectionType', info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
    },
    'api::tag.tag': {
      kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      attributes: { label: { type: 'string' }, articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' } },
    },
  },
  components: {
    'shared.seo': {
      collectionName: 'components_shared_seos', info: { displayName: 'Seo' },
      attributes: { metaTitle: { type: 'string' }, metaDescription: { type: 'text' } },
    },
  },
};

export const AUTHORS = 1_000;
export const TAGS = 200;

export interface SeededLarge {
  slug: string;
  schema: string;
  sampleDocumentIds: string[];
}

export const articleId = (i: number) => 'article' + String(i).padStart(17, '0');
export const authorId = (i: number) => 'author' + String(i).padStart(18, '0');
export const tagId = (i: number) => 'tag' + String(i).padStart(21, '0');

export async function seedLarge(env: Record<string, string>, documents: number): Promise<SeededLarge> {
  const platform = await createPlatform(loadConfig(env), silentLogger());
  // The bulk statements run longer than the pool's per-statement limit: a connection of their own.
  const bulk = new pg.Client({ connectionString: env.DATABASE_URL });
  await bulk.connect();
  await bulk.query('SET statement_timeout = 0');
  const load = (text: string, values: unknown[] = []) => bulk.query(text, values);
  try {
    const project = await benchProject(platform, 'Bench large', 'bench-large', LARGE_MODEL);
    const s = `"${project.schemaName}"`;
    await load(`INSERT INTO ${s}.ct_author (document_id, published_at, name)
      SELECT 'author' || lpad(i::text, 18, '0'), now(), 'Author ' || i FROM generate_series(1, ${AUTHORS}) i`);
    await load(`INSERT INTO ${s}.ct_tag (document_id, published_at, label)
      SELECT 'tag' || lpad(i::text, 21, '0'), now(), 'Tag ' || i FROM generate_series(1, ${TAGS}) i`);
    // Draft and published row per document; names shuffled so sorting by name is not id order.
    await load(`INSERT INTO ${s}.ct_article (document_id, published_at, name, body, rating)
      SELECT 'article' || lpad(i::text, 17, '0'), CASE WHEN p THEN now() ELSE NULL END,
             'Article ' || lpad(((i * 7919) % $1)::text, 7, '0') || ' ' || i,
             repeat('Lorem ipsum dolor sit amet. ', 8), (i * 31) % 6
      FROM generate_series(1, $1) i, (VALUES (false), (true)) AS v(p)`, [documents]);
    const n = `substr(a.document_id, 8)::int`;
    await load(`INSERT INTO ${s}.lnk_ct_article__author (source_id, target_document_id, ord, inv_ord)
      SELECT a.id, 'author' || lpad((1 + (${n} % ${AUTHORS}))::text, 18, '0'), 1,
             row_number() OVER (PARTITION BY ${n} % ${AUTHORS} ORDER BY a.id)
      FROM ${s}.ct_article a`);
    await load(`INSERT INTO ${s}.lnk_ct_article__tags (source_id, target_document_id, ord, inv_ord)
      SELECT id, t, k, row_number() OVER (PARTITION BY t ORDER BY id) FROM (
        SELECT a.id, 'tag' || lpad((1 + ((${n} + k * 37) % ${TAGS}))::text, 21, '0') AS t, k + 1 AS k
        FROM ${s}.ct_article a, generate_series(0, 1) k) x`);
    await load(`INSERT INTO ${s}.cmp_shared__seo (owner_id, owner_type, owner_field, ord, "metaTitle", "metaDescription")
      SELECT a.id, 'api::article.article', 'seo', 0, 'SEO ' || a.name, 'About ' || a.name FROM ${s}.ct_article a`);
    await load(`VACUUM ANALYZE`);
    const ids = Array.from({ length: 50 }, (_, k) => articleId(1 + Math.floor(((k + 0.5) * documents) / 50)));
    return { slug: project.slug, schema: project.schemaName, sampleDocumentIds: ids };
  } finally {
    await bulk.end();
    await platform.close();
  }
}

/** The tables the baselines copy (without our counting triggers: theirs are hand-written servers). */
const TABLES = ['ct_article', 'ct_author', 'ct_tag', 'lnk_ct_article__author', 'lnk_ct_article__tags', 'cmp_shared__seo'];

/** A copy of the seeded tables (rows, ids, indexes, defaults, cascades) in schema `to`. */
export async function cloneTables(db: pg.Client, from: string, to: string): Promise<void> {
  await db.query(`CREATE SCHEMA "${to}"`);
  for (const t of TABLES) {
    await db.query(`CREATE TABLE "${to}"."${t}" (LIKE "${from}"."${t}" INCLUDING ALL)`);
    await db.query(`INSERT INTO "${to}"."${t}" OVERRIDING SYSTEM VALUE SELECT * FROM "${from}"."${t}"`);
    await db.query(`SELECT setval(pg_get_serial_sequence('"${to}"."${t}"', 'id'), (SELECT max(id) FROM "${to}"."${t}"))`);
  }
  for (const t of TABLES.filter((t) => t.startsWith('lnk_'))) {
    await db.query(`ALTER TABLE "${to}"."${t}" ADD FOREIGN KEY (source_id) REFERENCES "${to}".ct_article (id) ON DELETE CASCADE`);
  }
  await db.query(`CREATE TABLE "${to}".bench_counts (k text PRIMARY KEY, n bigint NOT NULL)`);
  await db.query(`INSERT INTO "${to}".bench_counts (k, n)
    SELECT 'article:' || CASE WHEN published_at IS NULL THEN 'draft' ELSE 'published' END, count(*) FROM "${to}".ct_article GROUP BY 1
    UNION ALL SELECT 'article:writes', 0`);
  await db.query(`ANALYZE "${to}".ct_article, "${to}".lnk_ct_article__author, "${to}".lnk_ct_article__tags, "${to}".cmp_shared__seo`);
}
