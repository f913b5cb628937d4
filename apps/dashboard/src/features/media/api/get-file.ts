// One file as the project's upload API has it now (`GET /api/upload/files/{id}`, the content API):
// after a save or a replace, and while its new formats are made (read again every 1.5 s then).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { awaitsFormats, type LibraryFile } from './get-files.ts';

export async function getFile(slug: string, id: number): Promise<LibraryFile> {
  return contentApi<LibraryFile>(slug, 'GET', `/api/upload/files/${id}`);
}

/** Starts from the file as the listing had it (`listed`). */
export const fileQueryOptions = (slug: string, listed: LibraryFile) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'media', 'file', listed.id),
    queryFn: () => getFile(slug, listed.id),
    initialData: listed,
    refetchInterval: (q) => (q.state.data && awaitsFormats(q.state.data) ? 1500 : false),
  });

export function useFile(slug: string, listed: LibraryFile) {
  return useQuery(fileQueryOptions(slug, listed));
}
