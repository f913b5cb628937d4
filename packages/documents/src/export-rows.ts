// A project's content as Strapi's data-transfer format holds it (exports, docs/export.md): every
// version row of every content type as an entity (components inline, with their ids), and every
// owner-side relation and media link as a link between two rows. Read page by page (keyset on
// ids; links through a cursor), so a project of any size is read in bounded memory; run inside
// one REPEATABLE READ transaction by the caller (a consistent snapshot; cursors need one).
import { cursorRows, isoTimestamp, qualify, quoteIdent, rows, type Db } from '@cms/db';
import { COLUMNS, type PhysicalModel, type PhysicalRelationLink, type PhysicalMediaLink } from '@cms/tables';
import { USERS_UID, type Model, type RelationAttribute } from '@cms/schema';
import { rowJsonExpression } from './row-json.ts';

const q = quoteIdent;
const PAGE = 500;
/** Strapi's uid of the media library's files (the left side of every media link). */
const FILE_UID = 'plugin::upload.file';

export interface ExportContext {
  db: Db;
  schema: string;
  model: Model;
  physical: PhysicalModel;
}

/** One line of `entities/`: `data` is JSON text (Postgres builds it; it is written as it is). */
export interface EntityLine {
  type: string;
  id: string;
  data: string;
}

export interface LinkEnd {
  type: string;
  ref: number;
  field?: string;
  pos?: number;
}

/** One line of `links/`. */
export interface LinkLine {
  kind: 'relation.basic' | 'relation.circular' | 'relation.morph';
  relation: string;
  left: LinkEnd;
  right: LinkEnd;
}

/** Every version row of content type `uid`, in id order. */
export async function* contentEntities(ctx: ExportContext, uid: string): AsyncGenerator<EntityLine> {
  const table = ctx.physical.contentTypes[uid]!;
  const t = (c: string) => `t.${q(c)}`;
  const system = `jsonb_build_object('createdAt', ${isoTimestamp(t(COLUMNS.createdAt))}, 'updatedAt', ${isoTimestamp(t(COLUMNS.updatedAt))}, ` +
    `'publishedAt', CASE WHEN ${t(COLUMNS.publishedAt)} IS NULL THEN NULL ELSE ${isoTimestamp(t(COLUMNS.publishedAt))} END, 'locale', ${t(COLUMNS.locale)})`;
  const text = `SELECT ${t(COLUMNS.id)}::text AS id, (jsonb_build_object('documentId', ${t(COLUMNS.documentId)}) || ` +
    `${rowJsonExpression(ctx.model, ctx.physical, ctx.schema, uid, 't', 'export')} || ${system})::text AS data ` +
    `FROM ${qualify(ctx.schema, table.table)} t WHERE ${t(COLUMNS.id)} > $1 ORDER BY ${t(COLUMNS.id)} LIMIT ${PAGE}`;
  for (let after = '0'; ;) {
    const page = await rows<{ id: string; data: string }>(ctx.db, text, [after]);
    for (const row of page) yield { type: uid, id: row.id, data: row.data };
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.id;
  }
}

/** Every link of the model's owner-side relations and media fields (in components too). */
export async function* contentLinks(ctx: ExportContext): AsyncGenerator<LinkLine> {
  for (const link of Object.values(ctx.physical.linkTables)) {
    if (link.kind === 'media') yield* mediaLinks(ctx, link);
    else yield* relationLinks(ctx, link);
  }
}

interface LinkRow {
  source: string;
  doc: string;
  locale: string | null;
  pos: number | null;
  inv: number | null;
}

function attributeOf(model: Model, uid: string, name: string) {
  return (model.contentTypes[uid] ?? model.components[uid])?.attributes[name];
}

async function* relationLinks(ctx: ExportContext, link: PhysicalRelationLink): AsyncGenerator<LinkLine> {
  const attr = attributeOf(ctx.model, link.sourceUid, link.attribute) as RelationAttribute;
  const inverse = attr.inversedBy ? attributeOf(ctx.model, link.target, attr.inversedBy) as RelationAttribute | undefined : undefined;
  const l = (c: string) => `l.${q(c)}`;
  // Positions from 1 on each side (Strapi's `left.pos`, and `right.pos` where the inverse side is
  // a list), computed once over the whole table by the cursor's query.
  const pos = attr.many ? `row_number() OVER (PARTITION BY ${l(COLUMNS.sourceId)} ORDER BY ${l(COLUMNS.ord)}, ${l(COLUMNS.id)})` : 'NULL';
  const inv = inverse?.many
    ? `row_number() OVER (PARTITION BY ${l(COLUMNS.targetDocumentId)}, ${l(COLUMNS.targetLocale)} ORDER BY ${l(COLUMNS.invOrd)}, ${l(COLUMNS.id)})`
    : 'NULL';
  const text = `SELECT ${l(COLUMNS.sourceId)}::text AS source, ${l(COLUMNS.targetDocumentId)} AS doc, ${l(COLUMNS.targetLocale)} AS locale, ` +
    `${pos}::int AS pos, ${inv}::int AS inv FROM ${qualify(ctx.schema, link.name)} l ORDER BY ${l(COLUMNS.sourceId)}, ${l(COLUMNS.ord)}, ${l(COLUMNS.id)}`;
  const kind = link.sourceUid === link.target ? 'relation.circular' : 'relation.basic';
  for await (const page of cursorRows<LinkRow>(ctx.db, text, [], PAGE)) {
    const drafts = await draftRows(ctx, link.sourceUid, [...new Set(page.map((r) => r.source))]);
    const targets = await targetRows(ctx, link, [...new Set(page.map((r) => r.doc))]);
    for (const row of page) {
      const versions = targets.get(`${row.doc}\0${link.targetLocalized ? row.locale ?? '' : ''}`);
      // A draft links to its target's draft and a published version to the published one, as in
      // Strapi; a target with only the other version (or without versions) is linked as it is.
      const draft = drafts.get(row.source) ?? false;
      const target = versions && (draft ? versions.draft ?? versions.published : versions.published ?? versions.draft);
      if (!target) continue;
      const left: LinkEnd = { type: link.sourceUid, field: link.attribute, ref: Number(row.source) };
      if (row.pos !== null) left.pos = row.pos;
      const right: LinkEnd = { type: link.target, ref: Number(target) };
      if (inverse) right.field = attr.inversedBy;
      if (row.inv !== null) right.pos = row.inv;
      yield { kind, relation: link.relation, left, right };
    }
  }
}

