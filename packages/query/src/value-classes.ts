// What of a request value the SQL's shape depends on. A shape key holds these classes instead of
// the values, and planning keeps exactly these facts in the plan (everything else of a value is a
// bound parameter), so two requests with equal keys always plan to the same SQL text.
import type { ComparisonOperator, Pagination } from './ast.ts';

/**
 * A filter value: `$eq: null` is `IS NULL`; `$null`/`$notNull` pick `IS [NOT] NULL` (a value that
 * is no boolean is refused); an empty `$in`/`$notIn` decides a relation filter's missing-row rule.
 */
export function compareClass(op: ComparisonOperator, value: unknown): 'value' | 'null' | 'empty' | 'true' | 'false' | 'invalid' {
  switch (op) {
    case '$null':
    case '$notNull':
      return typeof value === 'boolean' ? (value ? 'true' : 'false') : 'invalid';
    case '$eq':
    case '$ne':
    case '$eqi':
    case '$nei':
      return value === null ? 'null' : 'value';
    case '$in':
    case '$notIn':
      return Array.isArray(value) && value.length === 0 ? 'empty' : 'value';
    default:
      return 'value';
  }
}

/** A requested locale: `*` (every locale) has no locale rule; any other value is bound. */
export const localeClass = (value: unknown): '*' | 'value' => (value === '*' ? '*' : 'value');

/** `_q`: an empty term searches nothing. */
export const searchClass = (value: unknown): 'none' | 'value' => (value === '' ? 'none' : 'value');

/** REST pagination: whether the list is counted (a second statement); its numbers are bound. */
export const pageClass = (value: Pagination | undefined): 'counted' | 'uncounted' => (value === undefined || value.withCount ? 'counted' : 'uncounted');
