// Is a uid value already another document's (drafts included, in this locale)? Through the
// project's content API, as the uid field is typed in.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { typePath } from '../components/content-model.ts';
import { draftStatus, localeOf, type VersionRef } from './version-ref.ts';

export async function isUidTaken(ref: VersionRef, field: string, value: string): Promise<boolean> {
  const filters: Record<string, unknown> = { [field]: { $eq: value } };
  if (ref.documentId) filters.documentId = { $ne: ref.documentId };
  const query = strapiQuery({ ...draftStatus(ref.type), ...localeOf(ref), filters, fields: ['documentId'], pagination: { pageSize: 1 } });
  const { meta } = await contentApi<{ meta: { pagination: { total: number } } }>(ref.slug, 'GET', `${typePath(ref.type)}${query}`);
  return meta.pagination.total > 0;
}

export const uidTakenQueryOptions = (ref: VersionRef, field: string, value: string) =>
  queryOptions({
    queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'uid-taken', ref.locale ?? '', ref.documentId ?? '', field, value),
    queryFn: () => isUidTaken(ref, field, value),
    staleTime: 5_000,
  });

export function useUidTaken(ref: VersionRef, field: string, value: string, enabled: boolean) {
  return useQuery({ ...uidTakenQueryOptions(ref, field, value), enabled });
}
