// Scalar attribute type → Postgres column type.
import type { ScalarType } from '@cms/schema';

const SQL_TYPES: Record<ScalarType, string> = {
  string: 'text',
  text: 'text',
  richtext: 'text',
  email: 'text',
  uid: 'text',
  enumeration: 'text',
  password: 'text',
  blocks: 'jsonb',
  json: 'jsonb',
  integer: 'integer',
  biginteger: 'bigint',
  float: 'double precision',
  // No fixed precision/scale: a decimal must never be rounded by the database.
  decimal: 'numeric',
  boolean: 'boolean',
  date: 'date',
  time: 'time(3)',
  datetime: 'timestamptz(3)',
};

export function sqlTypeOf(type: ScalarType): string {
  return SQL_TYPES[type];
}

export const NUMERIC_TYPES: readonly ScalarType[] = ['integer', 'biginteger', 'float', 'decimal'];
