// Where a relation's target documents are searched: their REST path, the attribute that names
// them (Strapi's "main field") and the search query. Pure.
import { USER_TARGET, type Model } from '../../model/schema.ts';
import { strapiQuery } from '../../content-api.ts';
import type { RelationItem } from './relation-body.ts';

export interface RelationTarget {
  /** `/api/articles`, or `/api/users` for end users */
  path: string;
  /** the attribute naming a document; null: documents are named by their documentId */
  mainField: string | null;
  localized: boolean;
  /** Draft & Publish: drafts are searched too (every document has one) */
  draftAndPublish: boolean;
  /** `/api/users` answers a bare array, content types `{data, meta}` */
  bare: boolean;
  /** the type's display name, for the search placeholder */
  displayName: string;
}

const MAIN_FIELD_TYPES = new Set(['string', 'uid', 'email', 'text']);

export function relationTarget(model: Model | undefined, uid: string): RelationTarget | null {
  if (uid === USER_TARGET) {
    return { path: '/api/users', mainField: 'username', localized: false, draftAndPublish: false, bare: true, displayName: 'user' };
  }
  const type = model?.contentTypes[uid];
  if (!type) return null;
  // Private attributes cannot be filtered on (the API answers 400).
  const main = Object.entries(type.attributes).find(([, a]) => MAIN_FIELD_TYPES.has(a.type) && !a.private)?.[0] ?? null;
  return {
    path: `/api/${type.kind === 'singleType' ? type.info.singularName : type.info.pluralName}`,
    mainField: main,
    localized: type.pluginOptions?.i18n?.localized === true,
    draftAndPublish: type.options?.draftAndPublish === true,
    bare: false,
    displayName: type.info.displayName || type.info.singularName,
  };
}

/** The search request (path and query string) for what the user typed. */
export function searchPath(target: RelationTarget, term: string, locale?: string): string {
  const main = target.mainField;
  const q = term.trim();
  const params: Record<string, unknown> = {};
  if (target.draftAndPublish) params.status = 'draft';
  if (target.localized && locale) params.locale = locale;
  if (q) {
    if (main) params.filters = { [main]: { $containsi: q } };
    else params._q = q;
  }
  if (main) {
    if (!target.bare) params.fields = [main];
    params.sort = `${main}:asc`;
  }
  params.pagination = { pageSize: 10 };
  return `${target.path}${strapiQuery(params)}`;
}

/** The picker's items from a search answer. */
export function searchItems(target: RelationTarget, answer: unknown): RelationItem[] {
  const list = target.bare ? answer : (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) return [];
  return list.flatMap((doc: Record<string, unknown>) => {
    if (typeof doc?.documentId !== 'string') return [];
    const name = target.mainField ? doc[target.mainField] : null;
    return [{ documentId: doc.documentId, label: name === null || name === undefined || name === '' ? doc.documentId : String(name) }];
  });
}
