// Seeds a benchmark project: 10k published articles (each also has its draft row, as D&P
// keeps both), 100 authors (manyToOne) and 50 tags (3 per article, manyToMany).
import { loadConfig } from '@cms/config';
import { compiledQuery } from '@cms/db';
import { silentLogger } from '@cms/telemetry';
import { parseModel, type RawModel } from '@cms/schema';
import type { ProjectRecord } from '@cms/tenancy';
import { createPlatform, type Platform } from '@cms/gateway';

export const BENCH_MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true },
        body: { type: 'text' },
        views: { type: 'integer' },
        rating: { type: 'decimal' },
        publishedOn: { type: 'date' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
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
  components: {},
};

export interface Seeded {
  slug: string;
  schema: string;
  sampleDocumentId: string;
}

/**
 * The bench's project, as the benches share it: an account, the project (`slug`) on a plan whose
 * request limits the bench never reaches (enterprise, 5000 req/s), its model of articles, authors
 * and tags, and public reads (and article creates).
 */
export async function benchProject(platform: Platform, name: string, slug: string, model: RawModel): Promise<ProjectRecord> {
  const accountId = (await platform.db.pool.oneFirst(compiledQuery({
    text: `INSERT INTO platform.accounts (email, password_hash) VALUES ($1, 'x') RETURNING id`, values: [`${slug}@example.com`],
  }))) as number;
  const project = await platform.projects.create(accountId, { name, slug });
  await platform.db.pool.query(compiledQuery({ text: `UPDATE platform.projects SET plan = 'enterprise' WHERE id = $1`, values: [project.id] }));
  await platform.models.push(project, model);
  await platform.roles.setPermissions(project.id, 'public', {
    'api::article.article': ['find', 'findOne', 'create'], 'api::author.author': ['find', 'findOne'], 'api::tag.tag': ['find', 'findOne'],
  }, parseModel(model));
  return project;
}

export async function seed(env: Record<string, string>, documents: number): Promise<Seeded> {
  const platform = await createPlatform(loadConfig(env), silentLogger());
  const pool = platform.db.pool;
  const exec = (text: string, values: unknown[] = []) => pool.query(compiledQuery({ text, values }));
  try {
    const project = await benchProject(platform, 'Bench', 'bench', BENCH_MODEL);
    const s = `"${project.schemaName}"`;
    await exec(`INSERT INTO ${s}.ct_author (document_id, published_at, name)
      SELECT 'author' || lpad(i::text, 18, '0'), now(), 'Author ' || i FROM generate_series(1, 100) i`);
    await exec(`INSERT INTO ${s}.ct_tag (document_id, published_at, label)
      SELECT 'tag' || lpad(i::text, 21, '0'), now(), 'Tag ' || i FROM generate_series(1, 50) i`);
    // Draft and published row per document.
    await exec(`INSERT INTO ${s}.ct_article (document_id, published_at, title, body, views, rating, "publishedOn")
      SELECT 'article' || lpad(i::text, 17, '0'), CASE WHEN p THEN now() ELSE NULL END, 'Article number ' || i,
             repeat('Lorem ipsum dolor sit amet. ', 8), (i * 7919) % 100000, round(((i % 500) / 100.0)::numeric, 2), date '2020-01-01' + (i % 1500)
      FROM generate_series(1, $1) i, (VALUES (false), (true)) AS v(p)`, [documents]);
    await exec(`INSERT INTO ${s}.lnk_ct_article__author (source_id, target_document_id)
      SELECT a.id, 'author' || lpad((1 + (substr(a.document_id, 8)::int % 100))::text, 18, '0') FROM ${s}.ct_article a`);
    await exec(`INSERT INTO ${s}.lnk_ct_article__tags (source_id, target_document_id, ord)
      SELECT a.id, 'tag' || lpad((1 + ((substr(a.document_id, 8)::int + k * 17) % 50))::text, 21, '0'), k
      FROM ${s}.ct_article a, generate_series(0, 2) k`);
    await exec(`ANALYZE`);
    return { slug: project.slug, schema: project.schemaName, sampleDocumentId: 'article' + String(Math.floor(documents / 2)).padStart(17, '0') };
  } finally {
    await platform.close();
  }
}
