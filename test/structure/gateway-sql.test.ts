// The gateway only routes: SQL lives in the packages that own the tables (content SQL in
// @cms/query, @cms/documents, @cms/tables, @cms/ddl and the plugin packages). A gateway source
// that builds or runs SQL — a statement in its text, or the SQL helpers of @cms/db or the driver
// imported — fails here; the fix is a named function of the package that owns those tables.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, sources } from './sources.ts';

const GATEWAY = 'apps/gateway/src';

// What of @cms/db builds or runs SQL text; its types, the pool and migrations runner are fine.
const SQL_HELPERS = new Set(['sql', 'compiledQuery', 'quoteIdent', 'qualify', 'isoTimestamp', 'exec', 'rows', 'column', 'exists']);
const STATEMENTS = [/\bSELECT\b[^;`'"]{0,300}?\bFROM\b/, /\bINSERT\s+INTO\b/, /\bUPDATE\s+\S+\s+SET\b/, /\bDELETE\s+FROM\b/];

/** What in one source text is SQL, as messages. */
function sqlIn(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(\*\s+as\s+\w+|\{[^}]*\})\s+from\s+['"](@cms\/db|slonik|pg)['"]/gm)) {
    if (m[1]) continue;
    const names = m[2]!.startsWith('*') ? ['*'] : m[2]!.slice(1, -1).split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '));
    const helpers = m[3] === '@cms/db' ? names.map((n) => n.split(/\s+as\s+/)[0]!).filter((n) => n === '*' || SQL_HELPERS.has(n)) : names;
    if (helpers.length) found.push(`${file} imports ${helpers.join(', ')} from ${m[3]}`);
  }
  for (const statement of STATEMENTS) {
    const m = statement.exec(text);
    if (m) found.push(`${file} contains SQL: ${m[0].replace(/\s+/g, ' ').slice(0, 60)}`);
  }
  return found;
}

describe('no SQL in the gateway', () => {
  const files = sources(join(ROOT, GATEWAY)).map((path) => ({ file: path.slice(ROOT.length + 1), text: readFileSync(path, 'utf8') }));

  it('has no source that builds or runs SQL', () => {
    assert.deepEqual(files.flatMap(({ file, text }) => sqlIn(file, text)), [],
      'move it into a named function of the package that owns those tables');
  });

  it('reports SQL helpers and statements, and accepts types and prose', () => {
    const text = [
      "import { compiledQuery, type Db, createDatabase } from '@cms/db';",
      "import type { DbTransaction } from '@cms/db';",
      "import { sql as s } from '@cms/db';",
      "import * as db from '@cms/db';",
      "import { createPool } from 'slonik';",
      'const q = `SELECT r.id FROM ${t} r WHERE r.id = $1`;',
      "await rows(tx, 'DELETE FROM x WHERE id = $1');",
      '// select the files from storage, then update the rows set aside',
    ].join('\n');
    assert.deepEqual(sqlIn('x.ts', text), [
      'x.ts imports compiledQuery from @cms/db',
      'x.ts imports sql from @cms/db',
      'x.ts imports * from @cms/db',
      'x.ts imports createPool from slonik',
      'x.ts contains SQL: SELECT r.id FROM',
      'x.ts contains SQL: DELETE FROM',
    ]);
    assert.deepEqual(sqlIn('y.ts', "import type { Db } from '@cms/db';\nimport { createDatabase, type Database } from '@cms/db';\n"), []);
  });
});
