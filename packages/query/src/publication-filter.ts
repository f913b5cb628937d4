// Strapi's `publicationFilter`: a cohort of documents chosen by how their draft and published rows
// relate, applied on top of `status` (which still picks the row that is read). Pair-scoped modes
// compare the rows of one (documentId, locale); `-document` modes look at every locale.
import { quoteIdent } from '@cms/db';
import { COLUMNS } from '@cms/tables';
import { ValidationError } from '@cms/errors';

export const PUBLICATION_FILTERS = [
  'never-published', 'has-published-version', 'modified', 'unmodified',
  'never-published-document', 'has-published-version-document', 'published-without-draft', 'published-with-draft',
] as const;
export type PublicationFilter = (typeof PUBLICATION_FILTERS)[number];

const isPublicationFilter = (value: unknown): value is PublicationFilter => (PUBLICATION_FILTERS as readonly unknown[]).includes(value);

/**
 * The cohort of a request: `publicationFilter`, else the deprecated boolean `hasPublishedVersion`
 * (mapped to the document-scoped modes, as Strapi does); `publicationFilter` wins when both are given.
 */
export function parsePublicationFilter(publicationFilter: unknown, hasPublishedVersion: unknown): PublicationFilter | undefined {
  if (publicationFilter !== undefined) {
    if (!isPublicationFilter(publicationFilter)) {
      throw new ValidationError(`Invalid publicationFilter parameter: expected one of ${PUBLICATION_FILTERS.join(', ')}`, { source: 'query', param: 'publicationFilter' });
    }
    return publicationFilter;
  }
  if (hasPublishedVersion === undefined) return undefined;
  if (hasPublishedVersion === true || hasPublishedVersion === 'true') return 'has-published-version-document';
  if (hasPublishedVersion === false || hasPublishedVersion === 'false') return 'never-published-document';
  throw new ValidationError('Invalid hasPublishedVersion parameter: expected true or false', { source: 'query', param: 'hasPublishedVersion' });
}

export interface CohortTable {
  /** qualified table of the content type */
  table: string;
  localized: boolean;
}

/**
 * The cohort as a condition on the row `alias` of a draft & publish table; `fresh` hands out
 * aliases for the sibling rows it looks at.
 */
export function cohortCondition(filter: PublicationFilter, t: CohortTable, alias: string, fresh: (prefix: string) => string): string {
  const c = (a: string, column: string) => `${a}.${quoteIdent(column)}`;
  const sibling = (published: boolean, sameLocale: boolean, extra = ''): string => {
    const s = fresh('pv');
    const conds = [`${c(s, COLUMNS.documentId)} = ${c(alias, COLUMNS.documentId)}`, `${c(s, COLUMNS.publishedAt)} IS ${published ? 'NOT ' : ''}NULL`];
    if (sameLocale && t.localized) conds.push(`${c(s, COLUMNS.locale)} = ${c(alias, COLUMNS.locale)}`);
    return `EXISTS (SELECT 1 FROM ${t.table} ${s} WHERE ${conds.join(' AND ')}${extra})`;
  };
  // Both rows of the pair exist and the draft was (or was not) updated after the published row.
  const compared = (newer: boolean): string => {
    const d = fresh('pd');
    const p = fresh('pp');
    const pair = [
      `${c(d, COLUMNS.documentId)} = ${c(alias, COLUMNS.documentId)}`, `${c(d, COLUMNS.publishedAt)} IS NULL`,
      `${c(p, COLUMNS.documentId)} = ${c(alias, COLUMNS.documentId)}`, `${c(p, COLUMNS.publishedAt)} IS NOT NULL`,
      `${c(d, COLUMNS.updatedAt)} ${newer ? '>' : '<='} ${c(p, COLUMNS.updatedAt)}`,
    ];
    if (t.localized) pair.push(`${c(d, COLUMNS.locale)} = ${c(alias, COLUMNS.locale)}`, `${c(p, COLUMNS.locale)} = ${c(alias, COLUMNS.locale)}`);
    return `EXISTS (SELECT 1 FROM ${t.table} ${d}, ${t.table} ${p} WHERE ${pair.join(' AND ')})`;
  };
  const isPublished = `${c(alias, COLUMNS.publishedAt)} IS NOT NULL`;
  switch (filter) {
    case 'never-published':
      return `NOT ${sibling(true, true)}`;
    case 'has-published-version':
      return `${sibling(true, true)} AND ${sibling(false, true)}`;
    case 'modified':
      return compared(true);
    case 'unmodified':
      return compared(false);
    case 'never-published-document':
      return `NOT ${sibling(true, false)}`;
    case 'has-published-version-document':
      return `${sibling(true, false)} AND ${sibling(false, false)}`;
    case 'published-without-draft':
      return `${isPublished} AND NOT ${sibling(false, true)}`;
    case 'published-with-draft':
      return `${isPublished} AND ${sibling(false, true)}`;
  }
}
