// `Strapi-Response-Format: v4`: rewrites the v5 flat JSON of content-type REST
// responses into Strapi v4's `{id, documentId, attributes}` shape. Works on parsed JSON, never
// throws: anything that does not look like what the model announces is passed through untouched.
import type { Attribute, Model } from '@cms/schema';

type Obj = Record<string, unknown>;
type Attributes = Record<string, Attribute>;

/** The upload plugin's file type: media values are transformed as documents of this uid. */
const FILE_UID = 'plugin::upload.file';
/** Deeper than any populate we serve; beyond it values are passed through (no stack overflow). */
const MAX_DEPTH = 200;

function isPlainObject(value: unknown): value is Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own-property write that also works for hostile keys such as `__proto__`. */
function put(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function ownGet<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

function componentAttributes(model: Model, uid: unknown): Attributes | undefined {
  return typeof uid === 'string' ? ownGet(model.components, uid)?.attributes : undefined;
}

/** `{id, documentId, attributes:{…rest}}`; the rest transformed per `attributes`. */
function entry(model: Model, uid: string, doc: unknown, depth: number): unknown {
  if (!isPlainObject(doc) || depth > MAX_DEPTH) return doc;
  const ct = ownGet(model.contentTypes, uid);
  const attrs = ct?.attributes;
  const out: Obj = {};
  if (Object.hasOwn(doc, 'id')) out.id = doc.id;
  if (Object.hasOwn(doc, 'documentId')) out.documentId = doc.documentId;
  const attributes: Obj = {};
  for (const key of Object.keys(doc)) {
    if (key === 'id' || key === 'documentId') continue;
    const value = doc[key];
    const attr = ownGet(attrs, key);
    if (attr === undefined && key === 'localizations' && ct?.localized === true && isEntryValue(value)) {
      put(attributes, key, { data: entries(model, uid, value, depth + 1) });
    } else {
      put(attributes, key, field(model, attr, value, depth + 1));
    }
  }
  out.attributes = attributes;
  return out;
}

/** A relation/media value that v4 wraps in `{data}`: null, an object or an array. */
function isEntryValue(value: unknown): boolean {
  return value === null || Array.isArray(value) || isPlainObject(value);
}

/** null → null; array → each entry; object → entry (a `{count}` object gives `{attributes:{count}}`). */
function entries(model: Model, uid: string, value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => entry(model, uid, item, depth + 1));
  return entry(model, uid, value, depth);
}

/** One attribute value, inside a document or a component. */
function field(model: Model, attr: Attribute | undefined, value: unknown, depth: number): unknown {
  if (attr === undefined || depth > MAX_DEPTH) return value;
  switch (attr.kind) {
    case 'relation':
      return isEntryValue(value) ? { data: entries(model, attr.target, value, depth) } : value;
    case 'media':
      return isEntryValue(value) ? { data: entries(model, FILE_UID, value, depth) } : value;
    case 'component': {
      const cAttrs = componentAttributes(model, attr.component);
      if (cAttrs === undefined) return value;
      if (Array.isArray(value)) return value.map((item) => component(model, cAttrs, item, depth + 1));
      return component(model, cAttrs, value, depth);
    }
    case 'dynamiczone':
      if (!Array.isArray(value)) return value;
      return value.map((item) => {
        if (!isPlainObject(item)) return item;
        const cAttrs = componentAttributes(model, item.__component);
        return cAttrs === undefined ? item : component(model, cAttrs, item, depth + 1);
      });
    default:
      return value;
  }
}

/** Components and DZ items stay flat `{id, …fields}`; relations and media inside are wrapped. */
function component(model: Model, attrs: Attributes, value: unknown, depth: number): unknown {
  if (!isPlainObject(value) || depth > MAX_DEPTH) return value;
  const out: Obj = {};
  for (const key of Object.keys(value)) put(out, key, field(model, ownGet(attrs, key), value[key], depth + 1));
  return out;
}

/** Rewrites a v5 flat document (as parsed from our JSON output) into Strapi v4's shape. */
export function toV4Document(model: Model, uid: string, doc: unknown): unknown {
  return entry(model, uid, doc, 0);
}

/** `data` of a list or a single response: array → array of v4 docs; object → v4 doc; null → null. */
export function toV4Data(model: Model, uid: string, data: unknown): unknown {
  if (Array.isArray(data)) return data.map((doc) => entry(model, uid, doc, 1));
  return entry(model, uid, data, 0);
}

const HEADER = 'strapi-response-format';

/** True when the request asks for the v4 format (header `Strapi-Response-Format` exactly `v4`). */
export function wantsV4(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers === null || typeof headers !== 'object') return false;
  let value: unknown;
  if (Object.hasOwn(headers, HEADER)) value = headers[HEADER];
  else {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === HEADER);
    value = key === undefined ? undefined : headers[key];
  }
  return value === 'v4';
}
