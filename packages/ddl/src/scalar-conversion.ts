// How an existing column converts when a scalar attribute changes type. A conversion is an
// `ALTER COLUMN … TYPE … USING <expr>`; Postgres rejecting the expression on some row (or the
// `lossy` test finding a row the cast would silently alter) means the data cannot be kept.
import { isoTimestamp } from '@cms/db';
import type { ScalarType } from '@cms/schema';
import { sqlTypeOf } from '@cms/tables';

export interface ScalarConversion {
  /** USING expression over the old column. */
  using: string;
  /** SQL condition true for a row whose value the cast would silently change (refuse if any). */
  lossy?: string;
}

type Storage = 'text' | 'jsonb' | 'numeric' | 'boolean' | 'date' | 'time' | 'datetime';

function storageOf(type: ScalarType): Storage {
  switch (sqlTypeOf(type)) {
    case 'text': return 'text';
    case 'jsonb': return 'jsonb';
    case 'boolean': return 'boolean';
    case 'date': return 'date';
    case 'time(3)': return 'time';
    case 'timestamptz(3)': return 'datetime';
    default: return 'numeric';
  }
}

export function sameStorage(from: ScalarType, to: ScalarType): boolean {
  return sqlTypeOf(from) === sqlTypeOf(to);
}

// Lossless numeric widenings (every value of the left type is exactly a value of the right).
const WIDENINGS = new Set(['integer>biginteger', 'integer>float', 'integer>decimal', 'biginteger>decimal']);

/** The value as text, in the format the content API reads and writes. */
function asText(from: ScalarType, col: string): string {
  switch (storageOf(from)) {
    case 'text': return col;
    case 'jsonb': return `(${col} #>> '{}')`;
    case 'date': return `to_char(${col}, 'YYYY-MM-DD')`;
    case 'datetime': return isoTimestamp(col);
    default: return `(${col})::text`;
  }
}

/** Text (or a JSON scalar) parsed into the new type; empty strings become NULL. */
function parsed(from: ScalarType, col: string, sqlType: string): string {
  return `(NULLIF(btrim(${asText(from, col)}), ''))::${sqlType}`;
}

/** `col` is a quoted column name. Returns null when no conversion of existing values exists. */
export function scalarConversion(from: ScalarType, to: ScalarType, col: string): ScalarConversion | null {
  const target = sqlTypeOf(to);
  const src = storageOf(from);
  switch (storageOf(to)) {
    case 'text':
      return { using: asText(from, col) };
    case 'jsonb':
      if (to === 'blocks') return src === 'text' ? { using: `(NULLIF(btrim(${col}), ''))::jsonb` } : null;
      // json: the JSON value of the old value (strings stay strings, numbers numbers).
      if (src === 'date' || src === 'datetime' || src === 'time') return { using: `to_jsonb(${asText(from, col)})` };
      return { using: `to_jsonb(${col})` };
    case 'numeric':
      if (src === 'numeric') {
        if (WIDENINGS.has(`${from}>${to}`)) return { using: `(${col})::${target}` };
        return { using: `(${col})::${target}`, lossy: `${col} IS NOT NULL AND ((${col})::${target})::${sqlTypeOf(from)} <> ${col}` };
      }
      if (src === 'boolean') return { using: `((${col})::integer)::${target}` };
      if (src === 'text' || src === 'jsonb') return { using: parsed(from, col, target) };
      return null;
    case 'boolean':
      if (src === 'numeric') return { using: `(${col} <> 0)`, lossy: `${col} IS NOT NULL AND ${col} NOT IN (0, 1)` };
      if (src === 'text' || src === 'jsonb') return { using: parsed(from, col, target) };
      return null;
    case 'date':
      if (src === 'datetime') {
        return { using: `(${col} AT TIME ZONE 'UTC')::date`, lossy: `${col} IS NOT NULL AND (${col} AT TIME ZONE 'UTC')::time <> time '00:00'` };
      }
      if (src === 'text' || src === 'jsonb') return { using: parsed(from, col, target) };
      return null;
    case 'time':
      if (src === 'text' || src === 'jsonb') return { using: parsed(from, col, target) };
      return null;
    case 'datetime':
      if (src === 'date') return { using: `(${col})::timestamp AT TIME ZONE 'UTC'` };
      if (src === 'text' || src === 'jsonb') return { using: parsed(from, col, target) };
      return null;
  }
}
