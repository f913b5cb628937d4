// QueryPlan → SQL: the third stage. A list is ONE statement that returns the page as a JSON text
// (the server splices it into the response without parsing) plus one count statement; a single
// document is one statement. Populate never adds statements, whatever the page size.
// The `*Template` functions render a plan's shape (parameters unbound: compiled-read.ts binds
// them per request); `renderFind`, `renderCount` and `renderFindOne` bind the plan's own values.
import type { CompiledSql } from '@cms/db';
import { COLUMNS } from '@cms/tables';
import { limitOffset } from './pagination.ts';
import type { TypeView } from './model-view.ts';
import { bindParams } from './plan-values.ts';
import type { Hop, PagePlan, QueryPlan, SortPlan } from './query-plan.ts';
import { renderFilter } from './render-filters.ts';
import { renderHop } from './render-hops.ts';
import { dir, renderRow, sortExpression } from './render-select.ts';
import { and, col, q, SqlBuilder, type SqlTemplate } from './sql-builder.ts';

/** A template with the plan's own values bound. */
const bound = (plan: QueryPlan, t: SqlTemplate): CompiledSql => ({ text: t.text, values: bindParams(t.params, plan.values) });

function whereClause(b: SqlBuilder, plan: QueryPlan, alias: string): string[] {
  const view = plan.root.view;
  const conds = b.rootConditions(view, alias);
  if (plan.where) conds.push(renderFilter(b, plan.where, alias, view));
  return conds;
}

/**
 * `data`: one row, one text column — the JSON array of the page, in order (requested sort keys,
 * then `id ASC` as Strapi 5.54 appends). `count`: `count(*)` under the same WHERE, or null when
 * `withCount` is false.
 */
export function renderFind(plan: QueryPlan): { data: CompiledSql; count: CompiledSql | null } {
  const { data, count } = findTemplates(plan);
  return { data: bound(plan, data), count: count && bound(plan, count) };
}

/**
 * The page's LIMIT written into the text, and whether it starts at the first row (no OFFSET).
 * Postgres plans a statement whose LIMIT is a parameter as if it returned a tenth of the table,
 * so such a statement gets a custom plan on every run (planned again each time: a third of a
 * populated list's database time); with the LIMIT in the text and no OFFSET, its generic plan is
 * as good and is kept. Later pages keep OFFSET a parameter (one text for all of them).
 */
export interface PageWindow {
  /** decimal digits, or null for no LIMIT */
  limit: string | null;
  firstPage: boolean;
}

export function findTemplates(plan: QueryPlan, window?: PageWindow): { data: SqlTemplate; count: SqlTemplate | null } {
  return { data: findDataTemplate(plan, window), count: plan.page.withCount ? countTemplate(plan) : null };
}

function findDataTemplate(plan: QueryPlan, window?: PageWindow): SqlTemplate {
  const b = new SqlBuilder(plan.scope);
  const view = plan.root.view;
  const t = b.alias('t');
  const p = b.alias('p');
  const where = whereClause(b, plan, t);
  const joins = new SortJoins(b, t, view);
  // Sort keys are computed once on the page query and re-used to order the aggregate.
  const sortCols = plan.sort.map((s, i) => ({ expr: joins.expression(s), name: q(`$s${i}`), dir: dir(s) }));
  const limit = plan.page.param.map((page: PagePlan) => limitOffset(page).limit);
  const offset = plan.page.param.map((page: PagePlan) => limitOffset(page).offset);
  const inner = [...sortCols.map((s) => `${s.name} ${s.dir}`), `${col(t, COLUMNS.id)} ASC`].join(', ');
  const outer = [...sortCols.map((s) => `${p}.${s.name} ${s.dir}`), `${col(p, COLUMNS.id)} ASC`].join(', ');
  const bounds = window
    ? `${window.limit === null ? '' : ` LIMIT ${window.limit}`}${window.firstPage ? '' : ` OFFSET ${b.param(offset, 'bigint')}`}`
    : ` LIMIT ${b.param(limit, 'bigint')} OFFSET ${b.param(offset, 'bigint')}`;
  const page = `SELECT ${t}.*${sortCols.map((s) => `, ${s.expr} AS ${s.name}`).join('')} FROM ${b.table(view.table)} ${t}${joins.sql()} ` +
    `WHERE ${and(where)} ORDER BY ${inner}${bounds}`;
  const row = renderRow(b, plan.root, p);
  const text = `SELECT coalesce(json_agg(${row} ORDER BY ${outer}), '[]')::text AS ${q('data')} FROM (${page}) ${p}`;
  return { text, params: b.params };
}

