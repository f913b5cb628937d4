// Deleting a file and its formats through the project's upload API (`DELETE /api/upload/files/{id}`):
// what was read about it is dropped (not read again), the listing and folders' counts are.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { MediaFile } from '../components/media-file.ts';

export async function deleteFile({ slug, id }: { slug: string; id: number }): Promise<MediaFile> {
  return contentApi<MediaFile>(slug, 'DELETE', `/api/upload/files/${id}`);
}

export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    // Not awaited: the file's details close as soon as it is deleted (what reads them is gone).
    onSuccess: (_file, { slug, id }) => {
      queryClient.removeQueries({ queryKey: projectKeys.feature(slug, 'media', 'file', id) });
      queryClient.removeQueries({ queryKey: projectKeys.feature(slug, 'media', 'usages', id) });
      for (const part of ['files', 'folders'] as const) void queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'media', part) });
    },
  });
}
