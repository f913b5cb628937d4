// The one place identifiers and literals are quoted and compiled SQL text is handed to slonik.
import { sql, type CommonQueryMethods, type DatabaseTransactionConnection, type QuerySqlToken } from 'slonik';

export { sql };
export type Db = CommonQueryMethods;
export type DbTransaction = DatabaseTransactionConnection;

const IDENT_MAX = 63;

/** Quote one identifier. Names are validated upstream; this refuses what Postgres would truncate or reject. */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.length > IDENT_MAX || name.includes('\0')) {
    throw new Error(`invalid SQL identifier: ${JSON.stringify(name.slice(0, 80))}`);
  }
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A string literal, for names that come from the validated model or the platform (uids, table
 * and attribute names, schema names), never for a request's values: those are bound parameters.
 */
export function quoteLiteral(text: string): string {
  if (text.includes('\0')) throw new Error('NUL in SQL literal');
  return `'${text.replace(/'/g, "''")}'`;
}

/** `"schema"."name"` */
export function qualify(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** A timestamptz expression as the API prints it: ISO 8601 in UTC with milliseconds (`…T…Z`). */
export function isoTimestamp(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** SQL text with `$n` placeholders plus its values, as produced by our compilers. */
export interface CompiledSql {
  text: string;
  values: readonly unknown[];
}

/**
 * Wrap precompiled SQL (built by our renderers from quoted identifiers and `$n` placeholders,
 * never from request text) as a slonik query token.
 */
export function compiledQuery(q: CompiledSql): QuerySqlToken {
  return { type: 'SLONIK_TOKEN_QUERY', sql: q.text, values: q.values, parser: undefined } as unknown as QuerySqlToken;
}
