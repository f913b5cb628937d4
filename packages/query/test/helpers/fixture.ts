// A real project schema on the test database: base tables, the fixture model migrated by @cms/ddl,
// fixture rows inserted with plain SQL, and helpers that run parse → plan → render → Postgres.
import assert from 'node:assert/strict';
import { compiledQuery, qualify, quoteIdent, runMigrations } from '@cms/db';
import { applyMigration, baseMigrationsFor, planMigration } from '@cms/ddl';
import { physicalModel, type PhysicalModel } from '@cms/tables';
import type { Model } from '@cms/schema';
import type { DatabasePool } from 'slonik';
import { createTestDatabase, type TestDatabase } from '../../../../test/helpers/db.ts';
import {
  paginationMeta, parseQuery, parseQueryString, planQuery, renderFind, renderFindOne, type PlanContext, type QueryPlan,
} from '../../src/index.ts';
import { fixtureModel, RESTAURANT, SUPPLIER } from './model.ts';

export const SCHEMA = 'proj_query';
export const T_CREATED = '2024-01-01T10:00:00.000Z';
export const T_UPDATED = '2024-01-02T10:00:00.000Z';
export const T_PUBLISHED = '2024-01-03T10:00:00.123Z';

export interface Fixture {
  db: TestDatabase;
  pool: DatabasePool;
  model: Model;
  physical: PhysicalModel;
}

export async function createFixture(prefix = 'query_test'): Promise<Fixture> {
  const db = await createTestDatabase(prefix);
  const model = fixtureModel();
  await runMigrations(db.pool, SCHEMA, baseMigrationsFor(SCHEMA));
  await db.pool.transaction((tx) => applyMigration(tx, SCHEMA, planMigration(null, model), { defaultLocale: 'en' }));
  await insertFixtureRows(db.pool);
  return { db, pool: db.pool, model, physical: physicalModel(model) };
}

