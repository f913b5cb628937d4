// A write body's `data` → `RowWrite`: keys checked against the model (Strapi's `Invalid key`),
// then every attribute validated and cast, recursing into components and dynamic zones. All
// attribute errors are reported together, with paths (Strapi stops at the first).
import { ValidationError, type FieldError } from '@cms/errors';
import type { Attribute, Component, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '@cms/schema';
import { mediaInput, positiveId, relationInput } from './relation-input.ts';
import { BODY_LIMITS, fail, isDict as isObject, scalarInput, typeError, type FieldSite } from './scalar-input.ts';
import { emptyRowWrite, type ComponentItemWrite, type RowWrite } from './write-input.ts';

export interface ParseDataOptions {
  model: Model;
  /** The content type written. */
  uid: string;
  mode: 'create' | 'update';
  /** Publishing writes check required/min/minLength/regex; draft writes skip them. */
  publishing: boolean;
  /** Relation attributes whose target the caller may not `find` are dropped silently. */
  canFind(uid: string): boolean;
}

/** Dropped silently: use `status` and `?locale` instead. */
const IGNORED_KEYS = new Set(['publishedAt', 'locale']);
/** Refused with `path` = the key. */
const SYSTEM_KEYS = new Set(['createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
/** Refused with `path: null`. */
const IDENTITY_KEYS = new Set(['id', 'documentId']);

/** Items of one repeatable component or dynamic zone in one body. */
const MAX_ITEMS = BODY_LIMITS.listItems;

/** yup's label of a path: `blocks[0].__component`. */
function labelOf(path: readonly string[]): string {
  return path.reduce((label, part) => (/^\d+$/.test(part) ? `${label}[${part}]` : label ? `${label}.${part}` : part), '');
}

class BodyWalker {
  readonly errors: FieldError[] = [];
  constructor(private readonly options: ParseDataOptions) {}

  private site(path: string[]): FieldSite {
    return { path, label: labelOf(path), errors: this.errors };
  }

  /** Keys of one object level; `extra` keys are allowed beside the attributes (`id`, `__component`). */
  private checkKeys(owner: ContentType | Component, data: Record<string, unknown>, path: string[], extra: readonly string[]): void {
    for (const key of Object.keys(data)) {
      if (Object.hasOwn(owner.attributes, key) || extra.includes(key)) continue;
      const at = [...path, key].join('.');
      if (path.length === 0 && IGNORED_KEYS.has(key)) continue;
      if (path.length === 0 && IDENTITY_KEYS.has(key)) throw ValidationError.invalidKey(key, { source: 'body', path: null });
      if (SYSTEM_KEYS.has(key)) throw ValidationError.invalidKey(key, { source: 'body', path: at });
      throw ValidationError.invalidKey(key, { source: 'body', path: path.length === 0 ? null : at });
    }
  }

  row(owner: ContentType | Component, data: Record<string, unknown>, path: string[], mode: 'create' | 'update', extra: readonly string[] = []): RowWrite {
    this.checkKeys(owner, data, path, extra);
    const row = emptyRowWrite();
    for (const [name, attr] of Object.entries(owner.attributes)) {
      const present = Object.hasOwn(data, name) && data[name] !== undefined;
      const site = this.site([...path, name]);
      if (!present) {
        if (mode === 'create') this.absent(site, attr, row);
        continue;
      }
      this.attribute(site, attr, data[name], row);
    }
    return row;
  }

  /** On create: defaults, and the required check. */
  private absent(site: FieldSite, attr: Attribute, row: RowWrite): void {
    if (attr.kind === 'scalar') {
      if (attr.default !== undefined && attr.default !== null) {
        const value = scalarInput(site, attr, attr.default, this.options.publishing);
        if (value !== undefined) row.scalars.set(attr.name, value);
      } else if (attr.required && this.options.publishing) {
        scalarInput(site, attr, null, true);
      }
    } else if ((attr.kind === 'component' || attr.kind === 'dynamiczone') && attr.required && this.options.publishing) {
      fail(site, `${site.label} must be defined.`, null);
    }
  }

  private attribute(site: FieldSite, attr: Attribute, value: unknown, row: RowWrite): void {
    switch (attr.kind) {
      case 'scalar': {
        const out = scalarInput(site, attr, value, this.options.publishing);
        if (out !== undefined) row.scalars.set(attr.name, out);
        return;
      }
      case 'relation': {
        if (!this.options.canFind(attr.target)) return;
        const out = relationInput(site, attr, value);
        if (out) row.relations.set(attr.name, out);
        return;
      }
      case 'media': {
        const out = mediaInput(site, attr, value);
        if (out) row.media.set(attr.name, out);
        return;
      }
      case 'component': {
        const out = this.component(site, attr, value);
        if (out) row.components.set(attr.name, out);
        return;
      }
      case 'dynamiczone': {
        const out = this.zone(site, attr, value);
        if (out) row.dynamicZones.set(attr.name, out);
      }
    }
  }

  /** Item count bounds: `min` on publishing writes, `max` always. False when the items should not be looked at (a flood). */
  private count(site: FieldSite, attr: ComponentAttribute | DynamicZoneAttribute, n: number): boolean {
    if (n > MAX_ITEMS) return !!fail(site, `${site.label} has too many items (at most ${MAX_ITEMS})`, null);
    if (this.options.publishing && attr.min !== undefined && n < attr.min) fail(site, `${site.label} field must have at least ${attr.min} items`, null);
    if (attr.max !== undefined && n > attr.max) fail(site, `${site.label} field must have less than or equal to ${attr.max} items`, null);
    return true;
  }

  private item(component: Component, uid: string, value: unknown, path: string[], extra: readonly string[]): ComponentItemWrite | undefined {
    const site = this.site(path);
    if (!isObject(value)) return typeError(site, 'object', value);
    let id: string | null = null;
    if (Object.hasOwn(value, 'id') && value.id !== undefined && value.id !== null) {
      id = positiveId(value.id);
      if (id === null) return fail(this.site([...path, 'id']), `${labelOf([...path, 'id'])} must be a valid id`, value.id);
    }
    const row = this.row(component, value, path, id === null ? 'create' : 'update', ['id', ...extra]);
    return { component: uid, id, row };
  }

  private component(site: FieldSite, attr: ComponentAttribute, value: unknown): ComponentItemWrite[] | undefined {
    const component = this.options.model.components[attr.component]!;
    if (value === null) {
      if (attr.required && this.options.publishing) return fail(site, `${site.label} must be defined.`, null);
      return [];
    }
    if (!attr.repeatable) {
      const item = this.item(component, attr.component, value, site.path, []);
      return item ? [item] : undefined;
    }
    if (!Array.isArray(value)) return typeError(site, 'array', value);
    if (!this.count(site, attr, value.length)) return undefined;
    const items = value.map((v, i) => this.item(component, attr.component, v, [...site.path, String(i)], []));
    return items.every((i) => i !== undefined) ? (items as ComponentItemWrite[]) : undefined;
  }

  private zone(site: FieldSite, attr: DynamicZoneAttribute, value: unknown): ComponentItemWrite[] | undefined {
    if (value === null) {
      if (attr.required && this.options.publishing) return fail(site, `${site.label} must be defined.`, null);
      return [];
    }
    if (!Array.isArray(value)) return typeError(site, 'array', value);
    if (!this.count(site, attr, value.length)) return undefined;
    const items = value.map((v, i) => {
      const path = [...site.path, String(i)];
      if (!isObject(v)) return typeError(this.site(path), 'object', v);
      const uid = v.__component;
      if (typeof uid !== 'string' || !attr.components.includes(uid)) {
        const at = [...path, '__component'];
        return fail(this.site(at), `${labelOf(at)} must be one of the following values: ${attr.components.join(', ')}`, uid ?? null);
      }
      return this.item(this.options.model.components[uid]!, uid, v, path, ['__component']);
    });
    return items.every((i) => i !== undefined) ? (items as ComponentItemWrite[]) : undefined;
  }
}

/**
 * A new locale version: the defaults of the localized scalar attributes `row` left
 * out. Its non-localized attributes are copied from the document's other version instead.
 */
export function applyLocalizedDefaults(row: RowWrite, options: ParseDataOptions): void {
  const type = options.model.contentTypes[options.uid];
  if (!type) throw new Error(`unknown content type ${options.uid}`);
  const errors: FieldError[] = [];
  for (const attr of Object.values(type.attributes)) {
    if (attr.kind !== 'scalar' || !attr.localized || attr.default === undefined || attr.default === null || row.scalars.has(attr.name)) continue;
    const value = scalarInput({ path: [attr.name], label: labelOf([attr.name]), errors }, attr, attr.default, options.publishing);
    if (value !== undefined) row.scalars.set(attr.name, value);
  }
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);
}

export function parseDocumentData(data: unknown, options: ParseDataOptions): RowWrite {
  if (!isObject(data)) throw new ValidationError('Missing "data" payload in the request body');
  const type = options.model.contentTypes[options.uid];
  if (!type) throw new Error(`unknown content type ${options.uid}`);
  const walker = new BodyWalker(options);
  const row = walker.row(type, data, [], options.mode);
  if (walker.errors.length > 0) throw ValidationError.fromFieldErrors(walker.errors);
  return row;
}
