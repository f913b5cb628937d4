// A page of a collection type's documents through the project's content API: the drafts with the
// chosen columns, then (draft & publish types) one more call for the published rows of the same
// documents, which gives each row its status. Followed live: another member's edit, or any API
// write, reads the list again.
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { followLive } from '../../../live.ts';
import { hasDraftAndPublish, isLocalized, typePath, type ContentType } from '../components/content-model.ts';
import { filtersQuery, statusOf, type DocumentStatus, type ListState } from '../components/list-query.ts';

export interface ListRow extends Record<string, unknown> {
  documentId: string;
  updatedAt: string;
  status?: DocumentStatus;
}

export interface ListPage {
  rows: ListRow[];
  /** the page and size the API answered (the list shows them until the next page arrives) */
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
}

export async function getDocuments(slug: string, type: ContentType, state: ListState, columns: string[]): Promise<ListPage> {
  const dp = hasDraftAndPublish(type);
  const locale = isLocalized(type) && state.locale ? { locale: state.locale } : {};
  const query = strapiQuery({
    ...(dp ? { status: 'draft' } : {}), ...locale,
    fields: [...new Set([...columns, 'updatedAt'])],
    ...(state.q ? { _q: state.q } : {}),
    filters: filtersQuery(state.filters),
    sort: state.sort ? [`${state.sort.field}:${state.sort.desc ? 'desc' : 'asc'}`] : undefined,
    pagination: { page: state.page, pageSize: state.pageSize },
  });
  const { data, meta } = await contentApi<{ data: ListRow[]; meta: { pagination: { page: number; pageSize: number; total: number; pageCount: number } } }>(slug, 'GET', `${typePath(type)}${query}`);
  let rows = data;
  if (dp && data.length) {
    const published = strapiQuery({
      status: 'published', ...locale, filters: { documentId: { $in: data.map((d) => d.documentId) } }, fields: ['updatedAt'], pagination: { pageSize: data.length },
    });
    const answer = await contentApi<{ data: Array<{ documentId: string; updatedAt: string }> }>(slug, 'GET', `${typePath(type)}${published}`);
    const stamps = new Map(answer.data.map((d) => [d.documentId, d.updatedAt]));
    rows = data.map((d) => ({ ...d, status: statusOf(d.updatedAt, stamps.get(d.documentId)) }));
  }
  const { page, pageSize, total, pageCount } = meta.pagination;
  return { rows, page, pageSize, total, pageCount };
}

export const documentsQueryOptions = (slug: string, type: ContentType, state: ListState, columns: string[]) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'content', type.uid, 'list', state, columns),
    queryFn: () => getDocuments(slug, type, state, columns),
    placeholderData: keepPreviousData,
  });

export function useDocuments(slug: string, type: ContentType, state: ListState, columns: string[]) {
  return useQuery(documentsQueryOptions(slug, type, state, columns));
}

/** Read the type's lists again whenever one of its documents changes (the project's live stream). */
export function useLiveDocuments(slug: string, uid: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    void followLive(slug, [uid], () => void queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'content', uid, 'list') }), controller.signal);
    return () => controller.abort();
  }, [slug, uid, queryClient]);
}
