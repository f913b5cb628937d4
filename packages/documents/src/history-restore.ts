// Restoring a content-history version (management API § Content history): the version's content
// becomes the document's draft through the normal writer (validation, relations, webhooks, the
// restore's own version), so a published document becomes "modified"; a type without draft &
// publish is updated. The write body is built from the version against the CURRENT model:
// attributes that no longer exist (or changed type) are ignored at any depth, attributes the
// version does not have keep their current value, dynamic-zone items of components no longer
// allowed are left out, and relation targets and files that no longer exist are left out and
// reported. A deleted document is created again with its own documentId.
import { column, qualify, quoteIdent, rows } from '@cms/db';
import { ValidationError } from '@cms/errors';
import { COLUMNS, physicalTable, type PhysicalRelation } from '@cms/tables';
import type { Attribute, Model, ScalarType } from '@cms/schema';
import { keepsHistory } from './history.ts';
import { isDict } from './scalar-input.ts';
import { createDocument, updateDocument, type DocumentStore, type WriteResult } from './writer.ts';

const q = quoteIdent;

/** What a restore needs of a version. */
export interface RestorableVersion {
  contentType: string;
  relatedDocumentId: string;
  locale: string | null;
  data: Record<string, unknown>;
  /** The type's attributes when the version was recorded. */
  schema: Record<string, unknown>;
}

/** A relation target (`documentId`) or a file (`id`) the version names that no longer exists, at `path` of its data. */
export type DroppedReference = { path: string; documentId: string } | { path: string; id: number };

export interface RestoreResult extends WriteResult {
  dropped: DroppedReference[];
}

type Dict = Record<string, unknown>;
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]);

/** A relation target named by the version, waiting for the existence check. */
interface PendingTarget {
  path: string;
  documentId: string;
  /** The target version's locale on a localized target type, else null. */
  locale: string | null;
}

/** Where a relation's or media attribute's checked list goes in the body. */
interface RelationSlot {
  body: Dict;
  name: string;
  relation: PhysicalRelation;
  many: boolean;
  targets: PendingTarget[];
}

interface MediaSlot {
  body: Dict;
  name: string;
  many: boolean;
  files: Array<{ path: string; id: string }>;
}

// Scalar types a value of another type of the same group still fits (validation decides the rest).
const SCALAR_GROUPS: ReadonlyArray<readonly ScalarType[]> = [
  ['string', 'text', 'richtext', 'email', 'uid', 'enumeration'],
  ['integer', 'biginteger', 'float', 'decimal'],
];

/** Does the attribute recorded with the version (`was`) hold values the current attribute still takes? */
function stillFits(was: unknown, attr: Attribute): boolean {
  if (!isDict(was)) return true;
  switch (attr.kind) {
    case 'scalar':
      return was.type === attr.type || SCALAR_GROUPS.some((g) => g.includes(attr.type) && g.includes(was.type as ScalarType));
    case 'relation':
      return was.type === 'relation' && was.target === attr.target;
    case 'media':
      return was.type === 'media';
    case 'component':
      return was.type === 'component' && was.component === attr.component;
    case 'dynamiczone':
      return was.type === 'dynamiczone';
  }
}

class BodyBuilder {
  readonly relations: RelationSlot[] = [];
  readonly media: MediaSlot[] = [];
  constructor(private readonly model: Model, private readonly store: DocumentStore, private readonly sourceLocale: string | null) {}

