// Relations whose target is the end-user type: populated users are the users-permissions user
// object (never a password or token), need `find` on users, and filter/sort through the relation
// on public user fields only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runMigrations } from '@cms/db';
import { applyMigration, baseMigrationsFor, planMigration } from '@cms/ddl';
import { physicalModel } from '@cms/tables';
import { parseModel, type Model } from '@cms/schema';
import { createTestDatabase } from '../../../test/helpers/db.ts';
import { USERS_UID } from '../src/index.ts';
import { assertJson, findOne, ids, insertRows, list, rejects, plan, SCHEMA, T_CREATED, T_PUBLISHED, T_UPDATED, type Fixture, type QueryOptions } from './helpers/fixture.ts';

const ARTICLE = 'api::article.article';
const TIMES = { createdAt: T_CREATED, updatedAt: T_UPDATED, publishedAt: T_PUBLISHED };
const times = (published: boolean) => ({ created_at: T_CREATED, updated_at: T_UPDATED, published_at: published ? T_PUBLISHED : null });
const user = (id: number, username: string, extra: Record<string, unknown> = {}) => ({
  id, documentId: `user${username}`, username, email: `${username}@example.com`, provider: 'local', confirmed: true, blocked: false, ...TIMES, ...extra,
});
const ALICE = user(1, 'alice');
const BOB = user(2, 'bob', { confirmed: false });
const CAROL = user(3, 'carol', { blocked: true });

function articleModel(): Model {
  const toUsers = (relation: string) => ({ type: 'relation', relation, target: USERS_UID });
  return parseModel({
    contentTypes: {
      [ARTICLE]: {
        kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
        options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } },
        attributes: { title: { type: 'string' }, author: toUsers('manyToOne'), readers: toUsers('manyToMany'), byline: { type: 'component', component: 'shared.byline' } },
      },
    },
    components: { 'shared.byline': { info: { displayName: 'Byline' }, attributes: { note: { type: 'string' }, editor: toUsers('oneToOne') } } },
  });
}

let f: Fixture;
before(async () => {
  const db = await createTestDatabase('query_user_relations');
  const model = articleModel();
  await runMigrations(db.pool, SCHEMA, baseMigrationsFor(SCHEMA));
  await db.pool.transaction((tx) => applyMigration(tx, SCHEMA, planMigration(null, model), { defaultLocale: 'en' }));
  f = { db, pool: db.pool, model, physical: physicalModel(model) };
  await insertRows(f.pool, 'up_users', [ALICE, BOB, CAROL].map((u) => ({
    id: u.id, document_id: u.documentId, username: u.username, email: u.email, confirmed: u.confirmed, blocked: u.blocked,
    password: '$argon2id$hash', reset_password_token: `reset-${u.id}`, confirmation_token: `confirm-${u.id}`, ...times(true),
  })));
  await insertRows(f.pool, 'ct_article', [
    { id: 10, document_id: 'arta', locale: 'en', title: 'Hello', ...times(true) },
    { id: 11, document_id: 'arta', locale: 'en', title: 'Hello draft', ...times(false) },
    { id: 20, document_id: 'artb', locale: 'en', title: 'Second', ...times(true) },
    { id: 30, document_id: 'artc', locale: 'en', title: 'Nobody', ...times(true) },
  ]);
  const link = (source_id: number, target_document_id: string, ord = 1) => ({ source_id, target_document_id, ord });
  await insertRows(f.pool, 'lnk_ct_article__author', [link(10, 'useralice'), link(11, 'userbob'), link(20, 'userbob')]);
  // Stored order differs from id order.
  await insertRows(f.pool, 'lnk_ct_article__readers', [link(10, 'usercarol', 1), link(10, 'useralice', 2), link(20, 'useralice')]);
  await insertRows(f.pool, 'cmp_shared__byline', [{ id: 100, owner_type: ARTICLE, owner_id: 10, owner_field: 'byline', note: 'n' }]);
  await insertRows(f.pool, 'lnk_cmp_shared__byline__editor', [link(100, 'usercarol')]);
});
after(async () => {
  await f.db.drop();
});

