// Direct inserts into the control schema, for tests that need a project without going through
// the management API.
import { compiledQuery } from '@cms/db';
import type { TestApp } from './app.ts';

let counter = 0;

export async function insertProject(t: TestApp, slug = `proj-${process.pid}-${++counter}`, locales = ['en']): Promise<{ id: number; slug: string }> {
  const pool = t.platform.db.pool;
  return pool.transaction(async (tx) => {
    const accountId = (await tx.oneFirst(compiledQuery({
      text: `INSERT INTO platform.accounts (email, password_hash) VALUES ($1, 'x') RETURNING id`,
      values: [`${slug}@fixture.test`],
    }))) as number;
    const id = (await tx.oneFirst(compiledQuery({
      text: `INSERT INTO platform.projects (account_id, slug, name, default_locale, schema_name)
             VALUES ($1, $2, $2, $3, 'pending-' || $2) RETURNING id`,
      values: [accountId, slug, locales[0]],
    }))) as number;
    await tx.query(compiledQuery({ text: `UPDATE platform.projects SET schema_name = $2 WHERE id = $1`, values: [id, `t_${id}`] }));
    await tx.query(compiledQuery({ text: `CREATE SCHEMA "t_${id}"`, values: [] }));
    for (const [i, code] of locales.entries()) {
      await tx.query(compiledQuery({
        text: `INSERT INTO platform.locales (project_id, code, name, is_default, created_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
        values: [id, code, `${code} name`, i === 0, i],
      }));
    }
    return { id, slug };
  });
}
