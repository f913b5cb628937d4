// A version beside the current document, field by field: one row per attribute (components and
// dynamic zones opened down to their own attributes, as the diff names paths), each with the
// version's value, the current one and whether the diff reports a change there.
import type { AttributeSchema, Model } from '../../../model/schema.ts';
import type { VersionChange } from '../api/get-version-diff.ts';

export interface CompareRow {
  /** the attribute path as the diff names it: `title`, `seo.metaTitle`, `sections.1.title` */
  path: string;
  /** null when the schema does not say (a path only the diff names) */
  attr: AttributeSchema | null;
  version: unknown;
  current: unknown;
  changed: boolean;
}

type Row = Omit<CompareRow, 'current' | 'changed'>;
type Attributes = Record<string, AttributeSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function walk(model: Model, attributes: Attributes, value: unknown, prefix: string, out: Row[]): void {
  const data = isObject(value) ? value : {};
  for (const [name, attr] of Object.entries(attributes)) {
    // Never output by the API: nothing to compare.
    if (attr.private || attr.type === 'password') continue;
    const path = prefix ? `${prefix}.${name}` : name;
    const v = data[name] ?? null;
    const items = Array.isArray(v) && v.length > 0 ? v : null;
    const component = attr.component ? model.components[attr.component] : undefined;
    if (attr.type === 'component' && component && !attr.repeatable && isObject(v)) walk(model, component.attributes, v, path, out);
    else if (attr.type === 'component' && component && attr.repeatable && items) items.forEach((item, i) => walk(model, component.attributes, item, `${path}.${i}`, out));
    else if (attr.type === 'dynamiczone' && items) {
      items.forEach((item, i) => {
        const own = isObject(item) && typeof item.__component === 'string' ? model.components[item.__component] : undefined;
        if (own) walk(model, own.attributes, item, `${path}.${i}`, out);
        else out.push({ path: `${path}.${i}`, attr: null, version: item });
      });
    } else out.push({ path, attr, version: v });
  }
}

function valueAt(value: unknown, path: string[]): unknown {
  let at = value;
  for (const part of path) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
  return at ?? null;
}

function withValueAt(value: unknown, path: string[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = Array.isArray(value) ? [...value] as unknown as Record<string, unknown> : isObject(value) ? { ...value } : {};
  copy[head] = withValueAt(copy[head], rest, next);
  return copy;
}

const within = (path: string, ancestor: string) => path.startsWith(`${ancestor}.`);
const split = (path: string, ancestor: string) => path.slice(ancestor.length + 1).split('.');

/**
 * The attributes a version was recorded with, in the current type's order where it still has
 * them (stored schemas do not keep the order), then the ones removed since.
 */
export function recordedAttributes(current: Attributes, recorded: Attributes): Attributes {
  const names = [...Object.keys(current).filter((name) => name in recorded), ...Object.keys(recorded).filter((name) => !(name in current))];
  return Object.fromEntries(names.map((name) => [name, recorded[name]!]));
}

/**
 * The rows of `data` under `attributes` (the version's schema; components from the current
 * model), with `changes` (the diff against the current document: `before` the current value,
 * `after` the version's) applied. A change no row covers (an item only one side has) gets a
 * row of its own, after the rows of the same attribute.
 */
export function compareRows(model: Model, attributes: Attributes, data: Record<string, unknown>, changes: VersionChange[]): CompareRow[] {
  const rows: Row[] = [];
  walk(model, attributes, data, '', rows);
  const out: CompareRow[] = rows.map((row) => {
    const exact = changes.find((c) => c.path === row.path);
    if (exact) return { ...row, current: exact.before, changed: true };
    const whole = changes.find((c) => within(row.path, c.path));
    if (whole) return { ...row, current: valueAt(whole.before, split(row.path, whole.path)), changed: true };
    const parts = changes.filter((c) => within(c.path, row.path));
    const current = parts.reduce((v, c) => withValueAt(v, split(c.path, row.path), c.before), row.version);
    return { ...row, current, changed: parts.length > 0 };
  });
  for (const change of changes) {
    if (rows.some((r) => r.path === change.path || within(r.path, change.path) || within(change.path, r.path))) continue;
    const top = change.path.split('.')[0]!;
    const last = out.findLastIndex((r) => r.path === top || within(r.path, top));
    const row: CompareRow = { path: change.path, attr: null, version: change.after, current: change.before, changed: true };
    out.splice(last === -1 ? out.length : last + 1, 0, row);
  }
  return out;
}

/** A path as a label: `sections.1.title` → `sections 2 › title` (items counted from 1). */
export const pathLabel = (path: string) =>
  path.split('.').reduce<string[]>((parts, part) => {
    if (/^\d+$/.test(part) && parts.length) parts[parts.length - 1] += ` ${Number(part) + 1}`;
    else parts.push(part);
    return parts;
  }, []).join(' › ');

const MAX_LENGTH = 300;

/** Text of a blocks value: its paragraphs' text, one per line. */
function blocksText(value: unknown): string {
  if (Array.isArray(value)) return value.map(blocksText).filter(Boolean).join('\n');
  if (!isObject(value)) return '';
  if (typeof value.text === 'string') return value.text;
  return Array.isArray(value.children) ? value.children.map(blocksText).join('') : '';
}

const refText = (v: unknown) => (isObject(v) && typeof v.documentId === 'string' ? `${v.documentId}${typeof v.locale === 'string' ? ` (${v.locale})` : ''}` : JSON.stringify(v));
const fileText = (v: unknown) => (isObject(v) && 'id' in v ? `file ${String(v.id)}` : JSON.stringify(v));

/** A value as the comparison shows it ('—' for nothing): relations by documentId, files by id, blocks as their text. */
export function valueText(value: unknown, attr: AttributeSchema | null): string {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '—';
  let text: string;
  const list = Array.isArray(value) ? value : [value];
  if (attr?.type === 'relation') text = list.map(refText).join(', ');
  else if (attr?.type === 'media') text = list.map(fileText).join(', ');
  else if (attr?.type === 'blocks') text = blocksText(value) || '—';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}
