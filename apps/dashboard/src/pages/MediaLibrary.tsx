// The project's media library: browse folders and files (grid or list, search, type, sort),
// upload with per-file progress, and open a file to edit, replace, copy or delete it. The folder
// being browsed is in the URL (`?folder=12`), so back and reload keep it. Viewers only look.
import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { LibraryFile } from '../features/media/api/get-files.ts';
import { useFolders } from '../features/media/api/get-folders.ts';
import { FileDetails } from '../features/media/components/FileDetails.tsx';
import { MediaBrowser } from '../features/media/components/MediaBrowser.tsx';
import { useProjectRole } from '../features/projects/api/get-project.ts';

export function MediaLibraryPage() {
  const { slug = '' } = useParams();
  const { canEdit } = useProjectRole(slug);
  const [params, setParams] = useSearchParams();
  const folderParam = Number(params.get('folder'));
  const folder = Number.isSafeInteger(folderParam) && folderParam > 0 ? folderParam : null;
  const [open, setOpen] = useState<LibraryFile | null>(null);
  const folders = useFolders(slug);
  return (
    <Stack>
      <Title order={2}>Media library</Title>
      <Text size="sm" c="dimmed">
        Images, videos, audio and other files of the project. Images get thumbnail, small, medium and large formats once uploaded.
      </Text>
      <MediaBrowser
        slug={slug} canEdit={canEdit} folder={folder}
        onFolderChange={(id) => setParams(id === null ? {} : { folder: String(id) })}
        onOpen={setOpen}
      />
      <FileDetails slug={slug} file={open} folders={folders.data ?? []} canEdit={canEdit} onClose={() => setOpen(null)} />
    </Stack>
  );
}
