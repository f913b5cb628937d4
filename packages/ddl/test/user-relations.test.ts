// Relations whose target is the users-permissions end user (`up_users`): link tables reference
// the user's document_id (one row per user), so deleting a user deletes its links, and migrations
// create, retarget, rename and drop such link tables like any other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { USERS_UID } from '@cms/schema';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { physicalModel, USERS_TABLE } from '@cms/tables';
import { component, componentType, contentType, model, relation, scalar } from './helpers/model.ts';
import { columnsOf, createProjectSchema, expectRefusal, insert, migrate, one, query, snapshotSchema, tablesOf } from './helpers/project-schema.ts';

let db: TestDatabase;
before(async () => { db = await createTestDatabase('cms_ddl_user_relations'); });
after(async () => { await db.drop(); });

const PUBLISHED = '2024-01-01T00:00:00Z';
let users = 0;

async function insertUser(schema: string): Promise<string> {
  const documentId = `user${++users}`;
  await insert(db.pool, schema, USERS_TABLE, { document_id: documentId, username: documentId, email: `${documentId}@example.com` });
  return documentId;
}

async function count(schema: string, table: string): Promise<number> {
  return (await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM "${schema}"."${table}"`)).n;
}

/** `table.target_document_id` → referenced table and ON DELETE action (c = cascade), from the catalog. */
async function targetReference(schema: string, table: string): Promise<string | null> {
  const rows = await query<{ ref: string }>(db.pool,
    `SELECT rt.relname::text || ' ' || c.confdeltype::text AS ref FROM pg_constraint c
     JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     JOIN pg_class rt ON rt.oid = c.confrelid JOIN pg_namespace rn ON rn.oid = rt.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
     WHERE c.contype = 'f' AND n.nspname = $1 AND t.relname = $2 AND a.attname = 'target_document_id' AND rn.nspname = $1`,
    [schema, table]);
  return rows[0]?.ref ?? null;
}

const byline = componentType('shared.byline', { note: scalar('string'), editor: relation('manyToOne', USERS_UID) });
const articles = (author = relation('manyToOne', USERS_UID), opts: { draftAndPublish?: boolean; localized?: boolean } = {}) => model([
  contentType('article', { title: scalar('string'), author, readers: relation('manyToMany', USERS_UID), byline: component('shared.byline') }, opts),
  contentType('writer', { name: scalar('string') }),
], [byline]);

describe('relations to end users', () => {
  it('are owner sides on up_users: not localized, referenced', () => {
    const p = physicalModel(articles(relation('manyToOne', USERS_UID), { localized: true }));
    const author = p.contentTypes['api::article.article']!.attributes.author!;
    assert.ok(author.kind === 'relation');
    assert.deepEqual(
      { side: author.side, target: author.target, targetTable: author.targetTable, targetLocalized: author.targetLocalized, targetReferenced: author.targetReferenced },
      { side: 'owner', target: USERS_UID, targetTable: 'up_users', targetLocalized: false, targetReferenced: true },
    );
    for (const name of ['lnk_ct_article__author', 'lnk_ct_article__readers', 'lnk_cmp_shared__byline__editor']) {
      const link = p.linkTables[name]!;
      assert.ok(link.kind === 'relation' && link.targetTable === 'up_users' && link.targetReferenced && !link.targetLocalized, name);
    }
    const writerLink = physicalModel(articles(relation('manyToOne', 'api::writer.writer'))).linkTables.lnk_ct_article__author!;
    assert.ok(writerLink.kind === 'relation' && !writerLink.targetReferenced);
  });

  it('creates link tables referencing up_users(document_id) ON DELETE CASCADE; deleting a user deletes its links', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, articles());
    for (const table of ['lnk_ct_article__author', 'lnk_ct_article__readers', 'lnk_cmp_shared__byline__editor']) {
      assert.equal(await targetReference(schema, table), 'up_users c', table);
    }
    const cols = await columnsOf(db.pool, schema, 'lnk_ct_article__author');
    assert.deepEqual(Object.keys(cols), ['id', 'source_id', 'target_document_id', 'target_locale', 'ord', 'inv_ord']);

    const alice = await insertUser(schema);
    const bob = await insertUser(schema);
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    const box = await insert(db.pool, schema, 'cmp_shared__byline', { owner_id: a, owner_type: 'api::article.article', owner_field: 'byline' });
    await insert(db.pool, schema, 'lnk_ct_article__author', { source_id: a, target_document_id: alice });
    await insert(db.pool, schema, 'lnk_ct_article__readers', { source_id: a, target_document_id: alice });
    await insert(db.pool, schema, 'lnk_ct_article__readers', { source_id: a, target_document_id: bob });
    await insert(db.pool, schema, 'lnk_cmp_shared__byline__editor', { source_id: box, target_document_id: alice });
    // A link can only name an existing user of this schema.
    await assert.rejects(insert(db.pool, schema, 'lnk_ct_article__readers', { source_id: a, target_document_id: 'nobody' }), /foreign key/);

    await query(db.pool, `DELETE FROM "${schema}".up_users WHERE document_id = $1`, [alice]);
    assert.equal(await count(schema, 'lnk_ct_article__author'), 0);
    assert.deepEqual((await query<{ d: string }>(db.pool, `SELECT target_document_id AS d FROM "${schema}".lnk_ct_article__readers`)).map((r) => r.d), [bob]);
    assert.equal(await count(schema, 'lnk_cmp_shared__byline__editor'), 0);
    // Deleting the article deletes its links, never the user.
    await query(db.pool, `DELETE FROM "${schema}".ct_article WHERE id = $1`, [a]);
    assert.equal(await count(schema, 'lnk_ct_article__readers'), 0);
    assert.equal(await count(schema, USERS_TABLE), 1);
  });

  it('adds, changes the kind of, renames and drops relations to users', async () => {
    const schema = await createProjectSchema(db.pool);
    const v1 = model([contentType('article', { title: scalar('string') })]);
    const v2 = model([contentType('article', { title: scalar('string'), author: relation('manyToOne', USERS_UID) })]);
    const v3 = model([contentType('article', { title: scalar('string'), author: relation('manyToMany', USERS_UID) })]);
    const v4 = model([contentType('article', { title: scalar('string'), writtenBy: relation('manyToMany', USERS_UID) })]);
    await migrate(db.pool, schema, null, v1);
    const plan = await migrate(db.pool, schema, v1, v2);
    assert.deepEqual(plan.steps.map((s) => s.description), ['add attribute author to api::article.article']);
    assert.equal(await targetReference(schema, 'lnk_ct_article__author'), 'up_users c');

    const user = await insertUser(schema);
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'lnk_ct_article__author', { source_id: a, target_document_id: user });
    assert.deepEqual((await migrate(db.pool, schema, v2, v3)).steps.map((s) => s.op), ['changeRelationKind']);
    await migrate(db.pool, schema, v3, v4, { renames: { 'api::article.article': { author: 'writtenBy' } } });
    assert.equal(await targetReference(schema, 'lnk_ct_article__writtenBy'), 'up_users c');
    assert.equal(await count(schema, 'lnk_ct_article__writtenBy'), 1);
    await query(db.pool, `DELETE FROM "${schema}".up_users WHERE document_id = $1`, [user]);
    assert.equal(await count(schema, 'lnk_ct_article__writtenBy'), 0);

    await migrate(db.pool, schema, v4, v1);
    assert.deepEqual((await tablesOf(db.pool, schema)).filter((t) => t.startsWith('lnk_')), []);
    assert.ok((await tablesOf(db.pool, schema)).includes(USERS_TABLE));
  });

  it('retargets between users and a content type only while no links exist', async () => {
    const schema = await createProjectSchema(db.pool);
    const toUsers = articles();
    const toWriters = articles(relation('manyToOne', 'api::writer.writer'));
    await migrate(db.pool, schema, null, toWriters);
    assert.equal(await targetReference(schema, 'lnk_ct_article__author'), null);
    const plan = await migrate(db.pool, schema, toWriters, toUsers);
    assert.deepEqual(plan.steps.map((s) => s.description), [
      'change target of relation author on api::article.article from api::writer.writer to plugin::users-permissions.user',
    ]);
    assert.equal(await targetReference(schema, 'lnk_ct_article__author'), 'up_users c');

    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    const link = await insert(db.pool, schema, 'lnk_ct_article__author', { source_id: a, target_document_id: await insertUser(schema) });
    const snapshot = await snapshotSchema(db.pool, schema);
    await assert.rejects(migrate(db.pool, schema, toUsers, toWriters), expectRefusal(
      /^Cannot change the target of relation "author" of api::article\.article from plugin::users-permissions\.user to api::writer\.writer: links exist$/));
    assert.deepEqual(await snapshotSchema(db.pool, schema), snapshot);
    await query(db.pool, `DELETE FROM "${schema}".lnk_ct_article__author WHERE id = $1`, [link]);
    await migrate(db.pool, schema, toUsers, toWriters);
    assert.equal(await targetReference(schema, 'lnk_ct_article__author'), null);
  });

  it('copies links to users with the rows when draft & publish is enabled; drops them with the type', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, articles());
    const user = await insertUser(schema);
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'lnk_ct_article__author', { source_id: a, target_document_id: user });
    await migrate(db.pool, schema, articles(), articles(relation('manyToOne', USERS_UID), { draftAndPublish: true }));
    const links = await query<{ published: boolean; d: string }>(db.pool,
      `SELECT a.published_at IS NOT NULL AS published, l.target_document_id AS d FROM "${schema}".lnk_ct_article__author l
       JOIN "${schema}".ct_article a ON a.id = l.source_id ORDER BY 1`);
    assert.deepEqual(links, [{ published: false, d: user }, { published: true, d: user }]);

    await migrate(db.pool, schema, articles(relation('manyToOne', USERS_UID), { draftAndPublish: true }), model([contentType('writer', { name: scalar('string') })]));
    assert.deepEqual((await tablesOf(db.pool, schema)).filter((t) => t.startsWith('lnk_') || t.startsWith('cmp_') || t === 'ct_article'), []);
    assert.equal(await count(schema, USERS_TABLE), 1);
  });
});
