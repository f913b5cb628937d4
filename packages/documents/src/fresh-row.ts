// A new row and its direct children in ONE statement: the row's INSERT is a CTE, and the INSERTs
// of its single component items and of its owner-side links (targets named by documentId) read
// its id from it. A create with a component and two relations thus takes one round trip where
// it took four. What needs statements of its own first (existing rows to check or delete,
// targets to resolve) or an order among rows of one table (several items in one component
// table, dynamic zones, media) is written afterwards by `writeRowChildren`, as before.
//
// A created document published at once (draft & publish) whose children all fit in that
// statement gets its draft and published rows from it together — the same rows, ids in the same
// order and link positions publishing's copy would give — instead of a copy statement after.
import { rows, qualify, quoteIdent } from '@cms/db';
import { COLUMNS, physicalTable } from '@cms/tables';
import type { RelationAttribute } from '@cms/schema';
import type { ComponentItemWrite, RowWrite } from './write-input.ts';
import type { SourceVersion, WriteContext } from './write-context.ts';
import { bundledLinks, type BundledLinks } from './relation-writes.ts';
import { scalarAssignments, writeRowChildren } from './row-writes.ts';

const q = quoteIdent;

/**
 * The row's INSERT without RETURNING (`INSERT INTO … (…) VALUES (…)[, (…)]`), its values ($1…$n)
 * and how many rows it inserts (1, or 2: a draft and its published version, in id order).
 */
export interface RowInsert {
  text: string;
  values: unknown[];
  rows: 1 | 2;
}

/** The children of a row that its INSERT statement writes too. */
export interface RowBundle {
  /** Component attributes written by it (their single item, or nothing for null). */
  items: Array<{ name: string; item: ComponentItemWrite }>;
  links: Array<{ name: string; links: BundledLinks }>;
  done: Set<string>;
  /** Every child of the row is in the bundle and has no children of its own. */
  complete: boolean;
}

const hasChildren = (row: RowWrite) => row.components.size + row.dynamicZones.size + row.relations.size + row.media.size > 0;

/** Which children of the new `row` of `uid` can be written by the row's own statement. */
export function rowBundle(ctx: WriteContext, uid: string, row: RowWrite, source: SourceVersion): RowBundle {
  const table = physicalTable(ctx.physical, uid)!;
  const owner = ctx.model.contentTypes[uid] ?? ctx.model.components[uid]!;
  const bundle: RowBundle = { items: [], links: [], done: new Set(), complete: row.dynamicZones.size === 0 && row.media.size === 0 };
  // Single items whose table no other component attribute of the row writes (ids in item order).
  const tableUses = new Map<string, number>();
  for (const [name] of row.components) {
    const phys = table.attributes[name];
    if (phys?.kind === 'component') tableUses.set(phys.table, (tableUses.get(phys.table) ?? 0) + 1);
  }
  for (const [name, list] of row.components) {
    const phys = table.attributes[name];
    if (phys?.kind !== 'component' || tableUses.get(phys.table) !== 1 || list.length > 1 || list.some((i) => i.id !== null)) {
      bundle.complete = false;
      continue;
    }
    bundle.done.add(name);
    const item = list[0];
    if (!item) continue;
    if (hasChildren(item.row)) bundle.complete = false;
    bundle.items.push({ name, item });
  }
  for (const [name, write] of row.relations) {
    const phys = table.attributes[name];
    const bundled = phys?.kind === 'relation' && phys.side === 'owner'
      ? bundledLinks(ctx, phys, owner.attributes[name] as RelationAttribute, source, write)
      : null;
    if (!bundled) {
      bundle.complete = false;
      continue;
    }
    bundle.done.add(name);
    bundle.links.push({ name, links: bundled });
  }
  return bundle;
}

/**
 * Insert the row(s) of `uid` with the children in `bundle`, then write the others (of a single
 * row: two rows need a complete bundle). Returns the new rows' ids, in id order.
 */
export async function insertRowWithChildren(
  ctx: WriteContext, uid: string, insert: RowInsert, row: RowWrite, source: SourceVersion, bundle: RowBundle,
): Promise<string[]> {
  if (insert.rows > 1 && !bundle.complete) throw new Error('several rows need all of their children in one statement');
  const values = [...insert.values];
  const param = (value: unknown) => `$${values.push(value)}`;
  const id = `r.${q(COLUMNS.id)}`;
  const ctes = [`r AS (${insert.text} RETURNING ${q(COLUMNS.id)})`];
  const outputs = [`(SELECT array_agg(${q(COLUMNS.id)}::text ORDER BY ${q(COLUMNS.id)}) FROM r) AS ids`];
  const itemKeys: string[] = [];
  for (const { name, item } of bundle.items) {
    const component = ctx.physical.components[item.component]!;
    const key = `c${ctes.length}`;
    const { columns, expressions } = scalarAssignments(component, item.row, values);
    const cols = [...columns, ...[COLUMNS.ownerType, COLUMNS.ownerId, COLUMNS.ownerField, COLUMNS.ord].map(q)];
    const exprs = [...expressions, param(uid), id, param(name), `${param(0)}::int`];
    // One item per row, inserted in row id order.
    ctes.push(`${key} AS (INSERT INTO ${qualify(ctx.schema, component.table)} (${cols.join(', ')}) SELECT ${exprs.join(', ')} FROM r ORDER BY ${id} RETURNING ${q(COLUMNS.id)})`);
    outputs.push(`(SELECT array_agg(${q(COLUMNS.id)}::text ORDER BY ${q(COLUMNS.id)}) FROM ${key}) AS ${key}`);
    itemKeys.push(key);
  }
  const linkKeys: Array<string | null> = [];
  for (const { links } of bundle.links) {
    const text = links.insert('r', id, param);
    if (text === null) {
      linkKeys.push(null);
      continue;
    }
    const key = `k${ctes.length}`;
    ctes.push(`${key} AS (${text})`);
    outputs.push(`(SELECT count(*) FROM ${key})::int AS ${key}`);
    linkKeys.push(key);
  }

  const [out] = await rows<Record<string, string[] | number>>(ctx.tx, `WITH ${ctes.join(',\n')}\nSELECT ${outputs.join(', ')}`, values);
  const ids = out!.ids as string[];
  // In writeRowChildren's order: components (with their own children), then relations.
  for (const [i, { item }] of bundle.items.entries()) {
    if (hasChildren(item.row)) await writeRowChildren(ctx, item.component, (out![itemKeys[i]!] as string[])[0]!, item.row, source, true);
  }
  for (const [i, { links }] of bundle.links.entries()) {
    const key = linkKeys[i];
    if (key) await links.check(Number(out![key]) / ids.length);
  }
  if (!bundle.complete) await writeRowChildren(ctx, uid, ids[0]!, row, source, true, bundle.done);
  return ids;
}
