// A page of files as a grid of cards (thumbnails from the generated formats) or as a table.
// In the library a file opens its details; in the picker it is selected instead.
import { AspectRatio, Badge, Center, Checkbox, Group, Image, Loader, Paper, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { extensionLabel, formatSize, previewUrl } from './file-kinds.ts';
import { awaitsFormats, type LibraryFile } from '../api/get-files.ts';

export interface FileSelection {
  selected: ReadonlySet<number>;
  toggle(file: LibraryFile): void;
  /** Files that may not be picked here (a type the field does not allow). */
  isAllowed(file: LibraryFile): boolean;
}

interface ViewProps {
  slug: string;
  files: LibraryFile[];
  onOpen(file: LibraryFile): void;
  selection?: FileSelection;
}

function meta(file: LibraryFile): string {
  const parts = [extensionLabel(file), formatSize(file.size)];
  if (file.width && file.height) parts.push(`${file.width}×${file.height}`);
  return parts.join(' · ');
}

export function FilePreview({ slug, file, height }: { slug: string; file: LibraryFile; height?: number }) {
  if (awaitsFormats(file)) {
    return (
      <Center h="100%" bg="gray.1" data-testid="thumbnail-pending">
        <Stack align="center" gap={4}><Loader size="sm" aria-hidden /><Text size="xs" c="dimmed">Making thumbnail…</Text></Stack>
      </Center>
    );
  }
  const src = previewUrl(slug, file);
  if (!src) {
    // No picture to show: the file's extension stands for it.
    return <Center h="100%" bg="gray.1"><Text fw={700} c="dimmed" size={height && height < 60 ? 'xs' : 'lg'} aria-hidden>{extensionLabel(file)}</Text></Center>;
  }
  // The name is next to it: the thumbnail itself is decorative here.
  return <Image src={src} alt="" h="100%" w="100%" fit="contain" bg="gray.1" data-testid="thumbnail" loading="lazy" />;
}

function Selectable({ file, selection, children }: { file: LibraryFile; selection: FileSelection; children: ReactNode }) {
  const allowed = selection.isAllowed(file);
  return (
    <Checkbox.Card
      checked={selection.selected.has(file.id)} onClick={() => allowed && selection.toggle(file)} disabled={!allowed}
      radius="md" withBorder p={0} style={{ opacity: allowed ? 1 : 0.5, cursor: allowed ? 'pointer' : 'not-allowed', overflow: 'hidden' }}
    >
      {children}
    </Checkbox.Card>
  );
}

export function FileGrid({ slug, files, onOpen, selection }: ViewProps) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 5 }} spacing="sm" role="list" aria-label="Files">
      {files.map((file) => {
        const body = (
          <Stack gap={0}>
            <AspectRatio ratio={4 / 3}><FilePreview slug={slug} file={file} /></AspectRatio>
            <Stack gap={2} p="xs">
              <Group gap={6} wrap="nowrap">
                {selection && <Checkbox.Indicator size="xs" disabled={!selection.isAllowed(file)} />}
                <Text size="sm" fw={500} truncate="end" title={file.name}>{file.name}</Text>
              </Group>
              <Text size="xs" c="dimmed" truncate="end">{meta(file)}</Text>
            </Stack>
          </Stack>
        );
        return (
          <div role="listitem" key={file.id} data-testid="media-file" data-name={file.name}>
            {selection
              ? <Selectable file={file} selection={selection}>{body}</Selectable>
              : (
                <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
                  <UnstyledButton onClick={() => onOpen(file)} w="100%">{body}</UnstyledButton>
                </Paper>
              )}
          </div>
        );
      })}
    </SimpleGrid>
  );
}

export function FileTable({ slug, files, onOpen, selection }: ViewProps) {
  return (
    <Table aria-label="Files" verticalSpacing={4} highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          {selection && <Table.Th><Text size="sm" fw={700} component="span">Pick</Text></Table.Th>}
          <Table.Th>Preview</Table.Th><Table.Th>Name</Table.Th><Table.Th>Type</Table.Th><Table.Th>Size</Table.Th><Table.Th>Updated</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {files.map((file) => (
          <Table.Tr key={file.id} data-testid="media-file" data-name={file.name}>
            {selection && (
              <Table.Td>
                <Checkbox
                  checked={selection.selected.has(file.id)} disabled={!selection.isAllowed(file)} onChange={() => selection.toggle(file)}
                  aria-label={`Select ${file.name}`}
                />
              </Table.Td>
            )}
            <Table.Td w={72}><div style={{ width: 56, height: 42 }}><FilePreview slug={slug} file={file} height={42} /></div></Table.Td>
            <Table.Td>
              {selection
                ? <Text size="sm">{file.name}</Text>
                : <UnstyledButton onClick={() => onOpen(file)} aria-label={`Details of ${file.name}`}><Text size="sm" td="underline">{file.name}</Text></UnstyledButton>}
              {file.alternativeText && <Text size="xs" c="dimmed">{file.alternativeText}</Text>}
            </Table.Td>
            <Table.Td><Badge variant="light" color="gray">{extensionLabel(file)}</Badge></Table.Td>
            <Table.Td>{formatSize(file.size)}{file.width && file.height ? ` · ${file.width}×${file.height}` : ''}</Table.Td>
            <Table.Td>{new Date(file.updatedAt).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' })}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
