// How each column is printed in the JSON answer. Formatting happens in Postgres,
// so the answer never depends on the session's DateStyle or TimeZone.
import { isoTimestamp } from '@cms/db';
import type { ScalarField } from './model-view.ts';
import { col } from './sql-builder.ts';

/** A column as its JSON value: biginteger as a string, decimal as a number without trailing zeros, ISO UTC ms. */
export function outputExpression(alias: string, field: ScalarField): string {
  const c = col(alias, field.column);
  switch (field.type) {
    case 'biginteger':
      return `${c}::text`;
    case 'decimal':
      return `trim_scale(${c})`;
    case 'datetime':
      return isoTimestamp(c);
    case 'date':
      return `to_char(${c}, 'YYYY-MM-DD')`;
    case 'time':
      return `to_char(${c}, 'HH24:MI:SS.MS')`;
    default:
      return c;
  }
}

