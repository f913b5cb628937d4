// Where a file is used: the document versions whose media attributes link it, directly or in a
// component (at any nesting depth, through dynamic zones too). Read by the dashboard to warn
// before a file in use is deleted. Drafts and published versions are both listed: deleting the
// file empties the field in each.
import { qualify, quoteIdent as q, rows, type Db } from '@cms/db';
import { COLUMNS, type PhysicalContentType, type PhysicalModel, type PhysicalTable } from '@cms/tables';

export interface FileUsage {
  /** The content type's uid. */
  uid: string;
  documentId: string;
  locale: string | null;
  status: 'draft' | 'published';
  /** The media attribute, as a dotted path through components (`seo.image`, `blocks.picture`). */
  field: string;
  /** The document's main field (its first string, uid or email attribute), else its documentId. */
  label: string;
}

// Components nest a few levels at most; this bounds the joins of a pathological model.
const MAX_DEPTH = 6;

/** A way from a row of `table` up to the content type row that owns it. */
interface OwnerChain {
  contentType: PhysicalContentType;
  /** Component tables from the link's source up to the content type's direct child, with their uids. */
  components: Array<{ uid: string; table: string }>;
}

function ownerChains(physical: PhysicalModel, source: PhysicalTable, depth = 0): OwnerChain[] {
  if (source.kind === 'contentType') return [{ contentType: source, components: [] }];
  if (depth >= MAX_DEPTH) return [];
  const parents = [...Object.values(physical.contentTypes), ...Object.values(physical.components)]
    .filter((owner) => owner.childComponents.some((c) => c.uid === source.uid));
  return parents.flatMap((parent) => ownerChains(physical, parent, depth + 1)
    .map((chain) => ({ contentType: chain.contentType, components: [{ uid: source.uid, table: source.table }, ...chain.components] })));
}

function labelColumn(type: PhysicalContentType): string | null {
  return type.scalars.find((s) => s.type === 'string' || s.type === 'uid' || s.type === 'email')?.column ?? null;
}

// Byte order, whatever the database's collation: the same order on every deployment.
const BYTE_ORDER = ['uid', 'label', '"documentId"', 'locale', 'status', 'field'].map((c) => `${c} COLLATE "C"`).join(', ');

/** Every use of file `fileId`, sorted by type, label and version. */
export async function fileUsages(db: Db, schema: string, physical: PhysicalModel, fileId: string): Promise<FileUsage[]> {
  const values: unknown[] = [fileId];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}::text`;
  };
  const branches: string[] = [];
  for (const link of Object.values(physical.linkTables)) {
    if (link.kind !== 'media') continue;
    const source = physical.contentTypes[link.sourceUid] ?? physical.components[link.sourceUid];
    if (!source) continue;
    for (const chain of ownerChains(physical, source)) {
      const joins: string[] = [];
      let below = 'l';
      let belowColumn: string = COLUMNS.sourceId;
      chain.components.forEach((component, i) => {
        joins.push(`JOIN ${qualify(schema, component.table)} c${i} ON c${i}.${q(COLUMNS.id)} = ${below}.${q(belowColumn)}`);
        below = `c${i}`;
        belowColumn = COLUMNS.ownerId;
      });
      const ct = chain.contentType;
      joins.push(`JOIN ${qualify(schema, ct.table)} t ON t.${q(COLUMNS.id)} = ${below}.${q(belowColumn)}`);
      // Each component row belongs to the table above it by uid and attribute.
      const owners = chain.components.map((_, i) => `c${i}.${q(COLUMNS.ownerType)} = ${bind(chain.components[i + 1]?.uid ?? ct.uid)}`);
      const fieldParts = [...chain.components.map((_, i) => `c${i}.${q(COLUMNS.ownerField)}`).reverse(), bind(link.attribute)];
      const label = labelColumn(ct);
      const status = ct.draftAndPublish ? `CASE WHEN t.${q(COLUMNS.publishedAt)} IS NULL THEN 'draft' ELSE 'published' END` : `'published'`;
      branches.push(`SELECT ${bind(ct.uid)} AS uid, t.${q(COLUMNS.documentId)} AS "documentId", t.${q(COLUMNS.locale)} AS locale,
          ${status} AS status, concat_ws('.', ${fieldParts.join(', ')}) AS field,
          ${label ? `COALESCE(NULLIF(t.${q(label)}::text, ''), t.${q(COLUMNS.documentId)})` : `t.${q(COLUMNS.documentId)}`} AS label
        FROM ${qualify(schema, link.name)} l ${joins.join(' ')}
        WHERE l.${q(COLUMNS.fileId)} = $1${owners.map((o) => ` AND ${o}`).join('')}`);
    }
  }
  if (branches.length === 0) return [];
  return rows<FileUsage>(db,
    `SELECT * FROM (SELECT DISTINCT * FROM (${branches.join(' UNION ALL ')}) u) d ORDER BY ${BYTE_ORDER}`, values);
}
