// FilterPlan → a boolean SQL expression over the row alias. Operators follow Strapi's Postgres
// SQL; every value is a bound parameter cast to the column's type (`= ANY($n)` for lists, so a
// list's length never changes the text).
import { COLUMNS } from '@cms/tables';
import { castSqlType, isJsonType } from './cast-values.ts';
import type { ScalarField, TypeView } from './model-view.ts';
import type { Param } from './plan-values.ts';
import type { FilterPlan } from './query-plan.ts';
import { renderHop } from './render-hops.ts';
import { outputExpression } from './format-values.ts';
import { and, col, type SqlBuilder } from './sql-builder.ts';

export function renderFilter(b: SqlBuilder, node: FilterPlan, alias: string, view: TypeView): string {
  switch (node.kind) {
    case 'const':
      return node.value ? 'TRUE' : 'FALSE';
    case 'and':
      return node.children.length === 0 ? 'TRUE' : node.children.map((c) => `(${renderFilter(b, c, alias, view)})`).join(' AND ');
    case 'or':
      return node.children.length === 0 ? 'TRUE' : node.children.map((c) => `(${renderFilter(b, c, alias, view)})`).join(' OR ');
    case 'not':
      return `NOT (${renderFilter(b, node.child, alias, view)})`;
    case 'search': {
      const pattern = b.param(node.pattern, 'text');
      const like = (f: ScalarField) => `${col(alias, f.column)}::text ILIKE ${pattern}`;
      const parts = node.fields.map(like);
      if (node.numeric.length > 0) parts.push(`(${b.param(node.isNumber, 'boolean')} AND (${node.numeric.map(like).join(' OR ')}))`);
      return parts.join(' OR ') || 'FALSE';
    }
    case 'exists': {
      const hop = renderHop(b, node.hop, alias, view);
      const inner = renderFilter(b, node.child, hop.alias, node.hop.target);
      const found = `EXISTS (SELECT 1 FROM ${hop.from} WHERE ${and([...hop.where, inner])})`;
      if (!node.orMissing) return found;
      // A condition that holds on a missing related row (LEFT JOIN semantics): no row at all also matches.
      const none = renderHop(b, node.hop, alias, view);
      return `${found} OR NOT EXISTS (SELECT 1 FROM ${none.from} WHERE ${and(none.where)})`;
    }
    case 'compare':
      return renderCompare(b, node, alias);
  }
}

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password']);

/**
 * The text that case-insensitive and LIKE operators see: what the JSON output shows (ISO UTC
 * datetimes, `12.5` for decimals), so the result never depends on the session's settings.
 */
function textExpression(alias: string, field: ScalarField): string {
  if (TEXT_TYPES.has(field.type)) return col(alias, field.column);
  switch (field.type) {
    case 'decimal':
    case 'date':
    case 'time':
    case 'datetime':
      return `(${outputExpression(alias, field)})::text`;
    default:
      return `${col(alias, field.column)}::text`;
  }
}

function renderCompare(b: SqlBuilder, node: Extract<FilterPlan, { kind: 'compare' }>, alias: string): string {
  const { field, op, value } = node;
  const column = col(alias, field.column);
  const json = isJsonType(field.type);
  // JSON columns compare as text.
  const expr = json ? `${column}::text` : column;
  const asText = textExpression(alias, field);
  const type = castSqlType(field.type);
  const p = (v: unknown, t = type) => b.param(v, t);
  switch (op) {
    case '$eq':
      return value === null ? `${column} IS NULL` : `${expr} = ${p(value)}`;
    case '$ne':
      return value === null ? `${column} IS NOT NULL` : `${expr} <> ${p(value)}`;
    case '$eqi':
      return value === null ? `${column} IS NULL` : `lower(${asText}) = lower(${p(value, 'text')})`;
    case '$nei':
      return value === null ? `${column} IS NOT NULL` : `lower(${asText}) <> lower(${p(value, 'text')})`;
    case '$lt':
      return `${expr} < ${p(value)}`;
    case '$lte':
      return `${expr} <= ${p(value)}`;
    case '$gt':
      return `${expr} > ${p(value)}`;
    case '$gte':
      return `${expr} >= ${p(value)}`;
    case '$in':
      return `${expr} = ANY (${p(value, `${type}[]`)})`;
    case '$notIn':
      return `${expr} <> ALL (${p(value, `${type}[]`)})`;
    case '$between': {
      const range = value as Param;
      return `${expr} BETWEEN ${p(range.map((v: string[]) => v[0]))} AND ${p(range.map((v: string[]) => v[1]))}`;
    }
    case '$null':
      return `${column} IS ${value ? '' : 'NOT '}NULL`;
    case '$notNull':
      return `${column} IS ${value ? 'NOT ' : ''}NULL`;
    case '$contains':
    case '$startsWith':
    case '$endsWith':
      return `${asText} LIKE ${p(value, 'text')}`;
    case '$notContains':
      return `NOT (${asText} LIKE ${p(value, 'text')})`;
    case '$containsi':
    case '$startsWithi':
    case '$endsWithi':
      return `lower(${asText}) LIKE lower(${p(value, 'text')})`;
    case '$notContainsi':
      return `lower(${asText}) NOT LIKE lower(${p(value, 'text')})`;
  }
}
