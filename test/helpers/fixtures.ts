// A project for tests that do not go through the management API: the real ProjectService on an
// account inserted directly (no password hashing needed).
import { compiledQuery } from '@cms/db';
import type { TestApp } from './app.ts';

let counter = 0;

export async function insertProject(t: TestApp, slug = `proj-${process.pid}-${++counter}`, locales = ['en']): Promise<{ id: number; slug: string }> {
  const accountId = (await t.platform.db.pool.oneFirst(compiledQuery({
    text: `INSERT INTO platform.accounts (email, password_hash) VALUES ($1, 'x') RETURNING id`,
    values: [`${slug}@fixture.test`],
  }))) as number;
  const project = await t.platform.projects.create(accountId, { name: slug, slug, defaultLocale: locales[0] });
  for (const code of locales.slice(1)) await t.platform.locales.add(project, { code });
  return { id: project.id, slug };
}
