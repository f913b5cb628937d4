// One content type's schema.json, checked on its own. Names are checked for uniqueness across
// the model in model-names.ts. Invalid header fields are reported and left as '' placeholders.
import { readLocalizedFlag } from './attribute-base.ts';
import { parseAttributes, type ParsedAttributes } from './attributes.ts';
import { describeType, isObject, own, show, type JsonObject } from './guards.ts';
import type { Issues, Path } from './issues.ts';
import { COLLECTION_NAME, KEBAB_CASE, LIMITS, isReservedRouteName } from './names.ts';
import { OptionReader } from './options.ts';
import type { ContentType } from './types.ts';

export interface ModelContext {
  contentTypeUids: ReadonlySet<string>;
  componentUids: ReadonlySet<string>;
  issues: Issues;
}

export interface Parsed<T> {
  value: T;
  path: Path;
  attrs: ParsedAttributes;
}

const KINDS = ['collectionType', 'singleType'] as const;

export function parseContentType(ctx: ModelContext, uid: string, schema: JsonObject): Parsed<ContentType> {
  const path = ['contentTypes', uid];
  const opts = new OptionReader(schema, path, ctx.issues);
  const kind = readKind(opts);
  const info = readInfo(opts);
  const singularName = info ? readTypeName(info, 'singularName') : '';
  const pluralName = info ? readTypeName(info, 'pluralName') : '';
  if (info && singularName && singularName === pluralName) info.fail('pluralName', 'pluralName must differ from singularName');
  const displayName = info ? readDisplayName(info) : '';
  checkUid(ctx, uid, singularName, path);
  const collectionName = readCollectionName(opts, pluralName.replaceAll('-', '_'));
  const options = opts.object('options');
  const draftAndPublish = options ? new OptionReader(options, [...path, 'options'], ctx.issues).boolean('draftAndPublish') === true : false;
  const localized = readLocalizedFlag(opts) === true;
  const attrs = parseAttributes({ ...ctx, kind: 'contentType', uid, localized }, own(schema, 'attributes'), path);
  const value: ContentType = {
    uid, kind, collectionName, singularName, pluralName, displayName, draftAndPublish, localized,
    attributes: Object.fromEntries(attrs.attributes), raw: schema,
  };
  return { value, path, attrs };
}

function readKind(opts: OptionReader): ContentType['kind'] {
  if (!opts.has('kind')) return opts.fail('kind', 'kind is required') ?? 'collectionType';
  const kind = opts.value('kind');
  if ((KINDS as readonly unknown[]).includes(kind)) return kind as ContentType['kind'];
  return opts.fail('kind', `kind must be collectionType or singleType, got ${show(kind)}`) ?? 'collectionType';
}

export function readInfo(opts: OptionReader): OptionReader | undefined {
  if (!opts.has('info')) return opts.fail('info', 'info is required');
  const info = opts.value('info');
  if (!isObject(info)) return opts.fail('info', `info must be an object, got ${describeType(info)}`);
  return new OptionReader(info, [...opts.path, 'info'], opts.issues);
}

function readTypeName(info: OptionReader, key: 'singularName' | 'pluralName'): string {
  const name = info.string(key, LIMITS.typeName, true);
  if (name === undefined) return '';
  if (!KEBAB_CASE.test(name)) return info.fail(key, `${key} ${show(name)} must be kebab-case (a-z, 0-9, single dashes, starting with a letter)`) ?? '';
  if (isReservedRouteName(name)) return info.fail(key, `${key} ${show(name)} is reserved by the platform`) ?? '';
  return name;
}

export function readDisplayName(info: OptionReader): string {
  const name = info.string('displayName', LIMITS.displayName, true);
  if (name === undefined) return '';
  return name.trim() === '' ? info.fail('displayName', 'displayName must not be empty') ?? '' : name;
}

/** An explicit collectionName, or the default derived from the plural / component name. */
export function readCollectionName(opts: OptionReader, fallback: string): string {
  const name = opts.string('collectionName', LIMITS.collectionName);
  if (name === undefined) return opts.has('collectionName') ? '' : fallback;
  if (!COLLECTION_NAME.test(name)) return opts.fail('collectionName', `collectionName ${show(name)} must match ${COLLECTION_NAME.source}`) ?? '';
  return name;
}

function checkUid(ctx: ModelContext, uid: string, singularName: string, path: Path): void {
  if (singularName) {
    const expected = `api::${singularName}.${singularName}`;
    if (uid !== expected) ctx.issues.add(path, `content type uid ${show(uid)} must be ${show(expected)} (api::{singularName}.{singularName})`);
  } else if (!/^api::[a-z0-9-]{1,60}\.[a-z0-9-]{1,60}$/.test(uid)) {
    ctx.issues.add(path, `content type uid ${show(uid)} must have the form api::{singularName}.{singularName}`);
  }
}
