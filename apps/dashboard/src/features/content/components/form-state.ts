// A document as the editor's form holds it, and back: API values become what each input edits
// (text as strings, datetimes in local time, media and relations as items, components with a
// stable key for reordering), and the form's values become the write body the REST API takes.
import dayjs from 'dayjs';
import type { AttributeSchema, Model } from '../../../model/schema.ts';
import { isWriteOnly } from './content-model.ts';
import { relationLabelField } from './populate.ts';
import { relationBody, type MediaFile, type RelationItem } from './fields/shared-editors.ts';

export type FormValues = Record<string, unknown>;

/** A component's values in the form; `__key` identifies the item while it is dragged around. */
export interface ComponentValues extends FormValues {
  __key: string;
  __component?: string;
}

export type Document = Record<string, unknown> & { documentId: string; updatedAt: string; publishedAt: string | null; locale?: string };

let keys = 0;
export const newItemKey = () => `item-${++keys}`;

export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const TEXT = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid']);

export const isMultipleRelation = (attr: AttributeSchema) => /ToMany$|^manyWay$/.test(attr.relation ?? '');

/** The form of a new document: every attribute empty or its schema default. */
export function emptyValues(model: Model, attributes: Record<string, AttributeSchema>): FormValues {
  return valuesFromDocument(model, attributes, {}, true);
}

export function emptyComponent(model: Model, uid: string, inZone: boolean): ComponentValues {
  const values = emptyValues(model, model.components[uid]?.attributes ?? {});
  return { ...values, __key: newItemKey(), ...(inZone ? { __component: uid } : {}) };
}

/** The form's values for a document read with the editor's populate (`useDefaults`: a new one). */
export function valuesFromDocument(model: Model, attributes: Record<string, AttributeSchema>, doc: Record<string, unknown>, useDefaults = false): FormValues {
  const values: FormValues = {};
  for (const [name, attr] of Object.entries(attributes)) {
    const raw = doc[name] ?? (useDefaults ? attr.default : undefined) ?? null;
    values[name] = fieldValue(model, attr, raw, useDefaults);
  }
  return values;
}

function fieldValue(model: Model, attr: AttributeSchema, raw: unknown, useDefaults: boolean): unknown {
  if (isWriteOnly(attr) && TEXT.has(attr.type)) return '';
  switch (attr.type) {
    case 'string': case 'text': case 'richtext': case 'email': case 'uid': case 'password':
      return raw === null ? '' : String(raw);
    case 'integer': case 'float': case 'decimal':
      return raw === null || raw === '' ? '' : Number(raw);
    case 'biginteger':
      return raw === null ? '' : String(raw);
    case 'time':
      // `10:30:00` or `10:30:00.000`: the input edits hours, minutes and seconds.
      return raw === null ? '' : String(raw).slice(0, 8);
    case 'datetime':
      return raw === null ? null : dayjs(String(raw)).format(DATETIME_FORMAT);
    case 'boolean':
      return raw === null ? null : raw === true || raw === 'true';
    case 'media':
      return raw === null ? [] : (Array.isArray(raw) ? raw : [raw]) as MediaFile[];
    case 'relation': {
      const label = relationLabelField(model, attr.target);
      const items = raw === null ? [] : Array.isArray(raw) ? raw : [raw];
      return (items as Array<Record<string, unknown>>).map((item): RelationItem => ({
        documentId: String(item.documentId), label: String((label && item[label]) ?? item.documentId),
      }));
    }
    case 'component': {
      const uid = attr.component ?? '';
      const toItem = (item: Record<string, unknown>): ComponentValues => ({
        ...valuesFromDocument(model, model.components[uid]?.attributes ?? {}, item, useDefaults), __key: newItemKey(),
      });
      if (attr.repeatable) return Array.isArray(raw) ? (raw as Array<Record<string, unknown>>).map(toItem) : [];
      return raw && typeof raw === 'object' ? toItem(raw as Record<string, unknown>) : null;
    }
    case 'dynamiczone':
      return Array.isArray(raw)
        ? (raw as Array<Record<string, unknown>>).map((item): ComponentValues => {
          const uid = String(item.__component);
          return { ...valuesFromDocument(model, model.components[uid]?.attributes ?? {}, item, useDefaults), __key: newItemKey(), __component: uid };
        })
        : [];
    default:
      // date, enumeration, json, blocks: the API's value as it is.
      return raw;
  }
}

/**
 * The write body for the form's values. `baseline` holds the values as stored (empty for a new
 * document or locale version): relations are written as what changed since then. Components
 * are rewritten whole by the API, so relations inside them are written in full.
 */
export function bodyFromValues(model: Model, attributes: Record<string, AttributeSchema>, values: FormValues, baseline: FormValues | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, attr] of Object.entries(attributes)) {
    const value = values[name];
    if (isWriteOnly(attr) && TEXT.has(attr.type)) {
      // Never read back: an empty input keeps what is stored.
      if (value) body[name] = value;
      continue;
    }
    if (attr.private) continue;
    body[name] = bodyValue(model, attr, value, baseline ? baseline[name] : undefined);
  }
  return body;
}

function bodyValue(model: Model, attr: AttributeSchema, value: unknown, stored: unknown): unknown {
  switch (attr.type) {
    case 'string': case 'text': case 'richtext': case 'email': case 'uid': case 'biginteger':
    case 'integer': case 'float': case 'decimal':
      // An emptied input clears the value.
      return value === '' || value === null || value === undefined ? null : value;
    case 'time':
      return value ? (/^\d\d:\d\d$/.test(String(value)) ? `${String(value)}:00` : value) : null;
    case 'datetime':
      return value ? dayjs(String(value)).toISOString() : null;
    case 'media': {
      const files = (value ?? []) as MediaFile[];
      return attr.multiple ? files.map((f) => f.id) : files[0]?.id ?? null;
    }
    case 'relation':
      return relationBody((stored ?? []) as RelationItem[], (value ?? []) as RelationItem[], isMultipleRelation(attr));
    case 'component': {
      const attributes = model.components[attr.component ?? '']?.attributes ?? {};
      const item = (v: unknown) => bodyFromValues(model, attributes, v as FormValues, null);
      if (attr.repeatable) return ((value ?? []) as FormValues[]).map(item);
      return value ? item(value) : null;
    }
    case 'dynamiczone':
      return ((value ?? []) as ComponentValues[]).map((v) => ({
        __component: v.__component, ...bodyFromValues(model, model.components[v.__component ?? '']?.attributes ?? {}, v, null),
      }));
    default:
      return value ?? null;
  }
}

/** The form path of an API error path (`["sections","0","heading"]` → `sections.0.heading`). */
export const formPath = (path: string[]) => path.join('.');