  /**
   * The body of one row (`uid`: a content type or a component) from its data in the version;
   * `recorded`: the attributes the version was recorded with (top level only: components'
   * schemas are not kept with versions).
   */
  row(uid: string, data: Dict, path: string, recorded?: Dict): Dict {
    const owner = this.model.contentTypes[uid] ?? this.model.components[uid]!;
    const table = physicalTable(this.store.physical, uid)!;
    const body: Dict = {};
    for (const [name, attr] of Object.entries(owner.attributes)) {
      // Absent from the version (added since): the current value stays.
      if (!Object.hasOwn(data, name) || data[name] === undefined) continue;
      if (recorded && !stillFits(recorded[name], attr)) continue;
      const value = data[name];
      const at = `${path}${name}`;
      switch (attr.kind) {
        case 'scalar':
          // Versions hold no passwords: the current one stays.
          if (attr.type !== 'password') body[name] = value;
          break;
        case 'component': {
          const items = asList(value).filter(isDict);
          const component = attr.component;
          if (attr.repeatable) body[name] = items.map((item, i) => this.row(component, item, `${at}.${Array.isArray(value) ? i : 0}.`));
          else body[name] = items.length ? this.row(component, items[0]!, `${at}.`) : null;
          break;
        }
        case 'dynamiczone': {
          const items: Dict[] = [];
          asList(value).forEach((item, i) => {
            const c = isDict(item) ? item.__component : undefined;
            // A component the zone no longer allows: that item is left out.
            if (typeof c !== 'string' || !attr.components.includes(c) || !this.model.components[c]) return;
            items.push({ __component: c, ...this.row(c, item as Dict, `${at}.${i}.`) });
          });
          body[name] = items;
          break;
        }
        case 'relation': {
          const phys = table.attributes[name];
          if (phys?.kind !== 'relation') break;
          const targets: PendingTarget[] = [];
          asList(value).forEach((item, i) => {
            if (!isDict(item) || typeof item.documentId !== 'string') return;
            const locale = !phys.targetLocalized ? null : typeof item.locale === 'string' ? item.locale : this.sourceLocale ?? this.store.defaultLocale;
            targets.push({ path: attr.many && Array.isArray(value) ? `${at}.${i}` : at, documentId: item.documentId, locale });
          });
          this.relations.push({ body, name, relation: phys, many: attr.many, targets: attr.many ? targets : targets.slice(0, 1) });
          break;
        }
        case 'media': {
          const files = asList(value).flatMap((item, i) => {
            const id = isDict(item) ? item.id : item;
            return (typeof id === 'number' || typeof id === 'string') && /^\d{1,15}$/.test(String(id))
              ? [{ path: attr.multiple && Array.isArray(value) ? `${at}.${i}` : at, id: String(id) }] : [];
          });
          this.media.push({ body, name, many: attr.multiple, files: attr.multiple ? files : files.slice(0, 1) });
          break;
        }
      }
    }
    return body;
  }
}

/** Keys `documentId\0locale` of the targets that exist, one statement per target table. */
async function existingTargets(store: DocumentStore, slots: readonly RelationSlot[]): Promise<Set<string>> {
  const byTable = new Map<string, { localized: boolean; ids: Set<string> }>();
  for (const slot of slots) {
    const entry = byTable.get(slot.relation.targetTable) ?? { localized: slot.relation.targetLocalized, ids: new Set<string>() };
    for (const t of slot.targets) entry.ids.add(t.documentId);
    byTable.set(slot.relation.targetTable, entry);
  }
  const found = new Set<string>();
  await store.pool.transaction(async (tx) => {
    for (const [table, { localized, ids }] of byTable) {
      if (ids.size === 0) continue;
      // End users have no locale column; a target type without i18n matches by documentId alone.
      const locale = localized ? q(COLUMNS.locale) : 'NULL::text';
      const list = await rows<{ d: string; l: string | null }>(tx,
        `SELECT DISTINCT ${q(COLUMNS.documentId)} AS d, ${locale} AS l FROM ${qualify(store.schema, table)} WHERE ${q(COLUMNS.documentId)} = ANY($1::text[])`, [[...ids]]);
      for (const r of list) found.add(`${table}\0${r.d}\0${r.l ?? ''}`);
    }
  });
  return found;
}

