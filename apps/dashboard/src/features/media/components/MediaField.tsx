// The content editor's media field: the picked files (thumbnails; remove; reorder when the field
// holds several) and a "Select media" button opening the media picker, where files can also be
// uploaded. The value is the files as the content API populates them; the editor sends their ids.
import { Button, Group, Input, Paper, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { extensionLabel, previewUrl } from './file-kinds.ts';
import type { MediaFile } from './media-file.ts';
import { MediaPickerModal } from './MediaPickerModal.tsx';

export type { MediaFile } from './media-file.ts';

export interface MediaFieldProps {
  slug: string;
  label: string;
  multiple: boolean;
  /** Strapi's `allowedTypes`: `images`, `videos`, `audios`, `files` (none: every type). */
  allowedTypes?: string[];
  value: MediaFile[];
  onChange(files: MediaFile[]): void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
}

function PickedFile({ slug, file, index, count, multiple, disabled, onRemove, onMove }: {
  slug: string; file: MediaFile; index: number; count: number; multiple: boolean; disabled?: boolean;
  onRemove(): void; onMove(by: -1 | 1): void;
}) {
  const src = previewUrl(slug, file);
  return (
    <Paper withBorder p={6} role="listitem" data-testid="picked-media" data-name={file.name}>
      <Group gap="sm" wrap="nowrap">
        <div style={{ width: 64, height: 48, flex: 'none', background: 'var(--mantine-color-gray-1)', display: 'grid', placeItems: 'center', overflow: 'hidden', borderRadius: 4 }}>
          {src
            ? <img src={src} alt={file.alternativeText ?? ''} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
            : <Text size="xs" fw={700} c="dimmed" aria-hidden>{extensionLabel(file)}</Text>}
        </div>
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" truncate="end">{file.name}</Text>
          <Text size="xs" c="dimmed">{file.mime}{file.width && file.height ? ` · ${file.width}×${file.height}` : ''}</Text>
        </Stack>
        {!disabled && (
          <Group gap={4} wrap="nowrap">
            {multiple && count > 1 && (
              <>
                <Button size="compact-xs" variant="subtle" color="gray" disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move up ${file.name}`}>Move up</Button>
                <Button size="compact-xs" variant="subtle" color="gray" disabled={index === count - 1} onClick={() => onMove(1)} aria-label={`Move down ${file.name}`}>Move down</Button>
              </>
            )}
            <Button size="compact-xs" variant="subtle" color="red" onClick={onRemove} aria-label={`Remove ${file.name}`}>Remove</Button>
          </Group>
        )}
      </Group>
    </Paper>
  );
}

export function MediaField({ slug, label, multiple, allowedTypes, value, onChange, error, required, disabled }: MediaFieldProps) {
  const [picking, setPicking] = useState(false);
  const id = useId();
  const action = multiple || value.length === 0 ? 'Select media' : 'Replace media';
  const move = (index: number, by: -1 | 1) => {
    const next = [...value];
    const [file] = next.splice(index, 1);
    next.splice(index + by, 0, file!);
    onChange(next);
  };
  const add = (picked: MediaFile[]) => {
    if (!multiple) return onChange(picked.slice(0, 1));
    // A file already in the field keeps its place.
    onChange([...value, ...picked.filter((p) => !value.some((v) => v.id === p.id))]);
  };
  return (
    <Input.Wrapper label={label} error={error} required={required} id={id} labelElement="div">
      <Stack gap="xs" mt={4} role="group" aria-label={label}>
        {value.length > 0 && (
          <Stack gap={6} role="list" aria-label={`${label}: selected files`}>
            {value.map((file, i) => (
              <PickedFile
                key={file.id} slug={slug} file={file} index={i} count={value.length} multiple={multiple} disabled={disabled}
                onRemove={() => onChange(value.filter((f) => f.id !== file.id))} onMove={(by) => move(i, by)}
              />
            ))}
          </Stack>
        )}
        {value.length === 0 && <Text size="sm" c="dimmed">No file selected.</Text>}
        {!disabled && (
          <Group>
            <Button variant="default" size="xs" onClick={() => setPicking(true)} aria-label={`${action} for ${label}`}>{action}</Button>
          </Group>
        )}
      </Stack>
      <MediaPickerModal
        slug={slug} opened={picking} onClose={() => setPicking(false)} multiple={multiple} allowedTypes={allowedTypes}
        onPick={add} title={`Select media for ${label}`}
      />
    </Input.Wrapper>
  );
}
