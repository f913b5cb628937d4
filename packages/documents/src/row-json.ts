// SQL that reads a stored row back as JSON: every scalar attribute and every component / dynamic
// zone, recursively. Two styles:
// - `body`: the shape of a create body, without row ids (a password only as "set or not": see
//   below). Used to validate the whole merged document before publishing (Strapi: a publishing
//   write validates the merged document, not just the body). One statement, built once per model version.
// - `export`: an entity of Strapi's data-transfer format (exports), values as Strapi stores them,
//   component rows with their `id` (the links of relations inside components name them).
// - `history`: a content-history version (history.ts): the document as the content API returns it
//   (system fields, component rows with their `id`, no password), its own (owner-side) relations
//   as `{documentId, locale}` and media as `{id}`, at any depth. Inverse sides (`mappedBy`) are
//   the other documents' links: their writes change them, so they are theirs to record.
import { isoTimestamp, qualify, quoteIdent, quoteLiteral } from '@cms/db';
import { COLUMNS, physicalTable, type PhysicalModel, type PhysicalRelation } from '@cms/tables';
import type { Model, ScalarType } from '@cms/schema';

const q = quoteIdent;
// jsonb_build_object takes at most 100 arguments: build objects in chunks and concatenate.
const PAIRS_PER_CALL = 40;

export type RowJsonStyle = 'body' | 'export' | 'history';

function scalarExpression(alias: string, column: string, type: ScalarType, style: RowJsonStyle): string {
  const ref = `${alias}.${q(column)}`;
  if (type === 'datetime') return isoTimestamp(ref);
  if (style !== 'body') {
    // As Strapi's own export writes them: a decimal as a number, a time with milliseconds.
    if (type === 'biginteger') return `${ref}::text`;
    if (type === 'decimal') return `trim_scale(${ref})`;
    if (type === 'date') return `to_char(${ref}, 'YYYY-MM-DD')`;
    if (type === 'time') return `to_char(${ref}, 'HH24:MI:SS.MS')`;
    return ref;
  }
  // Exact text for numbers JSON would round, and a stable ISO form for timestamps.
  if (type === 'biginteger' || type === 'decimal') return `${ref}::text`;
  if (type === 'date' || type === 'time') return `${ref}::text`;
  return ref;
}

function objectOf(pairs: string[]): string {
  if (pairs.length === 0) return `'{}'::jsonb`;
  const calls: string[] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CALL) calls.push(`jsonb_build_object(${pairs.slice(i, i + PAIRS_PER_CALL).join(', ')})`);
  return calls.join(' || ');
}

class RowJsonBuilder {
  private aliases = 0;
  constructor(
    private readonly model: Model, private readonly physical: PhysicalModel, private readonly schema: string,
    private readonly style: RowJsonStyle = 'body',
  ) {}

  /** jsonb of the row `alias` of table `uid`. */
  row(uid: string, alias: string): string {
    const table = physicalTable(this.physical, uid)!;
    const owner = this.model.contentTypes[uid] ?? this.model.components[uid]!;
    const pairs: string[] = [];
    for (const [name, attr] of Object.entries(owner.attributes)) {
      const phys = table.attributes[name]!;
      if (attr.kind === 'scalar' && phys.kind === 'scalar') {
        if (attr.type === 'password' && this.style === 'history') continue;
        if (attr.type !== 'password' || this.style === 'export') pairs.push(`${quoteLiteral(name)}, ${scalarExpression(alias, phys.column, attr.type, this.style)}`);
        // A stored password is a hash, checked when it was written: only whether one is set counts
        // here (a required password stays satisfied), as a stand-in its length limits accept.
        else pairs.push(`${quoteLiteral(name)}, CASE WHEN ${alias}.${q(phys.column)} IS NULL THEN NULL ELSE ${quoteLiteral('*'.repeat(Math.max(attr.minLength ?? 1, 1)))} END`);
      } else if (phys.kind === 'component') {
        const items = this.items(uid, alias, name, [{ uid: phys.component, table: phys.table }], false);
        pairs.push(`${quoteLiteral(name)}, ${phys.repeatable ? items : `${items}->0`}`);
      } else if (phys.kind === 'dynamiczone') {
        pairs.push(`${quoteLiteral(name)}, ${this.items(uid, alias, name, phys.components, true)}`);
      } else if (this.style === 'history' && phys.kind === 'relation' && phys.side === 'owner') {
        pairs.push(`${quoteLiteral(name)}, ${this.relation(phys, alias)}`);
      } else if (this.style === 'history' && phys.kind === 'media') {
        const l = `m${++this.aliases}`;
        const ids = `SELECT jsonb_agg(jsonb_build_object('id', ${l}.${q(COLUMNS.fileId)}) ORDER BY ${l}.${q(COLUMNS.ord)}, ${l}.${q(COLUMNS.fileId)}) ` +
          `FROM ${qualify(this.schema, phys.linkTable)} ${l} WHERE ${l}.${q(COLUMNS.sourceId)} = ${alias}.${q(COLUMNS.id)}`;
        pairs.push(`${quoteLiteral(name)}, ${phys.multiple ? `coalesce((${ids}), '[]'::jsonb)` : `(${ids})->0`}`);
      }
    }
    if (this.style !== 'body' && this.physical.components[uid]) pairs.unshift(`'id', ${alias}.${q(COLUMNS.id)}`);
    if (this.style === 'history' && this.model.contentTypes[uid]) pairs.unshift(...this.systemFields(uid, alias));
    return objectOf(pairs);
  }

