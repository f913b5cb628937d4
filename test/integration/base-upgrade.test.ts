// Projects created before a base migration existed get it at the next start; creating and
// migrating projects leaves no compiled function in the database connection that did it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { baseMigrations } from '@cms/ddl';
import { upgradeProjectSchemas } from '@cms/tenancy';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject } from '../helpers/content.ts';
import { insertProject } from '../helpers/fixtures.ts';
import { blogRawModel } from '../fixtures/index.ts';

describe('base table upgrades', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('adds missing base tables to older project schemas, once', async () => {
    const pool = t.platform.db.pool;
    const run = (text: string, values: unknown[] = []) => pool.query(compiledQuery({ text, values }));
    const { id } = await insertProject(t);
    const schema = `t_${id}`;
    // Make it look like a project from before base_0002_users.
    await run(`DROP TABLE "${schema}".up_users`);
    await run(`DELETE FROM "${schema}".schema_migrations WHERE id = 'base_0002_users'`);
    await run('UPDATE platform.projects SET base_version = 1 WHERE id = $1', [id]);

    assert.equal(await upgradeProjectSchemas(pool), 1);
    const exists = await pool.oneFirst(compiledQuery({ text: `SELECT to_regclass($1) IS NOT NULL`, values: [`"${schema}".up_users`] }));
    assert.equal(exists, true);
    assert.equal(await pool.oneFirst(compiledQuery({ text: 'SELECT base_version FROM platform.projects WHERE id = $1', values: [id] })), baseMigrations.length);
    assert.equal(await upgradeProjectSchemas(pool), 0);
  });

  it('drops the per-schema recount function of older schemas (base_0007)', async () => {
    const pool = t.platform.db.pool;
    const run = (text: string, values: unknown[] = []) => pool.query(compiledQuery({ text, values }));
    const functions = (schema: string) => pool.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM pg_proc WHERE pronamespace = $1::regnamespace AND proname = 'cms_sync_counts'`, values: [schema] }));
    const { id } = await insertProject(t);
    const schema = `t_${id}`;
    assert.equal(await functions(schema), 0, 'a new schema has none');
    // A schema from before base_0007: its function, as base_0006 left it.
    await run(`CREATE FUNCTION "${schema}"."cms_sync_counts"() RETURNS void LANGUAGE sql AS 'SELECT'`);
    await run(`DELETE FROM "${schema}".schema_migrations WHERE id = 'base_0007_sync_counts_block'`);
    await run('UPDATE platform.projects SET base_version = 6 WHERE id = $1', [id]);
    assert.equal(await upgradeProjectSchemas(pool), 1);
    assert.equal(await functions(schema), 0);
  });

  it('creating a project and migrating its model leave no compiled function in the connection', async () => {
    // One pooled connection: the creation, the migration and the check below share it.
    const one = await startTestApp({ env: { DB_POOL_SIZE: '1' } });
    try {
      const p = await setupContentProject(one, blogRawModel());
      const compiled = await one.platform.db.pool.anyFirst(compiledQuery({ text: `SELECT ident FROM pg_backend_memory_contexts WHERE name = 'PL/pgSQL function'`, values: [] }));
      assert.deepEqual(compiled, []);
      // The recount ran: the type's total is there.
      assert.equal((await p.api.post('/api/tags', { data: { label: 'counted' } })).statusCode, 201);
      assert.equal((await p.api.get('/api/tags')).json().meta.pagination.total, 1);
    } finally {
      await one.close();
    }
  });
});
