// Statements carried in another as CTEs (@cms/db carried.ts): placeholders renumbered, quoted text untouched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carriedWith, shiftPlaceholders } from '@cms/db';

describe('carried statements', () => {
  it('moves placeholders on, not what is quoted', () => {
    assert.equal(shiftPlaceholders(`INSERT INTO "t$1" ("a", "b") VALUES ($1, $12) -- '$2'`, 3), `INSERT INTO "t$1" ("a", "b") VALUES ($4, $15) -- '$2'`);
    assert.equal(shiftPlaceholders(`SELECT 'it''s $1', $1`, 1), `SELECT 'it''s $1', $2`);
    assert.equal(shiftPlaceholders('SELECT $1', 0), 'SELECT $1');
  });

  it('names each CTE and appends the values after the statement\'s own', () => {
    const values: unknown[] = ['own'];
    const { ctes } = carriedWith([{ ctes: ['INSERT INTO a VALUES ($1)', 'INSERT INTO b VALUES ($2, $1)'], values: ['x', 'y'] }, { ctes: ['INSERT INTO c VALUES ($1)'], values: ['z'] }], values);
    // Listed last first: Postgres runs them in the reverse order of the list.
    assert.deepEqual(ctes, ['carried2 AS (INSERT INTO c VALUES ($4))', 'carried1 AS (INSERT INTO b VALUES ($3, $2))', 'carried0 AS (INSERT INTO a VALUES ($2))']);
    assert.deepEqual(values, ['own', 'x', 'y', 'z']);
  });

  it('lists a CTE another reads first, and resolves the outputs\' names and placeholders', () => {
    const values: unknown[] = [];
    const delivered: unknown[] = [];
    const { ctes, outputs } = carriedWith([
      { ctes: ['INSERT INTO a VALUES ($1)'], values: ['a'] },
      {
        ctes: ['UPDATE h SET n = n + 1 RETURNING n', 'INSERT INTO e SELECT n, $1 FROM $cte0 RETURNING *'], values: ['e'],
        output: { expression: 'SELECT count(*) FROM $cte1 WHERE x = $1', deliver: (v) => delivered.push(v) },
      },
    ], values);
    assert.deepEqual(ctes, [
      'carried1 AS (UPDATE h SET n = n + 1 RETURNING n)',
      'carried2 AS (INSERT INTO e SELECT n, $2 FROM carried1 RETURNING *)',
      'carried0 AS (INSERT INTO a VALUES ($1))',
    ]);
    assert.equal(outputs.length, 1);
    assert.equal(outputs[0]!.expression, 'SELECT count(*) FROM carried2 WHERE x = $2');
    outputs[0]!.deliver(3);
    assert.deepEqual(delivered, [3]);
    assert.deepEqual(values, ['a', 'e']);
  });
});
