// Where a file is used (`GET /v1/projects/{slug}/media/files/{id}/usages`): every document version
// whose media fields link it, shown before the file is deleted.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type FileUsage = AnswerOf<'/v1/projects/{slug}/media/files/{id}/usages', 'get'>['usages'][number];

export async function getFileUsages(slug: string, fileId: number): Promise<FileUsage[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/media/files/{id}/usages', { params: { path: { slug, id: fileId } } }))).usages;
}

export const fileUsagesQueryOptions = (slug: string, fileId: number) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'media', 'usages', fileId), queryFn: () => getFileUsages(slug, fileId) });

export function useFileUsages(slug: string, fileId: number) {
  return useQuery(fileUsagesQueryOptions(slug, fileId));
}
