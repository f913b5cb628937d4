// The media library's folders (`GET /v1/projects/{slug}/media/folders`): every one, parents
// before children, siblings by name.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Folder = AnswerOf<'/v1/projects/{slug}/media/folders', 'get'>['folders'][number];

export async function getFolders(slug: string): Promise<Folder[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/media/folders', { params: { path: { slug } } }))).folders;
}

export const foldersQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'media', 'folders'), queryFn: () => getFolders(slug) });

export function useFolders(slug: string) {
  return useQuery(foldersQueryOptions(slug));
}
