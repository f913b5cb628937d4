// Drop a schema.json, several, or a whole Strapi project folder (or pick one): its content types
// and components go into the working copy, to be reviewed and applied like any other edit.
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useCallback, useRef } from 'react';
import { useDropzone } from 'react-dropzone';
import type { DroppedFile } from '../../../model/import.ts';

/** react-dropzone and folder inputs give where a file sits in what was dropped. */
function pathOf(file: File): string {
  const withPath = file as File & { path?: string; relativePath?: string };
  return withPath.relativePath || withPath.path || file.webkitRelativePath || file.name;
}

async function read(files: File[]): Promise<DroppedFile[]> {
  // Only JSON is read; a project's other files (code, configs, lockfiles) are listed as skipped.
  return Promise.all(files.map(async (f) => ({ path: pathOf(f), text: pathOf(f).endsWith('.json') && f.size < 5_000_000 ? await f.text() : '' })));
}

export function ImportDropzone({ onFiles }: { onFiles(files: DroppedFile[]): void }) {
  const folder = useRef<HTMLInputElement | null>(null);
  const onDrop = useCallback(async (accepted: File[]) => onFiles(await read(accepted)), [onFiles]);
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({ onDrop, noClick: true, noKeyboard: true });
  return (
    <Paper
      withBorder p="md" {...getRootProps()}
      style={{ borderStyle: 'dashed', background: isDragActive ? 'var(--mantine-color-indigo-0)' : undefined }}
    >
      <input {...getInputProps()} aria-label="Schema files" accept=".json,application/json" data-testid="import-files" />
      <input
        type="file" hidden multiple aria-label="Strapi project folder" data-testid="import-folder"
        ref={(el) => {
          folder.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        onChange={async (e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          onFiles(await read(files));
        }}
      />
      <Stack gap={4} align="center">
        <Text fw={500}>{isDragActive ? 'Drop to import' : 'Import a model'}</Text>
        <Text size="sm" c="dimmed" ta="center">
          Drop schema.json files or a whole Strapi v5 project folder here (src/api/*/content-types/*/schema.json and src/components/*/*.json are read).
        </Text>
        <Group gap="xs" mt={4}>
          <Button size="xs" variant="default" onClick={open}>Choose files</Button>
          <Button size="xs" variant="default" onClick={() => folder.current?.click()}>Choose a project folder</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
