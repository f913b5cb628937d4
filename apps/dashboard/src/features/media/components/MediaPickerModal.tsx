// The media picker: browse folders, search, upload right there, and pick one file (single media
// field) or several (multiple), only of the field's allowed types.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useProjectRole } from '../../projects/api/get-project.ts';
import { allowedKinds, kindOf } from './file-kinds.ts';
import type { FileSelection } from './FileViews.tsx';
import { MediaBrowser } from './MediaBrowser.tsx';
import type { LibraryFile } from '../api/get-files.ts';
import type { MediaFile } from './media-file.ts';

export function MediaPickerModal({ slug, opened, onClose, multiple, allowedTypes, onPick, title }: {
  slug: string; opened: boolean; onClose(): void; multiple: boolean; allowedTypes?: string[]; onPick(files: MediaFile[]): void; title: string;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="80rem">
      {opened && <PickerBody slug={slug} multiple={multiple} allowedTypes={allowedTypes} onPick={onPick} onClose={onClose} />}
    </Modal>
  );
}

/** What a media field keeps of a file (the content API's populated shape). */
export const toMediaFile = ({ id, name, url, mime, alternativeText, formats, width, height }: MediaFile): MediaFile =>
  ({ id, name, url, mime, alternativeText, formats, width: width ?? null, height: height ?? null });

function PickerBody({ slug, multiple, allowedTypes, onPick, onClose }: {
  slug: string; multiple: boolean; allowedTypes?: string[]; onPick(files: MediaFile[]): void; onClose(): void;
}) {
  const { canEdit } = useProjectRole(slug);
  const kinds = allowedKinds(allowedTypes);
  const [folder, setFolder] = useState<number | null>(null);
  // In pick order (a multiple field keeps it).
  const [picked, setPicked] = useState<LibraryFile[]>([]);
  const isAllowed = (file: LibraryFile) => kinds.includes(kindOf(file.mime));
  const toggle = (file: LibraryFile) => setPicked((current) => {
    if (current.some((f) => f.id === file.id)) return current.filter((f) => f.id !== file.id);
    return multiple ? [...current, file] : [file];
  });
  const selection: FileSelection = { selected: new Set(picked.map((f) => f.id)), toggle, isAllowed };
  const restricted = kinds.length < 4;
  return (
    <Stack>
      {restricted && <Text size="sm" c="dimmed">This field accepts {kinds.map((k) => ({ image: 'images', video: 'videos', audio: 'audio', file: 'other files' })[k]).join(', ')}.</Text>}
      <MediaBrowser
        slug={slug} canEdit={canEdit} folder={folder} onFolderChange={setFolder} selection={selection} kinds={restricted ? kinds : undefined}
        // What was just uploaded here is what the user wants: select it.
        onUploaded={(files) => files.filter(isAllowed).forEach((f) => setPicked((current) =>
          current.some((c) => c.id === f.id) ? current : multiple ? [...current, f] : [f]))}
      />
      <Group justify="space-between" pos="sticky" bottom={0} bg="var(--mantine-color-body)" py="sm">
        <Text size="sm" role="status">{picked.length === 0 ? 'No file selected' : `${picked.length} selected`}</Text>
        <Group>
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button disabled={picked.length === 0} onClick={() => { onPick(picked.map(toMediaFile)); onClose(); }}>
            {!multiple ? 'Select file' : picked.length === 0 ? 'Add files' : `Add ${picked.length} ${picked.length === 1 ? 'file' : 'files'}`}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
