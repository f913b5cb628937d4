// Changing a file's information (name, alternative text, caption, focal point, folder) through the
// project's upload API, as Strapi's own admin does: `POST /api/upload?id=` with only `fileInfo`.
// The library is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { MediaFile } from '../components/media-file.ts';

export interface FileInfoChange {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
  focalPoint?: { x: number; y: number } | null;
  folder?: number | null;
}

export async function updateFile({ slug, id, fileInfo }: { slug: string; id: number; fileInfo: FileInfoChange }): Promise<MediaFile> {
  return contentApi<MediaFile>(slug, 'POST', `/api/upload?id=${id}`, { fileInfo });
}

export function useUpdateFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFile,
    onSuccess: (_file, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'media') }),
  });
}
