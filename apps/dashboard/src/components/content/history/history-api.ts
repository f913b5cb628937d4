// Content history through the management API (§ Content history): a document-locale's versions,
// newest first and a page at a time; a version's changes against the current document; restore.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../api.ts';
import type { DocumentStatus } from '../list-query.ts';

export type HistoryOrigin = 'rest' | 'graphql' | 'dashboard' | 'import' | 'release' | 'schedule' | 'restore';

export interface HistoryVersion {
  id: number;
  contentType: string;
  relatedDocumentId: string;
  locale: string | null;
  status: DocumentStatus;
  /** the document as the content API returns it; relations as {documentId, locale}, media as {id} */
  data: Record<string, unknown>;
  /** the type's attributes when the version was recorded */
  schema: Record<string, unknown>;
  origin: HistoryOrigin;
  createdAt: string;
  createdBy: { type: 'account' | 'apiToken' | 'user'; id: number | string; name: string | null } | null;
}

/** One changed attribute path (`title`, `seo.metaTitle`, `sections.1.title`): `before` in what the version is compared with, `after` in the version. */
export interface VersionChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** Links a restore left out: their document or file no longer exists. */
export type DroppedLink = { path: string; documentId: string } | { path: string; id: number | string };

/** The versions of one document-locale (`locale` null: a type without i18n). */
export interface HistoryTarget {
  slug: string;
  uid: string;
  documentId: string;
  locale: string | null;
}

const PAGE_SIZE = 20;

export const historyKey = ({ slug, uid, documentId, locale }: HistoryTarget) => ['content-history', slug, uid, documentId, locale ?? ''] as const;

interface VersionPage {
  data: HistoryVersion[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

export function useVersions(target: HistoryTarget) {
  return useInfiniteQuery({
    queryKey: historyKey(target),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ contentType: target.uid, documentId: target.documentId, page: String(pageParam), pageSize: String(PAGE_SIZE) });
      if (target.locale) query.set('locale', target.locale);
      return api<VersionPage>('GET', `/v1/projects/${target.slug}/history?${query}`);
    },
    getNextPageParam: ({ meta: { pagination } }) => (pagination.page < pagination.pageCount ? pagination.page + 1 : undefined),
  });
}

/** What changed between the version and the document as it is now. */
export function useChangesSince(slug: string, versionId: number) {
  return useQuery({
    queryKey: ['content-history-diff', slug, versionId],
    queryFn: async () => (await api<{ data: { changes: VersionChange[] } }>('GET', `/v1/projects/${slug}/history/${versionId}/diff?against=current`)).data.changes,
  });
}

export async function restoreVersion(slug: string, versionId: number): Promise<DroppedLink[]> {
  const answer = await api<{ data: { documentId: string }; meta?: { dropped?: DroppedLink[] } }>('PUT', `/v1/projects/${slug}/history/${versionId}/restore`);
  return answer.meta?.dropped ?? [];
}