/**
 * Sorting through owner-side to-one relations joins the targets (LEFT JOIN: rows without one
 * sort as NULL), so Postgres may hash-join instead of running a subquery per row. Such a chain
 * reaches at most one row: the link is unique per source row, and a target document has one
 * row per locale and status. Other paths (components, to-many, inverse sides) may reach several
 * rows and use a correlated subquery taking the first value in sort order.
 */
class SortJoins {
  private readonly joins: string[] = [];
  private readonly reached = new Map<string, string>();
  constructor(private readonly b: SqlBuilder, private readonly root: string, private readonly view: TypeView) {}

  expression(sort: SortPlan): string {
    const joinable = sort.hops.length > 0 && sort.hops.every((h) => h.kind === 'relation' && h.relation.side === 'owner' && !h.relation.many);
    if (!joinable) return sortExpression(this.b, sort, this.root, this.view);
    let parent = this.root;
    let parentView = this.view;
    let key = '';
    for (const hop of sort.hops) {
      key += `/${(hop as Extract<Hop, { kind: 'relation' }>).relation.linkTable}`;
      let alias = this.reached.get(key);
      if (!alias) {
        const h = renderHop(this.b, hop, parent, parentView);
        this.joins.push(` LEFT JOIN (${h.from}) ON ${and(h.where)}`);
        alias = h.alias;
        this.reached.set(key, alias);
      }
      parent = alias;
      parentView = hop.target;
    }
    return col(parent, sort.field.column);
  }

  sql(): string {
    return this.joins.join('');
  }
}

/** `SELECT count(*)` (bigint, column `count`) with the list's WHERE. */
export function renderCount(plan: QueryPlan): CompiledSql {
  return bound(plan, countTemplate(plan));
}

function countTemplate(plan: QueryPlan): SqlTemplate {
  const b = new SqlBuilder(plan.scope);
  const t = b.alias('t');
  const where = whereClause(b, plan, t);
  return { text: `SELECT count(*) AS ${q('count')} FROM ${b.table(plan.root.view.table)} ${t} WHERE ${and(where)}`, params: b.params };
}

/**
 * One document as one row with one text column (the JSON object), or no row. `documentId` null
 * reads the single type's document. `locale=*` finds nothing on a localized type (Strapi: 404).
 */
export function renderFindOne(plan: QueryPlan, documentId: string | null): CompiledSql {
  return bound(plan, findOneTemplate(plan, documentId));
}

/** `documentId` is always the first parameter (`$1`): a compiled read swaps in each request's. */
export function findOneTemplate(plan: QueryPlan, documentId: string | null): SqlTemplate {
  const b = new SqlBuilder(plan.scope);
  const view = plan.root.view;
  const t = b.alias('t');
  const conds: string[] = [];
  if (documentId !== null) conds.push(`${col(t, COLUMNS.documentId)} = ${b.param(documentId, 'text')}`);
  if (view.localized && plan.scope.locale === null) conds.push('FALSE');
  conds.push(...whereClause(b, plan, t));
  const row = renderRow(b, plan.root, t);
  const text = `SELECT ${row}::text AS ${q('data')} FROM ${b.table(view.table)} ${t} WHERE ${and(conds)} ORDER BY ${col(t, COLUMNS.id)} LIMIT 1`;
  return { text, params: b.params };
}
