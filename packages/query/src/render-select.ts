// Selection → a JSON expression built inside Postgres, one correlated subquery per populated
// attribute (never a query per row). `row_to_json` over an aliased sub-select keeps key order and
// has no argument limit (json_build_object stops at 100 arguments).
import { COLUMNS, userRoleJson } from '@cms/tables';
import type { TypeView } from './model-view.ts';
import type { PopulatePlan, Selection, SortPlan } from './query-plan.ts';
import { renderFilter } from './render-filters.ts';
import { renderHop } from './render-hops.ts';
import { and, col, q, type SqlBuilder } from './sql-builder.ts';
import { outputExpression } from './format-values.ts';
import { previewedPublishedAt } from './release-overlay.ts';

type Window = { start: number; limit: number };

/** One row of `sel.view` (aliased `alias`) as a JSON object. */
export function renderRow(b: SqlBuilder, sel: Selection, alias: string): string {
  const previewed = b.scope.release !== undefined && sel.view.kind === 'contentType' && sel.view.draftAndPublish;
  const output = (f: Selection['fields'][number]) => (previewed && f.column === COLUMNS.publishedAt ? previewedPublishedAt(alias) : outputExpression(alias, f));
  const parts = sel.fields.map((f) => `${output(f)} AS ${q(f.name)}`);
  for (const p of sel.populate) parts.push(`${renderPopulate(b, p, alias, sel.view)} AS ${q(p.key)}`);
  // Dynamic-zone items name their component after everything else (verified order).
  if (sel.component !== undefined) parts.push(`${b.param(sel.component, 'text')} AS ${q('__component')}`);
  if (sel.typename !== undefined) parts.push(`${b.param(sel.typename, 'text')} AS ${q('__typename')}`);
  const j = b.alias('j');
  return `(SELECT row_to_json(${j}) FROM (SELECT ${parts.join(', ')}) ${j})`;
}

/** ORDER BY expression of a sort item; through hops it is the first related value in that order. */
export function sortExpression(b: SqlBuilder, sort: SortPlan, alias: string, view: TypeView): string {
  if (sort.hops.length === 0) return col(alias, sort.field.column);
  const from: string[] = [];
  const where: string[] = [];
  let parent = alias;
  let parentView = view;
  for (const hop of sort.hops) {
    const h = renderHop(b, hop, parent, parentView);
    from.push(h.from);
    where.push(...h.where);
    parent = h.alias;
    parentView = hop.target;
  }
  const value = col(parent, sort.field.column);
  return `(SELECT ${value} FROM ${from.join(', ')} WHERE ${and(where)} ORDER BY ${value} ${dir(sort)} LIMIT 1)`;
}

export const dir = (sort: SortPlan): string => (sort.direction === 'desc' ? 'DESC' : 'ASC');

function renderPopulate(b: SqlBuilder, p: PopulatePlan, parent: string, parentView: TypeView): string {
  switch (p.kind) {
    case 'userRole': {
      const r = b.alias('r');
      const projects = b.alias('p');
      return `(SELECT ${userRoleJson(r)} FROM platform.roles ${r} JOIN platform.projects ${projects} ON ${col(projects, 'id')} = ${col(r, 'project_id')} ` +
        `WHERE ${col(projects, 'schema_name')} = ${b.param(b.scope.schema, 'text')} AND ${col(r, 'type')} = ${col(parent, 'role')})`;
    }
    case 'rows': {
      const hop = renderHop(b, p.hop, parent, parentView);
      const target = p.hop.target;
      const conds = [...hop.where];
      if (p.where) conds.push(renderFilter(b, p.where, hop.alias, target));
      if (p.count) {
        const j = b.alias('j');
        return `(SELECT row_to_json(${j}) FROM (SELECT count(*) AS ${q('count')} FROM ${hop.from} WHERE ${and(conds)}) ${j})`;
      }
      const order = [...p.sort.map((s) => `${sortExpression(b, s, hop.alias, target)} ${dir(s)}`), ...hop.order].join(', ');
      const row = renderRow(b, p.selection, hop.alias);
      if (p.many && p.window) {
        // The window is cut in sort order; row_number keeps that order through the aggregate.
        // (LIMIT NULL: no limit)
        const w = b.alias('w');
        const limit = b.param(p.window.map((v: Window) => (v.limit < 0 ? null : v.limit)), 'bigint');
        return `(SELECT coalesce(json_agg(${col(w, 'j')} ORDER BY ${col(w, 'n')}), '[]') FROM (SELECT ${row} AS ${q('j')}, ` +
          `row_number() OVER (ORDER BY ${order}) AS ${q('n')} FROM ${hop.from} WHERE ${and(conds)} ORDER BY ${order} ` +
          `LIMIT ${limit} OFFSET ${b.param(p.window.map((v: Window) => v.start), 'bigint')}) ${w})`;
      }
      if (p.many) return `(SELECT coalesce(json_agg(${row} ORDER BY ${order}), '[]') FROM ${hop.from} WHERE ${and(conds)})`;
      return `(SELECT ${row} FROM ${hop.from} WHERE ${and(conds)} ORDER BY ${order} LIMIT 1)`;
    }
    case 'fileUses': {
      if (p.branches.length === 0) return `'[]'::json`;
      const u = b.alias('u');
      const branches = p.branches.map((branch, i) => {
        const l = b.alias('l');
        const t = b.alias('r');
        const view = branch.selection.view;
        let from = `${b.table(branch.linkTable)} ${l} JOIN ${b.table(view.table)} ${t} ON ${col(t, COLUMNS.id)} = ${col(l, COLUMNS.sourceId)}`;
        const conds = [`${col(l, COLUMNS.fileId)} = ${col(parent, COLUMNS.id)}`, ...b.statusConditions(view, t)];
        if (branch.owner) {
          const o = b.alias('o');
          from += ` JOIN ${b.table(branch.owner.table)} ${o} ON ${col(o, COLUMNS.id)} = ${col(t, COLUMNS.ownerId)}`;
          conds.push(`${col(t, COLUMNS.ownerType)} = ${b.param(branch.owner.uid, 'text')}`, ...b.statusConditions(branch.owner, o));
        }
        return `SELECT ${i} AS ${q('k')}, ${col(l, COLUMNS.id)} AS ${q('i')}, ${renderRow(b, branch.selection, t)} AS ${q('j')} FROM ${from} WHERE ${and(conds)}`;
      });
      return `(SELECT coalesce(json_agg(${col(u, 'j')} ORDER BY ${col(u, 'k')}, ${col(u, 'i')}), '[]') FROM (${branches.join(' UNION ALL ')}) ${u})`;
    }
    case 'dynamiczone': {
      if (p.items.length === 0) return `'[]'::json`;
      const u = b.alias('u');
      const branches = p.items.map((item, i) => {
        const hop = renderHop(b, item.hop, parent, parentView);
        return `SELECT ${col(hop.alias, COLUMNS.ord)} AS ${q('o')}, ${i} AS ${q('k')}, ${col(hop.alias, COLUMNS.id)} AS ${q('i')}, ` +
          `${renderRow(b, item.selection, hop.alias)} AS ${q('j')} FROM ${hop.from} WHERE ${and(hop.where)}`;
      });
      return `(SELECT coalesce(json_agg(${col(u, 'j')} ORDER BY ${col(u, 'o')}, ${col(u, 'k')}, ${col(u, 'i')}), '[]') ` +
        `FROM (${branches.join(' UNION ALL ')}) ${u})`;
    }
  }
}
