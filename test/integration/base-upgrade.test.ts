// Projects created before a base migration existed get it at the next start.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { baseMigrations } from '@cms/ddl';
import { upgradeProjectSchemas } from '@cms/tenancy';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { insertProject } from '../helpers/fixtures.ts';

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
});
