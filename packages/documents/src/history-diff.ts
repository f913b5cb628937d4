// The changes between two contents of one document (two versions, or a version and the current
// state), as the dashboard highlights them: one entry per changed attribute path. Components and
// dynamic zones are compared field by field (`seo.metaTitle`, `sections.1.title`); everything
// else — scalars, rich text blocks, json, relation lists, media — as a whole value. System
// fields and component row ids are not content: a restore or a publish renews them.
// Pure: the attributes come from the versions' schemas and the model's components.
import { isDict } from './scalar-input.ts';

/** A schema.json attribute as stored (`type` plus its options). */
export type RawAttribute = Record<string, unknown>;

export interface DiffSchema {
  /** The content type's attributes (the versions' `schema`, merged). */
  attributes: Record<string, RawAttribute>;
  /** Components' attributes by uid; a component missing here is compared key by key. */
  components: Record<string, Record<string, RawAttribute>>;
}

export interface HistoryChange {
  /** Dotted: `title`, `seo.metaTitle`, `sections.1`, `sections.1.title`. */
  path: string;
  /** The value in the content compared with (`against`); null when absent there. */
  before: unknown;
  /** The value in the version; null when absent there. */
  after: unknown;
}

/** A document's own fields, not its content. */
const SYSTEM_FIELDS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);

type Dict = Record<string, unknown>;

/** Deep equality of JSON values (object key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isDict(a)) {
    if (!isDict(b)) return false;
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

class Differ {
  readonly changes: HistoryChange[] = [];
  constructor(private readonly schema: DiffSchema) {}

  private add(path: string, before: unknown, after: unknown): void {
    this.changes.push({ path, before: before ?? null, after: after ?? null });
  }

  /** The fields of one object level: the declared attributes in order, then any other key either side has. */
  fields(before: Dict, after: Dict, attributes: Record<string, RawAttribute> | undefined, prefix: string, skip: ReadonlySet<string>): void {
    const names = [...Object.keys(attributes ?? {})];
    for (const key of [...Object.keys(before), ...Object.keys(after)]) if (!names.includes(key)) names.push(key);
    for (const name of names) {
      if (skip.has(name)) continue;
      this.value(`${prefix}${name}`, before[name] ?? null, after[name] ?? null, attributes?.[name]);
    }
  }

  private value(path: string, before: unknown, after: unknown, attr: RawAttribute | undefined): void {
    const type = attr?.type;
    if (type === 'component' && typeof attr!.component === 'string') return this.component(path, before, after, attr!.component, attr!.repeatable === true);
    if (type === 'dynamiczone') return this.zone(path, before, after);
    // No targets is no targets, whether the list is empty or the attribute was not there yet.
    if ((type === 'relation' || type === 'media') && sameJson(emptyAsNull(before), emptyAsNull(after))) return;
    if (!sameJson(before, after)) this.add(path, before, after);
  }

  private component(path: string, before: unknown, after: unknown, uid: string, repeatable: boolean): void {
    if (!repeatable) return this.item(path, before, after, uid);
    const b = Array.isArray(before) ? before : [];
    const a = Array.isArray(after) ? after : [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) this.item(`${path}.${i}`, b[i], a[i], uid);
  }

  /** One component item: field by field when both sides have it, else as a whole. */
  private item(path: string, before: unknown, after: unknown, uid: string): void {
    if (isDict(before) && isDict(after)) return this.fields(before, after, this.schema.components[uid], `${path}.`, ID);
    const b = withoutIds(before, uid, this.schema);
    const a = withoutIds(after, uid, this.schema);
    if (!sameJson(b, a)) this.add(path, b, a);
  }

  private zone(path: string, before: unknown, after: unknown): void {
    const b = Array.isArray(before) ? before : [];
    const a = Array.isArray(after) ? after : [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = b[i];
      const y = a[i];
      const uid = isDict(y) ? y.__component : isDict(x) ? x.__component : undefined;
      // Another component at this place is another item: reported whole.
      if (isDict(x) && isDict(y) && x.__component === y.__component && typeof uid === 'string') {
        this.fields(x, y, this.schema.components[uid], `${path}.${i}.`, ZONE_SKIP);
      } else {
        const bx = withoutIds(x, isDict(x) ? x.__component : undefined, this.schema);
        const ay = withoutIds(y, isDict(y) ? y.__component : undefined, this.schema);
        if (!sameJson(bx, ay)) this.add(`${path}.${i}`, bx, ay);
      }
    }
  }
}

const emptyAsNull = (v: unknown): unknown => (Array.isArray(v) && v.length === 0 ? null : v);
const ID = new Set(['id']);
const ZONE_SKIP = new Set(['id', '__component']);

/** A component item as reported whole: without its row id, nor those of the components inside it. */
function withoutIds(value: unknown, uid: unknown, schema: DiffSchema): unknown {
  if (!isDict(value)) return value ?? null;
  const attributes = typeof uid === 'string' ? schema.components[uid] : undefined;
  const out: Dict = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'id') continue;
    const attr = attributes?.[key];
    if (attr?.type === 'component' && typeof attr.component === 'string') {
      const c = attr.component;
      out[key] = Array.isArray(v) ? v.map((x) => withoutIds(x, c, schema)) : withoutIds(v, c, schema);
    } else if (attr?.type === 'dynamiczone' && Array.isArray(v)) {
      out[key] = v.map((x) => withoutIds(x, isDict(x) ? x.__component : undefined, schema));
    } else {
      out[key] = v;
    }
  }
  return out;
}

/**
 * The changed attribute paths from `before` (the content compared with) to `after` (the
 * version's), in attribute order. Missing and null are the same (an attribute added later).
 */
export function diffVersionData(before: Record<string, unknown> | null, after: Record<string, unknown> | null, schema: DiffSchema): HistoryChange[] {
  const differ = new Differ(schema);
  differ.fields(before ?? {}, after ?? {}, schema.attributes, '', SYSTEM_FIELDS);
  return differ.changes;
}
