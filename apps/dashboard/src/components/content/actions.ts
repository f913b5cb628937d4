// The editor's calls, one API call per action: read a document (draft with everything populated),
// save or publish it through the project's REST API, unpublish and discard the draft through the
// management API (the content API has neither), delete one locale or all, and the small reads
// behind conflict detection, the status badge and the uid availability check.
import { api } from '../../api.ts';
import { contentApi, strapiQuery } from '../../content-api.ts';
import type { Model } from '../../model/schema.ts';
import { hasDraftAndPublish, isLocalized, isSingleType, typePath, type ContentType } from './content-model.ts';
import type { Document } from './form-state.ts';
import { populateFor } from './populate.ts';

/** One document version: a collection type's document (no documentId yet: a new one) or a single type's. */
export interface VersionRef {
  slug: string;
  type: ContentType;
  documentId?: string;
  locale?: string;
}

const pathOf = ({ type, documentId }: VersionRef) => (isSingleType(type) || !documentId ? typePath(type) : `${typePath(type)}/${documentId}`);
const localeOf = ({ type, locale }: VersionRef) => (isLocalized(type) && locale ? { locale } : {});
/** Drafts are what the editor edits; types without draft & publish have one version anyway. */
const draftStatus = (type: ContentType) => (hasDraftAndPublish(type) ? { status: 'draft' } : {});

// Reads never ask for a version that may not exist by its path (a 404, which the browser logs as
// an error): collection types are read through their list filtered by documentId, single types'
// existence through GraphQL (a missing document is null there), then their REST path.

/** camelCase of a single type's singularName: its GraphQL query (`home-page` → `homePage`). */
const graphqlName = (singularName: string) => singularName.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Per locale (or once, for a type without i18n): the single type's version stamp, or null. */
async function singleStamps(ref: VersionRef, locales: Array<string | undefined>, published: boolean): Promise<Array<string | null>> {
  const status = published ? 'PUBLISHED' : 'DRAFT';
  const localized = isLocalized(ref.type);
  const name = graphqlName(ref.type.info.singularName);
  const fields = locales.map((_, i) => `v${i}: ${name}(status: ${status}${localized ? `, locale: $l${i}` : ''}) { updatedAt }`);
  const variables = Object.fromEntries(localized ? locales.map((l, i) => [`l${i}`, l]) : []);
  const params = localized ? `(${locales.map((_, i) => `$l${i}: I18NLocaleCode`).join(', ')})` : '';
  const answer = await contentApi<{ data: Record<string, { updatedAt: string } | null> | null; errors?: Array<{ message: string }> }>(
    ref.slug, 'POST', '/graphql', { query: `query${params} { ${fields.join(' ')} }`, variables },
  );
  if (answer.errors?.length) throw new Error(answer.errors[0]!.message);
  return locales.map((_, i) => answer.data?.[`v${i}`]?.updatedAt ?? null);
}

/** A collection type's version through its list: `data[0]` or nothing. */
async function findVersion<T>(ref: VersionRef, params: Record<string, unknown>): Promise<T | null> {
  const query = strapiQuery({ ...localeOf(ref), ...params, filters: { documentId: { $eq: ref.documentId } }, pagination: { pageSize: 1 } });
  const { data } = await contentApi<{ data: T[] }>(ref.slug, 'GET', `${typePath(ref.type)}${query}`);
  return data[0] ?? null;
}

export async function readDraft(model: Model, ref: VersionRef): Promise<Document | null> {
  const params = { ...draftStatus(ref.type), populate: populateFor(model, ref.type.attributes) };
  if (!isSingleType(ref.type)) return findVersion<Document>(ref, params);
  if ((await singleStamps(ref, [ref.locale], false))[0] === null) return null;
  return (await contentApi<{ data: Document }>(ref.slug, 'GET', `${typePath(ref.type)}${strapiQuery({ ...params, ...localeOf(ref) })}`)).data;
}

/** When the version's draft (or, with `published`, its published row) was last written; null: none. */
export async function readStamp(ref: VersionRef, published = false): Promise<string | null> {
  if (isSingleType(ref.type)) return (await singleStamps(ref, [ref.locale], published))[0]!;
  const status = published ? { status: 'published' } : draftStatus(ref.type);
  return (await findVersion<{ updatedAt: string }>(ref, { ...status, fields: ['updatedAt'] }))?.updatedAt ?? null;
}

/** Save the draft, or with `publish` save and publish in the same call. Answers the written version. */
export async function writeDocument(ref: VersionRef, body: Record<string, unknown>, publish: boolean): Promise<Document> {
  const status = hasDraftAndPublish(ref.type) ? { status: publish ? 'published' : 'draft' } : {};
  const query = strapiQuery({ ...status, ...localeOf(ref) });
  const creates = !isSingleType(ref.type) && !ref.documentId;
  return (await contentApi<{ data: Document }>(ref.slug, creates ? 'POST' : 'PUT', `${pathOf(ref)}${query}`, { data: body })).data;
}

const actionBody = (ref: VersionRef) => (isLocalized(ref.type) ? { locale: ref.locale } : {});

export async function unpublish(ref: VersionRef & { documentId: string }): Promise<void> {
  await api('POST', `/v1/projects/${ref.slug}/content/${ref.type.uid}/${ref.documentId}/unpublish`, actionBody(ref));
}

export async function discardDraft(ref: VersionRef & { documentId: string }): Promise<void> {
  await api('POST', `/v1/projects/${ref.slug}/content/${ref.type.uid}/${ref.documentId}/discard`, actionBody(ref));
}

/** Delete this locale's version, or with `allLocales` every version of the document. */
export async function deleteDocument(ref: VersionRef, allLocales: boolean): Promise<void> {
  const locale = isLocalized(ref.type) ? { locale: allLocales ? '*' : ref.locale } : {};
  await contentApi(ref.slug, 'DELETE', `${pathOf(ref)}${strapiQuery(locale)}`);
}

/** The locales the document has a version in (drafts count). */
export async function documentLocales(ref: VersionRef, projectLocales: string[]): Promise<string[]> {
  if (!isLocalized(ref.type)) return [];
  if (isSingleType(ref.type)) {
    const stamps = await singleStamps(ref, projectLocales, false);
    return projectLocales.filter((_, i) => stamps[i] !== null);
  }
  const query = strapiQuery({
    ...draftStatus(ref.type), locale: '*', filters: { documentId: { $eq: ref.documentId } }, fields: ['locale'], pagination: { pageSize: 100 },
  });
  const { data } = await contentApi<{ data: Array<{ locale: string }> }>(ref.slug, 'GET', `${typePath(ref.type)}${query}`);
  return data.map((d) => d.locale);
}

/** Is `value` already the uid of another document of the type (drafts included, in this locale)? */
export async function isUidTaken(ref: VersionRef, field: string, value: string): Promise<boolean> {
  const filters: Record<string, unknown> = { [field]: { $eq: value } };
  if (ref.documentId) filters.documentId = { $ne: ref.documentId };
  const query = strapiQuery({ ...draftStatus(ref.type), ...localeOf(ref), filters, fields: ['documentId'], pagination: { pageSize: 1 } });
  const { meta } = await contentApi<{ meta: { pagination: { total: number } } }>(ref.slug, 'GET', `${typePath(ref.type)}${query}`);
  return meta.pagination.total > 0;
}
