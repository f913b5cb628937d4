// A list's total without a scan per request (docs/performance.md, "Exact totals"). Two forms:
// - kept: the list reads every row of its type in its status and locale (no filter, no
//   publication cohort), so the total is the sum of the `doc_counts` rows of that key, which the
//   database keeps exact at every commit (packages/ddl/src/doc-counts.ts): one indexed read;
// - checked: any other list. The statement sums the write rows (`status` NULL) of every table
//   its WHERE reaches and counts only when that sum differs from the cached total's (the last
//   parameter); the count is an uncorrelated subquery (an InitPlan), so Postgres runs it only
//   when the CASE needs it. Sum and count come from one snapshot: never a stale total.
// A release preview's total is counted on every read: the release's actions, which it depends on,
// are not in `doc_counts` (counted).
import { quoteLiteral } from '@cms/db';
import type { FilterPlan, QueryPlan } from './query-plan.ts';
import { renderFilter } from './render-filters.ts';
import { and, col, q, SqlBuilder, type SqlTemplate } from './sql-builder.ts';

export type TotalKind = 'kept' | 'checked' | 'counted';

/**
 * `kept` and `counted`: one column `count`. `checked`: columns `count` (null when the cached total is current)
 * and `version` (the write sum); its last parameter, `$<params.length + 1>::bigint`, is the
 * cached entry's version (-1: none), appended when it runs (total-cache.ts). A list's template
 * (`listWithTotal`) also has the column `data`, and the page's parameters first (`offset` of them).
 */
export interface TotalTemplate extends SqlTemplate {
  kind: TotalKind;
  offset: number;
}

/** Records every table the rendered SQL reads: the tables whose writes change the count. */
class TableRecorder extends SqlBuilder {
  readonly tables = new Set<string>();
  override table(name: string): string {
    this.tables.add(name);
    return super.table(name);
  }
}

/** True when the filter keeps every row (`filters={}`, `_q` with no term). */
function keepsEverything(where: FilterPlan | null): boolean {
  if (where === null) return true;
  if (where.kind === 'const') return where.value;
  if (where.kind === 'and') return where.children.every(keepsEverything);
  return false;
}

/** The total alone (`GET /api/users/count`). */
export function totalTemplate(plan: QueryPlan): TotalTemplate {
  return renderTotal(plan, []);
}

/**
 * A list's page (`data`, from findTemplates) and its total in ONE statement: one round trip, one
 * connection, and the page and the total read in the same snapshot.
 */
export function listWithTotal(plan: QueryPlan, data: SqlTemplate): TotalTemplate {
  const total = renderTotal(plan, data.params);
  const text = `SELECT ${q('$d')}.${q('data')}, ${q('$c')}.* FROM (${data.text}) ${q('$d')}, (${total.text}) ${q('$c')}`;
  return { ...total, text };
}

/** `prefix`: parameters already taken (the page's); the total's are numbered after them. */
function renderTotal(plan: QueryPlan, prefix: readonly unknown[]): TotalTemplate {
  const view = plan.root.view;
  const cohort = plan.scope.publication !== undefined && view.kind === 'contentType' && view.draftAndPublish;
  if (plan.scope.release) {
    const b = new SqlBuilder(plan.scope);
    b.params.push(...prefix);
    return { kind: 'counted', text: countText(b, plan), params: b.params, offset: prefix.length };
  }
  const kept = keepsEverything(plan.where) && !cohort && view.kind !== 'component';
  const b = kept ? new SqlBuilder(plan.scope) : new TableRecorder(plan.scope);
  b.params.push(...prefix);
  const text = kept ? keptText(b, plan) : checkedText(b as TableRecorder, plan);
  return { kind: kept ? 'kept' : 'checked', text, params: b.params, offset: prefix.length };
}

/** `count(*)` under the list's WHERE. */
function countText(b: SqlBuilder, plan: QueryPlan): string {
  const view = plan.root.view;
  const t = b.alias('t');
  const where = b.rootConditions(view, t);
  if (plan.where) where.push(renderFilter(b, plan.where, t, view));
  return `SELECT count(*) AS ${q('count')} FROM ${b.table(view.table)} ${t} WHERE ${and(where)}`;
}

function keptText(b: SqlBuilder, plan: QueryPlan): string {
  const view = plan.root.view;
  // The same rows as the list's rootConditions: a status on draft & publish types only, a
  // locale on localized types unless every locale is read.
  const statuses = view.kind === 'contentType' && view.draftAndPublish ? [plan.scope.status] : ['draft', 'published'];
  // The shape's constants as literals: an unfiltered list of a non-localized type then has no
  // parameter at all, and Postgres keeps one generic plan per connection from its first named run
  // on, where a statement with parameters is planned afresh for each of its first five runs.
  const conds = [`"tbl" = ${quoteLiteral(view.table)}`, `"status" IN (${statuses.map(quoteLiteral).join(', ')})`];
  if (view.localized && plan.scope.locale !== null) conds.push(`"locale" = ${b.param(plan.scope.locale, 'text')}`);
  return `SELECT coalesce(sum("n"), 0)::bigint AS ${q('count')} FROM ${b.table('doc_counts')} WHERE ${conds.join(' AND ')}`;
}

function checkedText(b: TableRecorder, plan: QueryPlan): string {
  const view = plan.root.view;
  const t = b.alias('t');
  const where = b.rootConditions(view, t);
  if (plan.where) where.push(renderFilter(b, plan.where, t, view));
  const count = `SELECT count(*) FROM ${b.table(view.table)} ${t} WHERE ${and(where)}`;
  // Rendered after the count so the recorder has seen every table; parameters keep their order.
  const v = b.alias('v');
  const tables = b.param([...b.tables].sort(), 'text[]');
  const version = `SELECT coalesce(sum("n"), 0)::bigint AS ${q('version')} FROM ${b.table('doc_counts')} WHERE "tbl" = ANY(${tables}) AND "status" IS NULL`;
  const cached = `$${b.params.length + 1}::bigint`;
  return `SELECT CASE WHEN ${col(v, 'version')} = ${cached} THEN NULL ELSE (${count}) END AS ${q('count')}, ` +
    `${col(v, 'version')} AS ${q('version')} FROM (${version}) ${v}`;
}
