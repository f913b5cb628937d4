// When a document version's draft (or, with `published`, its published row) was last written,
// through the project's content API: the status badge's published stamp, and the save's conflict
// check (read just before writing).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { projectKeys } from '../../../lib/query-keys.ts';
import { isSingleType } from '../components/content-model.ts';
import { draftStatus, findVersion, singleStamps, type VersionRef } from './version-ref.ts';

/** The stamp; null: the version does not exist. */
export async function getVersionStamp(ref: VersionRef, published = false): Promise<string | null> {
  if (isSingleType(ref.type)) return (await singleStamps(ref, [ref.locale], published))[0]!;
  const status = published ? { status: 'published' } : draftStatus(ref.type);
  return (await findVersion<{ updatedAt: string }>(ref, { ...status, fields: ['updatedAt'] }))?.updatedAt ?? null;
}

/** The published row's stamp (draft & publish types): read with the draft, again with it. */
export const publishedStampQueryOptions = (ref: VersionRef) =>
  queryOptions({
    queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'document', ref.documentId ?? '', ref.locale ?? '', 'published'),
    queryFn: () => getVersionStamp(ref, true),
    staleTime: Infinity,
  });

export function usePublishedStamp(ref: VersionRef, enabled: boolean) {
  return useQuery({ ...publishedStampQueryOptions(ref), enabled });
}
