// Picks an image of the project's media library for the blocks editor, with its alternative text.
// The image block stores the file object as Strapi's editor does.
import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState, type FormEvent } from 'react';
import { fileUrl } from '../../content-api.ts';
import { useImages, type UploadFile } from '../../features/media/api/get-images.ts';

/** The file object an image block holds (Strapi's fields, without the library's ids). */
export function imageOfFile(file: UploadFile, alternativeText: string): Record<string, unknown> {
  const { name, caption, width, height, formats, hash, ext, mime, size, url, previewUrl, provider, createdAt, updatedAt } = file;
  return { name, alternativeText: alternativeText || null, url, caption, width, height, formats, hash, ext, mime, size, previewUrl, provider, createdAt, updatedAt };
}

const PAGE = 30;

export function ImagePickerModal({ slug, opened, onInsert, onClose }: {
  slug: string;
  opened: boolean;
  onInsert(image: Record<string, unknown>): void;
  onClose(): void;
}) {
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search.trim(), 250);
  const [shown, setShown] = useState(PAGE);
  // Read on every opening (never stale-cached): uploads made meanwhile show up.
  const files = useImages(slug, typed, shown, opened);
  const [picked, setPicked] = useState<UploadFile | null>(null);
  const [alt, setAlt] = useState('');
  useEffect(() => {
    if (opened) {
      setPicked(null);
      setAlt('');
      setSearch('');
      setShown(PAGE);
    }
  }, [opened]);
  useEffect(() => setShown(PAGE), [typed]);
  const images = files.data?.slice(0, shown);
  const more = (files.data?.length ?? 0) > shown;

  function pick(file: UploadFile) {
    setPicked(file);
    setAlt(file.alternativeText ?? '');
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    // React events bubble through the modal's portal: the document form around must not submit.
    event.stopPropagation();
    if (picked) onInsert(imageOfFile(picked, alt.trim()));
  }

  // returnFocus off: the blocks editor takes the focus back itself.
  return (
    <Modal opened={opened} onClose={onClose} returnFocus={false} title="Insert an image" size="lg">
      <form onSubmit={submit}>
        <Stack>
          {files.isPending && <Group gap="xs"><Loader size="sm" aria-hidden /><Text size="sm">Loading the media library…</Text></Group>}
          {files.isError && <Alert color="red" role="alert">Could not load the media library: {files.error.message}</Alert>}
          <TextInput label="Search images" placeholder="Part of a file name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} autoComplete="off" />
          {images?.length === 0 && (
            <Text size="sm">{typed ? `No image's name contains “${typed}”.` : 'No images in the media library yet: upload some in the Media library first.'}</Text>
          )}
          {images && images.length > 0 && (
            <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs" role="group" aria-label="Images of the media library">
              {images.map((file) => (
                <UnstyledButton
                  key={file.id} onClick={() => pick(file)} aria-pressed={picked?.id === file.id}
                  style={{ border: `2px solid ${picked?.id === file.id ? 'var(--mantine-primary-color-filled)' : 'transparent'}`, borderRadius: 6, padding: 2 }}
                >
                  <img src={fileUrl(slug, file.formats?.thumbnail?.url ?? file.url)} alt="" style={{ width: '100%', height: 72, objectFit: 'cover', display: 'block' }} />
                  <Text size="xs" truncate>{file.name}</Text>
                </UnstyledButton>
              ))}
            </SimpleGrid>
          )}
          {more && <Button variant="light" onClick={() => setShown((n) => n + PAGE)} loading={files.isFetching}>Show more images</Button>}
          <TextInput label="Alternative text" description="Describes the image to people who cannot see it" value={alt}
            onChange={(e) => setAlt(e.currentTarget.value)} disabled={!picked} autoComplete="off" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" disabled={!picked}>Insert image</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
