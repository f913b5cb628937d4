// Drop files (or choose them) to upload; each file gets its own progress bar with cancel, and
// retry when it failed.
import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useDropzone } from 'react-dropzone';
import type { Uploader, UploadState } from '../api/upload-files.ts';

export function UploadDropzone({ onFiles, disabled, multiple = true, hint }: {
  onFiles(files: File[]): void; disabled?: boolean; multiple?: boolean; hint?: string;
}) {
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({ onDrop: onFiles, disabled, multiple, noClick: true, noKeyboard: true });
  return (
    <Paper
      {...getRootProps({ 'aria-label': 'Upload files: drop them here or choose them' } as Record<string, unknown>)}
      withBorder p="md" data-testid="media-dropzone"
      style={{ borderStyle: 'dashed', background: isDragActive ? 'var(--mantine-color-indigo-0)' : undefined }}
    >
      <input {...getInputProps()} aria-label="Files to upload" data-testid="media-file-input" />
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{isDragActive ? 'Drop the files to upload them' : hint ?? 'Drag files here to upload them, or'}</Text>
        <Button variant="default" onClick={open} disabled={disabled}>Choose files</Button>
      </Group>
    </Paper>
  );
}

function UploadRow({ item, uploader }: { item: UploadState; uploader: Uploader }) {
  const label = item.status === 'done' ? 'Uploaded' : item.status === 'failed' ? 'Failed' : item.status === 'waiting' ? 'Waiting' : `${item.percentage}%`;
  return (
    <Stack gap={4} data-testid="upload-item" data-status={item.status}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" truncate="end" style={{ minWidth: 0 }}>{item.name}</Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c={item.status === 'failed' ? 'red.9' : 'dimmed'}>{label}</Text>
          {item.status === 'failed' && (
            <Button size="compact-xs" variant="light" onClick={() => uploader.retry(item.id)} aria-label={`Retry ${item.name}`}>Retry</Button>
          )}
          {item.status !== 'done' && (
            <Button size="compact-xs" variant="subtle" color="gray" onClick={() => uploader.cancel(item.id)} aria-label={`Cancel ${item.name}`}>Cancel</Button>
          )}
        </Group>
      </Group>
      <Progress
        value={item.status === 'done' ? 100 : item.percentage} color={item.status === 'failed' ? 'red' : item.status === 'done' ? 'teal' : undefined}
        aria-label={`Upload of ${item.name}`} size="sm" transitionDuration={0}
      />
      {item.error && <Text size="xs" c="red.9" role="alert">{item.error}</Text>}
    </Stack>
  );
}

export function UploadList({ uploader }: { uploader: Uploader }) {
  if (uploader.items.length === 0) return null;
  const finished = uploader.items.filter((i) => i.status === 'done' || i.status === 'failed').length;
  return (
    <Paper withBorder p="sm" aria-label="Uploads" component="section">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text size="sm" fw={500}>Uploads ({finished} of {uploader.items.length} finished)</Text>
          {finished > 0 && <Button size="compact-xs" variant="subtle" onClick={uploader.clearFinished}>Clear finished</Button>}
        </Group>
        {uploader.items.map((item) => <UploadRow key={item.id} item={item} uploader={uploader} />)}
      </Stack>
    </Paper>
  );
}