  /** A content type row's own fields, as the content API lists them. */
  private systemFields(uid: string, alias: string): string[] {
    const c = (column: string) => `${alias}.${q(column)}`;
    const fields = [
      `'id', ${c(COLUMNS.id)}`, `'documentId', ${c(COLUMNS.documentId)}`,
      `'createdAt', ${isoTimestamp(c(COLUMNS.createdAt))}`, `'updatedAt', ${isoTimestamp(c(COLUMNS.updatedAt))}`,
      `'publishedAt', ${isoTimestamp(c(COLUMNS.publishedAt))}`,
    ];
    if (this.model.contentTypes[uid]!.localized) fields.push(`'locale', ${c(COLUMNS.locale)}`);
    return fields;
  }

  /** An owner-side relation of row `alias` as `{documentId, locale}` items, in order. */
  private relation(rel: PhysicalRelation, alias: string): string {
    const l = `r${++this.aliases}`;
    const select = `SELECT jsonb_agg(jsonb_build_object('documentId', ${l}.${q(COLUMNS.targetDocumentId)}, 'locale', ${l}.${q(COLUMNS.targetLocale)}) ` +
      `ORDER BY ${l}.${q(COLUMNS.ord)}, ${l}.${q(COLUMNS.targetDocumentId)}) FROM ${qualify(this.schema, rel.linkTable)} ${l} WHERE ${l}.${q(COLUMNS.sourceId)} = ${alias}.${q(COLUMNS.id)}`;
    return rel.many ? `coalesce((${select}), '[]'::jsonb)` : `(${select})->0`;
  }

  /** jsonb array of the component rows owned by `alias`.`field`, in order. */
  private items(ownerUid: string, alias: string, field: string, components: Array<{ uid: string; table: string }>, zone: boolean): string {
    const selects = components.map((c) => {
      const a = `c${++this.aliases}`;
      const json = zone ? `${this.row(c.uid, a)} || jsonb_build_object('__component', ${quoteLiteral(c.uid)})` : this.row(c.uid, a);
      return `SELECT ${a}.${q(COLUMNS.ord)} AS ord, ${a}.${q(COLUMNS.id)} AS id, ${json} AS j FROM ${qualify(this.schema, c.table)} ${a} ` +
        `WHERE ${a}.${q(COLUMNS.ownerType)} = ${quoteLiteral(ownerUid)} AND ${a}.${q(COLUMNS.ownerId)} = ${alias}.${q(COLUMNS.id)} ` +
        `AND ${a}.${q(COLUMNS.ownerField)} = ${quoteLiteral(field)}`;
    });
    const x = `x${++this.aliases}`;
    return `coalesce((SELECT jsonb_agg(${x}.j ORDER BY ${x}.ord, ${x}.id) FROM (${selects.join(' UNION ALL ')}) ${x}), '[]'::jsonb)`;
  }
}

/** jsonb of row `alias` of content type `uid` (declared attributes only), in `style`. */
export function rowJsonExpression(model: Model, physical: PhysicalModel, schema: string, uid: string, alias: string, style: RowJsonStyle): string {
  return new RowJsonBuilder(model, physical, schema, style).row(uid, alias);
}

const cache = new WeakMap<PhysicalModel, Map<string, string>>();

/** `SELECT <row json>::text FROM <content type table> t WHERE t.id = $1`, cached per model version and schema. */
export function rowJsonQuery(model: Model, physical: PhysicalModel, schema: string, uid: string): string {
  let bySchema = cache.get(physical);
  if (!bySchema) cache.set(physical, (bySchema = new Map()));
  const key = `${schema}\0${uid}`;
  let text = bySchema.get(key);
  if (!text) {
    const table = physical.contentTypes[uid]!;
    text = `SELECT (${rowJsonExpression(model, physical, schema, uid, 't', 'body')})::text FROM ${qualify(schema, table.table)} t WHERE t.${q(COLUMNS.id)} = $1`;
    bySchema.set(key, text);
  }
  return text;
}
