// What every attribute kind shares: the owner it is parsed for, and the base fields
// (required, private, effective localized flag, raw) plus the options valid on any type.
import type { JsonObject } from './guards.ts';
import type { Issues, Path } from './issues.ts';
import { OptionReader } from './options.ts';
import type { Attribute } from './types.ts';

export interface OwnerContext {
  kind: 'contentType' | 'component';
  uid: string;
  /** The owning content type is localized (always false for components). */
  localized: boolean;
  contentTypeUids: ReadonlySet<string>;
  componentUids: ReadonlySet<string>;
  issues: Issues;
}

export type BaseFields = Pick<Attribute, 'name' | 'required' | 'private' | 'localized' | 'raw'>;

/**
 * Reads the options shared by all types. Localization follows Strapi's `isLocalizedAttribute`:
 * inside a localized type, relations and uids are always localized, others only when opted in.
 * Attributes of components are never localized themselves; the component attribute is.
 */
export function readBase(ctx: OwnerContext, name: string, def: JsonObject, type: string, path: Path): { base: BaseFields; opts: OptionReader; unique: boolean } {
  const opts = new OptionReader(def, path, ctx.issues);
  const required = opts.boolean('required') ?? false;
  const isPrivate = opts.boolean('private') ?? false;
  // Type-checked on every kind; only scalars act on it.
  const unique = opts.boolean('unique') ?? false;
  opts.boolean('configurable');
  opts.object('conditions');
  const optedIn = readLocalizedFlag(opts) === true;
  const localized = ctx.kind === 'contentType' && ctx.localized && (optedIn || type === 'relation' || type === 'uid');
  const base: BaseFields = { name, required, private: isPrivate, localized, raw: def };
  return { base, opts, unique };
}

/** `pluginOptions.i18n.localized`, type-checked along the way (content types and attributes alike). */
export function readLocalizedFlag(opts: OptionReader): boolean | undefined {
  const pluginOptions = opts.object('pluginOptions');
  if (!pluginOptions) return undefined;
  const i18nOpts = new OptionReader(pluginOptions, [...opts.path, 'pluginOptions'], opts.issues);
  const i18n = i18nOpts.object('i18n');
  if (!i18n) return undefined;
  return new OptionReader(i18n, [...i18nOpts.path, 'i18n'], opts.issues).boolean('localized');
}

/**
 * The base fields plus a kind's own, as a fresh object. Not `{...base, ...}`: on Node 20 object
 * spread made parsing a 60k-attribute model several times slower.
 */
export function withBase<T extends Attribute>(base: BaseFields, fields: Omit<T, keyof BaseFields>): T {
  const out = { name: base.name, required: base.required, private: base.private, localized: base.localized, raw: base.raw };
  return Object.assign(out, fields) as T;
}