async function* mediaLinks(ctx: ExportContext, link: PhysicalMediaLink): AsyncGenerator<LinkLine> {
  const l = (c: string) => `l.${q(c)}`;
  const text = `SELECT ${l(COLUMNS.sourceId)}::text AS source, ${l(COLUMNS.fileId)}::text AS file, ` +
    `row_number() OVER (PARTITION BY ${l(COLUMNS.sourceId)} ORDER BY ${l(COLUMNS.ord)}, ${l(COLUMNS.id)})::int AS pos ` +
    `FROM ${qualify(ctx.schema, link.name)} l ORDER BY ${l(COLUMNS.sourceId)}, ${l(COLUMNS.ord)}, ${l(COLUMNS.id)}`;
  for await (const page of cursorRows<{ source: string; file: string; pos: number }>(ctx.db, text, [], PAGE)) {
    for (const row of page) {
      yield {
        kind: 'relation.morph', relation: 'morphToMany',
        left: { type: FILE_UID, field: 'related', ref: Number(row.file) },
        right: { type: link.sourceUid, field: link.attribute, ref: Number(row.source), pos: row.pos },
      };
    }
  }
}

/**
 * Whether each row is a draft: a content type's row by its published_at, a component row by the
 * content row that (through any number of components) owns it.
 */
async function draftRows(ctx: ExportContext, uid: string, ids: string[]): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  // Rows of `uid` to resolve, each standing for the source ids it owns.
  let level = new Map<string, Map<string, string[]>>([[uid, new Map(ids.map((id) => [id, [id]]))]]);
  for (let depth = 0; level.size > 0 && depth < 64; depth++) {
    const next = new Map<string, Map<string, string[]>>();
    for (const [type, byId] of level) {
      const ct = ctx.physical.contentTypes[type];
      if (ct) {
        const found = await rows<{ id: string; draft: boolean }>(ctx.db,
          `SELECT ${q(COLUMNS.id)}::text AS id, ${q(COLUMNS.publishedAt)} IS NULL AS draft FROM ${qualify(ctx.schema, ct.table)} WHERE ${q(COLUMNS.id)} = ANY($1::bigint[])`,
          [[...byId.keys()]]);
        for (const row of found) for (const source of byId.get(row.id)!) out.set(source, row.draft);
        continue;
      }
      const component = ctx.physical.components[type];
      if (!component) continue;
      const owners = await rows<{ id: string; type: string; owner: string }>(ctx.db,
        `SELECT ${q(COLUMNS.id)}::text AS id, ${q(COLUMNS.ownerType)} AS type, ${q(COLUMNS.ownerId)}::text AS owner ` +
        `FROM ${qualify(ctx.schema, component.table)} WHERE ${q(COLUMNS.id)} = ANY($1::bigint[])`, [[...byId.keys()]]);
      for (const row of owners) {
        let ofType = next.get(row.type);
        if (!ofType) next.set(row.type, (ofType = new Map()));
        ofType.set(row.owner, [...(ofType.get(row.owner) ?? []), ...byId.get(row.id)!]);
      }
    }
    level = next;
  }
  return out;
}

/** The version rows of the targets named (`documentId\0locale` → its draft and published row ids). */
async function targetRows(ctx: ExportContext, link: PhysicalRelationLink, documentIds: string[]) {
  const out = new Map<string, { draft?: string; published?: string }>();
  const table = qualify(ctx.schema, link.targetTable);
  const locale = link.target === USERS_UID ? 'NULL' : q(COLUMNS.locale);
  const found = await rows<{ id: string; doc: string; locale: string | null; draft: boolean }>(ctx.db,
    `SELECT ${q(COLUMNS.id)}::text AS id, ${q(COLUMNS.documentId)} AS doc, ${locale} AS locale, ${q(COLUMNS.publishedAt)} IS NULL AS draft ` +
    `FROM ${table} WHERE ${q(COLUMNS.documentId)} = ANY($1::text[])`, [documentIds]);
  for (const row of found) {
    const key = `${row.doc}\0${link.targetLocalized ? row.locale ?? '' : ''}`;
    const versions = out.get(key) ?? {};
    if (row.draft) versions.draft = row.id;
    else versions.published = row.id;
    out.set(key, versions);
  }
  return out;
}