const article = (query: string, options: QueryOptions = {}) => findOne(f, 'arta', `fields[0]=title&${query}`, { uid: ARTICLE, ...options });
const titles = async (query: string, options: QueryOptions = {}) => (await list(f, `fields[0]=title&${query}`, { uid: ARTICLE, ...options })).data.map((d) => d.title);
const noUsers = { canFind: (uid: string) => uid !== USERS_UID };
const invalidKey = (key: string, param: string, path: string | null) => ({
  name: 'ValidationError', message: path !== null && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`,
  details: { key, path, source: 'query', param },
});

describe('populating users', () => {
  it('gives the users-permissions user object, to-one and to-many in stored order', async () => {
    assertJson(await article('populate[0]=author&populate[1]=readers'), {
      id: 10, documentId: 'arta', title: 'Hello', author: ALICE, readers: [CAROL, ALICE],
    });
  });

  it('selects user fields; * populates users one level with their component; status applies to the article only', async () => {
    assertJson(await article('populate[author][fields][0]=username&populate[readers][fields]=email,blocked'), {
      id: 10, documentId: 'arta', title: 'Hello', author: { id: 1, documentId: 'useralice', username: 'alice' },
      readers: [{ id: 3, documentId: 'usercarol', email: 'carol@example.com', blocked: true }, { id: 1, documentId: 'useralice', email: 'alice@example.com', blocked: false }],
    });
    assertJson(await article('populate=*'), {
      id: 10, documentId: 'arta', title: 'Hello', author: ALICE, readers: [CAROL, ALICE], byline: { id: 100, note: 'n' }, localizations: [],
    });
    assertJson(await article('populate[byline][populate][editor][fields][0]=username'), {
      id: 10, documentId: 'arta', title: 'Hello', byline: { id: 100, note: 'n', editor: { id: 3, documentId: 'usercarol', username: 'carol' } },
    });
    assertJson(await article('populate=author', { status: 'draft' }), { id: 11, documentId: 'arta', title: 'Hello draft', author: BOB });
    assertJson(await article('populate[readers][count]=true'), { id: 10, documentId: 'arta', title: 'Hello', readers: { count: 2 } });
    const none = await findOne(f, 'artc', 'fields[0]=title&populate=author,readers', { uid: ARTICLE });
    assertJson(none, { id: 30, documentId: 'artc', title: 'Nobody', author: null, readers: [] });
  });

  it('leaves users out silently without find on users (populate and *)', async () => {
    assertJson(await article('populate=author,readers', noUsers), { id: 10, documentId: 'arta', title: 'Hello' });
    assertJson(await article('populate=*', noUsers), { id: 10, documentId: 'arta', title: 'Hello', byline: { id: 100, note: 'n' }, localizations: [] });
    assertJson(await article('populate[byline][populate]=*', noUsers), { id: 10, documentId: 'arta', title: 'Hello', byline: { id: 100, note: 'n' } });
  });

  it("refuses private user fields, and a nested populate other than the user's whole role", () => {
    for (const key of ['password', 'resetPasswordToken', 'confirmationToken', 'reset_password_token', 'role']) {
      rejects(() => plan(f, `populate[author][fields][0]=${key}`, { uid: ARTICLE }), invalidKey(key, 'fields', `author.${key}`));
    }
    rejects(() => plan(f, 'populate[author][populate]=nope', { uid: ARTICLE }), invalidKey('nope', 'populate', 'author.nope'));
    rejects(() => plan(f, 'populate[author][populate][role][fields][0]=name', { uid: ARTICLE }), invalidKey('fields', 'populate', 'author.role'));
    rejects(() => plan(f, 'populate[author][filters][password][$null]=false', { uid: ARTICLE }), invalidKey('password', 'filters', null));
  });
});

describe('filtering and sorting through users', () => {
  it('filters on public user fields, to-one and to-many', async () => {
    assert.deepEqual(await titles('filters[author][username][$eq]=alice'), ['Hello']);
    assert.deepEqual(await titles('filters[author][id][$eq]=2'), ['Second']);
    assert.deepEqual(await titles('filters[author][documentId][$eq]=userbob'), ['Second']);
    assert.deepEqual(await titles('filters[readers][blocked][$eq]=true'), ['Hello']);
    assert.deepEqual(await titles('filters[readers][email][$containsi]=ALICE'), ['Hello', 'Second']);
    assert.deepEqual(await titles('filters[author][id][$null]=true'), ['Nobody']);
    assert.deepEqual(await titles('filters[byline][editor][username][$eq]=carol'), ['Hello']);
    assert.deepEqual(await titles('filters[author][username][$eq]=bob', { status: 'draft' }), ['Hello draft']);
    // Nulls first when descending, as Postgres (and Strapi) sort them.
    assert.deepEqual(ids((await list(f, 'sort=author.username:desc&fields[0]=title', { uid: ARTICLE })).data), [30, 20, 10]);
    assert.deepEqual(ids((await list(f, 'sort=author.username&fields[0]=title', { uid: ARTICLE })).data), [10, 20, 30]);
  });

  it('refuses private user fields, and the relation itself without find on users', () => {
    for (const key of ['password', 'resetPasswordToken', 'confirmationToken', 'reset_password_token', 'role']) {
      rejects(() => plan(f, `filters[author][${key}][$eq]=x`, { uid: ARTICLE }), invalidKey(key, 'filters', 'author'));
      rejects(() => plan(f, `sort=author.${key}`, { uid: ARTICLE }), invalidKey(key, 'sort', 'author'));
    }
    rejects(() => plan(f, 'filters[author][username][$eq]=alice', { uid: ARTICLE, ...noUsers }), invalidKey('author', 'filters', null));
    rejects(() => plan(f, 'sort=author.username', { uid: ARTICLE, ...noUsers }), invalidKey('author', 'sort', null));
  });
});