export async function insertRows(pool: DatabasePool, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  for (const row of rows) {
    const cols = Object.keys(row);
    const values = cols.map((c) => {
      const v = row[c];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
    });
    await pool.query(compiledQuery({
      text: `INSERT INTO ${qualify(SCHEMA, table)} (${cols.map(quoteIdent).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    }));
  }
}

const times = (published: boolean) => ({ created_at: T_CREATED, updated_at: T_UPDATED, published_at: published ? T_PUBLISHED : null });

export const DESCRIPTION = [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }];

const PASTA = {
  name: 'Pasta Place', description: DESCRIPTION, rating: 5, price: '12.50', open: true, openedOn: '2020-05-17',
  email: 'pasta@example.com', kind: 'bistro', tags: { a: [1, 2] }, opensAt: '10:30:00', visits: '9007199254740993',
  score: 4.5, lastVisit: '2024-02-03T04:05:06.789Z', pin: '$2a$10$hash', secret: 's3cret',
};
const BISTRO = {
  name: 'Bistro Bob', rating: 3, price: '20', open: false, openedOn: '2019-01-01', kind: 'brasserie', visits: '1',
  score: 2.25, lastVisit: '2023-06-01T12:00:00.000Z', opensAt: '08:15:30.250',
};
const ZED = { name: 'Zed', rating: 4, price: '7.25', open: true, openedOn: '2021-03-03', kind: 'cafe', visits: '100', score: 9.75, lastVisit: '2024-01-01T00:00:00.000Z', email: 'zed@example.com' };

async function insertFixtureRows(pool: DatabasePool): Promise<void> {
  await insertRows(pool, 'files', [
    {
      id: 1, document_id: 'filea', name: 'photo.png', alternative_text: 'alt', caption: 'cap', width: 1200, height: 800,
      formats: { thumbnail: { url: '/uploads/thumbnail_photo_abc.png' } }, hash: 'photo_abc', ext: '.png', mime: 'image/png', size: '89.90',
      url: '/uploads/photo_abc.png', provider: 'local', ...times(true),
    },
    { id: 2, document_id: 'fileb', name: 'menu.pdf', hash: 'menu_def', ext: '.pdf', mime: 'application/pdf', size: '12.5', url: '/uploads/menu_def.pdf', provider: 'local', ...times(true) },
  ]);
  await insertRows(pool, 'ct_chef', [
    { id: 1, document_id: 'chefa', name: 'Alice', age: 40, ...times(true) },
    { id: 2, document_id: 'chefb', name: 'Bob', age: 35, ...times(true) },
    { id: 3, document_id: 'chefc', name: 'Carol', age: null, ...times(true) },
  ]);
  await insertRows(pool, 'ct_category', [
    { id: 1, document_id: 'cat1', name: 'Italian', slug: 'italian', ...times(true) },
    { id: 2, document_id: 'cat2', name: 'French', slug: 'french', ...times(true) },
    { id: 3, document_id: 'cat3', name: '100% Organic_Food\\', slug: 'organic', ...times(true) },
  ]);
  await insertRows(pool, 'ct_supplier', [{ id: 1, document_id: 'supa', name: 'Acme', ...times(true) }]);
  await insertRows(pool, 'ct_restaurant', [
    { id: 10, document_id: 'resta', locale: 'en', ...PASTA, ...times(true) },
    { id: 11, document_id: 'resta', locale: 'en', ...PASTA, name: 'Pasta Place (draft)', ...times(false) },
    { id: 12, document_id: 'resta', locale: 'fr', ...PASTA, name: 'Lieu des Pâtes', ...times(true) },
    { id: 13, document_id: 'resta', locale: 'fr', ...PASTA, name: 'Lieu des Pâtes', ...times(false) },
    { id: 20, document_id: 'restb', locale: 'en', ...BISTRO, ...times(true) },
    { id: 21, document_id: 'restb', locale: 'en', ...BISTRO, ...times(false) },
    { id: 30, document_id: 'restc', locale: 'en', name: 'Draft Diner', rating: 1, ...times(false) },
    { id: 40, document_id: 'restd', locale: 'en', name: 'cafe 50%_off\\', ...times(true) },
    { id: 41, document_id: 'restd', locale: 'en', name: 'cafe 50%_off\\', ...times(false) },
    { id: 50, document_id: 'reste', locale: 'en', ...ZED, ...times(true) },
    { id: 51, document_id: 'reste', locale: 'en', ...ZED, ...times(false) },
  ]);
  const link = (source_id: number, target_document_id: string, ord = 1, inv_ord = 1, target_locale: string | null = null) =>
    ({ source_id, target_document_id, target_locale, ord, inv_ord });
  await insertRows(pool, 'lnk_ct_restaurant__chef', [
    link(10, 'chefa', 1, 1), link(11, 'chefa', 1, 1), link(12, 'chefa', 1, 1), link(13, 'chefa', 1, 1),
    link(20, 'chefb', 1, 1), link(21, 'chefb', 1, 1), link(30, 'chefa', 1, 2), link(40, 'chefc'), link(41, 'chefc'),
  ]);
  // Stored order differs from name order: Pasta Place lists "100% Organic…" before "Italian".
  await insertRows(pool, 'lnk_ct_restaurant__categories', [
    link(10, 'cat3', 1), link(10, 'cat1', 2), link(11, 'cat3', 1), link(11, 'cat1', 2), link(12, 'cat1'), link(13, 'cat1'),
    link(20, 'cat2'), link(21, 'cat2'), link(50, 'cat1', 1, 2), link(51, 'cat1', 1, 2),
  ]);
  await insertRows(pool, 'lnk_ct_restaurant__supplier', [link(10, 'supa'), link(11, 'supa')]);
  await insertRows(pool, 'lnk_ct_restaurant__cover', [{ source_id: 10, file_id: 1, ord: 1 }, { source_id: 11, file_id: 1, ord: 1 }]);
  await insertRows(pool, 'lnk_ct_restaurant__gallery', [
    { source_id: 10, file_id: 2, ord: 1 }, { source_id: 10, file_id: 1, ord: 2 }, { source_id: 11, file_id: 2, ord: 1 },
  ]);
  await insertRows(pool, 'lnk_ct_chef__mentor', [link(2, 'chefa')]);
  await insertRows(pool, 'lnk_ct_chef__favorite', [link(1, 'restc', 1, 1, 'en'), link(2, 'resta', 1, 1, 'en')]);
  const own = (owner_type: string, owner_id: number, owner_field: string, ord = 0) => ({ owner_type, owner_id, owner_field, ord });
  await insertRows(pool, 'cmp_shared__seo', [
    { id: 100, ...own(RESTAURANT, 10, 'seo'), metaTitle: 'T', metaDescription: 'D' },
    { id: 101, ...own(RESTAURANT, 11, 'seo'), metaTitle: 'T draft', metaDescription: 'D' },
    { id: 102, ...own('api::article.article', 60, 'blocks', 3), metaTitle: 'DZ seo' },
  ]);
  await insertRows(pool, 'cmp_shared__social', [{ id: 200, ...own('shared.seo', 100, 'social'), network: 'x', handle: '@pasta' }]);
  await insertRows(pool, 'lnk_cmp_shared__seo__featuredChef', [link(100, 'chefb')]);
  await insertRows(pool, 'lnk_cmp_shared__seo__image', [{ source_id: 100, file_id: 1, ord: 1 }]);
  await insertRows(pool, 'ct_article', [
    { id: 60, document_id: 'arta', locale: 'en', title: 'Hello', views: '12', score: 1.5, publishedOn: '2024-01-01T00:00:00.000Z', ...times(true) },
    { id: 61, document_id: 'arta', locale: 'en', title: 'Hello draft', views: '12', score: 1.5, ...times(false) },
  ]);
  await insertRows(pool, 'lnk_ct_article__author', [link(60, 'chefb'), link(61, 'chefb')]);
  await insertRows(pool, 'cmp_shared__quote', [
    { id: 300, ...own('api::article.article', 60, 'blocks', 0), body: 'Q', author: 'A' },
    { id: 301, ...own('api::article.article', 60, 'blocks', 2), body: 'Q2' },
    { id: 302, ...own('api::article.article', 60, 'sections', 1), body: 's2' },
    { id: 303, ...own('api::article.article', 60, 'sections', 0), body: 's1', author: 'me' },
    { id: 310, ...own('api::article.article', 61, 'blocks', 0), body: 'Qd' },
  ]);
  await insertRows(pool, 'cmp_shared__rich_text', [{ id: 400, ...own('api::article.article', 60, 'blocks', 1), body: 'RT' }]);
  await insertRows(pool, 'ct_homepage', [{ id: 1, document_id: 'homea', title: 'Welcome', ...times(true) }]);
}

// ───────────────────────── running queries ─────────────────────────

export interface QueryOptions {
  uid?: string;
  locale?: string;
  status?: 'draft' | 'published';
  canFind?: (uid: string) => boolean;
}

/** Everything may be found except suppliers (the "permission-omitted relation" of the tests). */
export const defaultCanFind = (uid: string) => uid !== SUPPLIER;

export function context(f: Fixture, options: QueryOptions = {}): PlanContext {
  return {
    model: f.model, physical: f.physical, uid: options.uid ?? RESTAURANT, schema: SCHEMA,
    locale: options.locale ?? 'en', status: options.status ?? 'published',
    canFind: options.canFind ?? defaultCanFind, defaultLimit: 25, maxLimit: 100,
  };
}

export function plan(f: Fixture, query: string, options: QueryOptions = {}): QueryPlan {
  const ast = parseQuery(parseQueryString(query), { defaultLimit: 25, maxLimit: 100 });
  return planQuery(ast, context(f, { ...options, status: options.status ?? ast.status, locale: options.locale ?? ast.locale }));
}

export interface ListResult {
  text: string;
  data: any[];
  meta: unknown;
}

/** GET /api/:plural?query — the page (parsed and raw text) and meta.pagination. */
export async function list(f: Fixture, query = '', options: QueryOptions = {}): Promise<ListResult> {
  const p = plan(f, query, options);
  const { data, count } = renderFind(p);
  const text = (await f.pool.oneFirst(compiledQuery(data))) as string;
  const total = count ? Number(await f.pool.oneFirst(compiledQuery(count))) : null;
  return { text, data: JSON.parse(text), meta: paginationMeta(p, total) };
}

/** GET /api/:plural/:documentId?query — the document or null. */
export async function findOne(f: Fixture, documentId: string | null, query = '', options: QueryOptions = {}): Promise<any> {
  const p = plan(f, query, options);
  const text = (await f.pool.maybeOneFirst(compiledQuery(renderFindOne(p, documentId)))) as string | null;
  return text === null ? null : JSON.parse(text);
}

/** Deep equality AND identical key order. */
export function assertJson(actual: unknown, expected: unknown, message?: string): void {
  assert.deepEqual(actual, expected, message);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), message ?? 'key order');
}

export const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

/** Asserts a thrown query error's name, message and details. */
export function rejects(fn: () => unknown, expected: { name?: string; message?: string | RegExp; details?: unknown; status?: number }) {
  assert.throws(fn, (err: any) => {
    if (expected.name) assert.equal(err.name, expected.name);
    if (expected.status) assert.equal(err.status, expected.status);
    if (typeof expected.message === 'string') assert.equal(err.message, expected.message);
    if (expected.message instanceof RegExp) assert.match(err.message, expected.message);
    if (expected.details !== undefined) assert.deepEqual(err.details, expected.details);
    return true;
  });
}
