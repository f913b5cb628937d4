// A document-locale's versions (`GET /v1/projects/{slug}/history`, § Content history): newest
// first, a page at a time (an infinite query: "Load more" reads the next page).
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type VersionPage = AnswerOf<'/v1/projects/{slug}/history', 'get'>;
export type HistoryVersion = VersionPage['data'][number];
export type HistoryOrigin = HistoryVersion['origin'];

/** The versions of one document-locale (`locale` null: a type without i18n). */
export interface HistoryTarget {
  slug: string;
  uid: string;
  documentId: string;
  locale: string | null;
}

const PAGE_SIZE = 20;

export async function getVersions(target: HistoryTarget, page: number): Promise<VersionPage> {
  const query = { contentType: target.uid, documentId: target.documentId, page, pageSize: PAGE_SIZE, ...(target.locale ? { locale: target.locale } : {}) };
  return unwrap(client.GET('/v1/projects/{slug}/history', { params: { path: { slug: target.slug }, query } }));
}

export const versionsQueryOptions = (target: HistoryTarget) =>
  infiniteQueryOptions({
    queryKey: projectKeys.feature(target.slug, 'history', 'versions', target.uid, target.documentId, target.locale ?? ''),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => getVersions(target, pageParam),
    getNextPageParam: ({ meta: { pagination } }) => (pagination.page < pagination.pageCount ? pagination.page + 1 : undefined),
  });

export function useVersions(target: HistoryTarget) {
  return useInfiniteQuery(versionsQueryOptions(target));
}
