// One document version of the project's content API (`/p/{slug}/api`, content-api.ts) as the
// content manager addresses it, and the reads its requests share: a collection type's version
// through its list filtered by documentId, a single type's existence through GraphQL. Reads never
// ask for a version that may not exist by its path (a 404, which the browser logs as an error).
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { hasDraftAndPublish, isLocalized, isSingleType, typePath, type ContentType } from '../components/content-model.ts';

/** One document version: a collection type's document (no documentId yet: a new one) or a single type's. */
export interface VersionRef {
  slug: string;
  type: ContentType;
  documentId?: string;
  locale?: string;
}

/** The version's REST path: the type's (single types, new documents) or the document's. */
export const pathOf = ({ type, documentId }: VersionRef) => (isSingleType(type) || !documentId ? typePath(type) : `${typePath(type)}/${documentId}`);
export const localeOf = ({ type, locale }: VersionRef) => (isLocalized(type) && locale ? { locale } : {});
/** Drafts are what the editor edits; types without draft & publish have one version anyway. */
export const draftStatus = (type: ContentType) => (hasDraftAndPublish(type) ? { status: 'draft' } : {});

/** camelCase of a single type's singularName: its GraphQL query (`home-page` → `homePage`). */
const graphqlName = (singularName: string) => singularName.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Per locale (or once, for a type without i18n): the single type's version stamp, or null. */
export async function singleStamps(ref: VersionRef, locales: Array<string | undefined>, published: boolean): Promise<Array<string | null>> {
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
export async function findVersion<T>(ref: VersionRef, params: Record<string, unknown>): Promise<T | null> {
  const query = strapiQuery({ ...localeOf(ref), ...params, filters: { documentId: { $eq: ref.documentId } }, pagination: { pageSize: 1 } });
  const { data } = await contentApi<{ data: T[] }>(ref.slug, 'GET', `${typePath(ref.type)}${query}`);
  return data[0] ?? null;
}