async function existingFiles(store: DocumentStore, slots: readonly MediaSlot[]): Promise<Set<string>> {
  const ids = [...new Set(slots.flatMap((s) => s.files.map((f) => f.id)))];
  if (ids.length === 0) return new Set();
  return store.pool.transaction(async (tx) => new Set(await column(tx,
    `SELECT ${q(COLUMNS.id)}::text FROM ${qualify(store.schema, store.physical.filesTable)} WHERE ${q(COLUMNS.id)} = ANY($1::bigint[])`, [ids])));
}

/** Fill the relation and media attributes of the body with what still exists; the rest is reported. */
async function checkReferences(store: DocumentStore, builder: BodyBuilder): Promise<DroppedReference[]> {
  const dropped: DroppedReference[] = [];
  const targets = await existingTargets(store, builder.relations);
  for (const slot of builder.relations) {
    const kept = slot.targets.filter((t) => {
      const exists = targets.has(`${slot.relation.targetTable}\0${t.documentId}\0${t.locale ?? ''}`);
      if (!exists) dropped.push({ path: t.path, documentId: t.documentId });
      return exists;
    });
    slot.body[slot.name] = { set: kept.map((t) => (t.locale === null ? { documentId: t.documentId } : { documentId: t.documentId, locale: t.locale })) };
  }
  const files = await existingFiles(store, builder.media);
  for (const slot of builder.media) {
    const kept = slot.files.filter((f) => {
      if (!files.has(f.id)) dropped.push({ path: f.path, id: Number(f.id) });
      return files.has(f.id);
    }).map((f) => Number(f.id));
    slot.body[slot.name] = slot.many ? kept : kept[0] ?? null;
  }
  return dropped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Which document the restore writes to: its own, the single type's current one, or none (created again). */
async function targetDocument(store: DocumentStore, table: string, documentId: string, single: boolean): Promise<string | null> {
  return store.pool.transaction(async (tx) => {
    const [own] = await column(tx, `SELECT ${q(COLUMNS.documentId)} FROM ${qualify(store.schema, table)} WHERE ${q(COLUMNS.documentId)} = $1 LIMIT 1`, [documentId]);
    if (own !== undefined || !single) return own ?? null;
    // A single type has one document: the version's content goes to the one it has now.
    const [current] = await column(tx, `SELECT ${q(COLUMNS.documentId)} FROM ${qualify(store.schema, table)} ORDER BY ${q(COLUMNS.id)} LIMIT 1`);
    return current ?? null;
  });
}

/**
 * Write `version` as its document's draft (the published version on a type without draft &
 * publish), in the version's locale (`localeCodes`: the project's locales, which it must still
 * be one of). The write records its own version with `store.history`.
 */
export async function restoreVersion(store: DocumentStore, version: RestorableVersion, localeCodes: ReadonlySet<string>): Promise<RestoreResult> {
  const uid = version.contentType;
  const type = store.model.contentTypes[uid];
  const ct = store.physical.contentTypes[uid];
  if (!type || !ct || !keepsHistory(uid)) {
    throw new ValidationError(`The content type ${uid} no longer exists: this version cannot be restored`, { contentType: uid });
  }
  // A type localized since the version was recorded: the version becomes the default locale's.
  const locale = type.localized ? version.locale ?? store.defaultLocale : store.defaultLocale;
  if (type.localized && !localeCodes.has(locale)) {
    throw new ValidationError(`The locale ${locale} of this version is no longer one of the project's locales`, { locale });
  }
  const builder = new BodyBuilder(store.model, store, type.localized ? locale : null);
  const data = builder.row(uid, version.data, '', isDict(version.schema) ? version.schema : undefined);
  const dropped = await checkReferences(store, builder);
  const status = ct.draftAndPublish ? 'draft' : 'published';
  const base = { uid, data, locale, status, canFind: () => true } as const;
  const existing = await targetDocument(store, ct.table, version.relatedDocumentId, type.kind === 'singleType');
  const written = existing === null
    ? await createDocument(store, base, version.relatedDocumentId)
    : await updateDocument(store, { ...base, documentId: existing, canCreateLocalization: true });
  return { ...written, dropped };
}
