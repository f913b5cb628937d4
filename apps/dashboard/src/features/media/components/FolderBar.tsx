// The folder being browsed: a breadcrumb from the library's root, its sub-folders as tiles to
// open, and (for editors) creating, renaming, moving and deleting folders.
import { Alert, Anchor, Box, Breadcrumbs, Button, Group, Menu, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { useCreateFolder } from '../api/create-folder.ts';
import { useDeleteFolder } from '../api/delete-folder.ts';
import type { Folder } from '../api/get-folders.ts';
import { useUpdateFolder } from '../api/update-folder.ts';
import { ancestorsOf, childrenOf, moveTargets, pathLabel, subtreeOf } from './folder-tree.ts';

const ROOT_LABEL = 'Media library';

type Editing = { kind: 'create' } | { kind: 'rename'; folder: Folder } | { kind: 'move'; folder: Folder } | { kind: 'delete'; folder: Folder };

export function FolderBar({ slug, folders, current, onOpen, canEdit }: {
  slug: string; folders: Folder[]; current: number | null; onOpen(folder: number | null): void; canEdit: boolean;
}) {
  const [editing, setEditing] = useState<Editing | null>(null);
  // Each change reads the library again.
  const createFolder = useCreateFolder();
  const updateFolder = useUpdateFolder();
  const deleteFolder = useDeleteFolder();
  const trail = ancestorsOf(folders, current);
  const children = childrenOf(folders, current);
  const close = () => setEditing(null);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Box component="nav" aria-label="Folder">
          <Breadcrumbs separatorMargin={6}>
            {[null, ...trail.map((f) => f.id)].map((id, i) => {
              const name = id === null ? ROOT_LABEL : trail[i - 1]!.name;
              const last = i === trail.length;
              return last
                ? <Text key={id ?? 'root'} fw={600} aria-current="location">{name}</Text>
                : <Anchor key={id ?? 'root'} component="button" type="button" onClick={() => onOpen(id)}>{name}</Anchor>;
            })}
          </Breadcrumbs>
        </Box>
        {canEdit && <Button variant="default" size="xs" onClick={() => setEditing({ kind: 'create' })}>New folder</Button>}
      </Group>
      {children.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 6 }} spacing="sm" role="list" aria-label="Folders">
          {children.map((folder) => (
            <Paper key={folder.id} withBorder p="xs" role="listitem">
              <Group justify="space-between" wrap="nowrap" gap={4}>
                <UnstyledButton onClick={() => onOpen(folder.id)} style={{ minWidth: 0, flex: 1 }} data-testid="folder-tile">
                  <Group gap={6} wrap="nowrap"><FolderIcon /><Text size="sm" fw={500} truncate="end">{folder.name}</Text></Group>
                  <Text size="xs" c="dimmed">{folder.fileCount} {folder.fileCount === 1 ? 'file' : 'files'}</Text>
                </UnstyledButton>
                {canEdit && (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button size="compact-xs" variant="subtle" color="gray" aria-label={`Actions for folder ${folder.name}`}>⋯</Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setEditing({ kind: 'rename', folder })}>Rename</Menu.Item>
                      <Menu.Item onClick={() => setEditing({ kind: 'move', folder })}>Move</Menu.Item>
                      <Menu.Item color="red" onClick={() => setEditing({ kind: 'delete', folder })}>Delete</Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                )}
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {(editing?.kind === 'create' || editing?.kind === 'rename') && (
        <FolderNameModal
          title={editing.kind === 'create' ? 'New folder' : `Rename folder ${editing.folder.name}`}
          initial={editing.kind === 'rename' ? editing.folder.name : ''}
          submitLabel={editing.kind === 'create' ? 'Create folder' : 'Rename'}
          onClose={close}
          onSubmit={async (name) => {
            if (editing.kind === 'create') await createFolder.mutateAsync({ slug, body: { name, parent: current } });
            else await updateFolder.mutateAsync({ slug, id: editing.folder.id, body: { name } });
          }}
        />
      )}
      {editing?.kind === 'move' && (
        <MoveFolderModal slug={slug} folders={folders} folder={editing.folder} onClose={close} />
      )}
      <ConfirmModal
        opened={editing?.kind === 'delete'} onClose={close}
        title={editing?.kind === 'delete' ? `Delete folder ${editing.folder.name}` : 'Delete folder'} confirmLabel="Delete folder"
        onConfirm={async () => {
          if (editing?.kind !== 'delete') return;
          await deleteFolder.mutateAsync({ slug, id: editing.folder.id });
          if (current !== null && subtreeOf(folders, editing.folder).some((f) => f.id === current)) onOpen(editing.folder.parent);
        }}
      >
        {editing?.kind === 'delete' && <DeleteFolderText folders={folders} folder={editing.folder} />}
      </ConfirmModal>
    </Stack>
  );
}

function DeleteFolderText({ folders, folder }: { folders: Folder[]; folder: Folder }) {
  const tree = subtreeOf(folders, folder);
  const files = tree.reduce((n, f) => n + f.fileCount, 0);
  const subfolders = tree.length - 1;
  return (
    <Text size="sm">
      {files === 0 && subfolders === 0
        ? 'The folder is empty.'
        : `Its ${subfolders ? `${subfolders} sub-folder${subfolders === 1 ? '' : 's'} and ` : ''}${files} file${files === 1 ? '' : 's'} will be deleted with it, `
          + 'and documents that use those files will no longer show them.'}
    </Text>
  );
}

function FolderNameModal({ title, initial, submitLabel, onClose, onSubmit }: {
  title: string; initial: string; submitLabel: string; onClose(): void; onSubmit(name: string): Promise<void>;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened onClose={onClose} title={title}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (!name.trim()) return setError('Enter a name');
          setBusy(true);
          setError(null);
          try {
            await onSubmit(name.trim());
            onClose();
          } catch (err) {
            setError(err instanceof ApiError ? err.fieldErrors().name ?? err.message : 'Could not save the folder');
          } finally {
            setBusy(false);
          }
        }}
      >
        <Stack>
          <TextInput label="Folder name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} maxLength={100} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>{submitLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function MoveFolderModal({ slug, folders, folder, onClose }: { slug: string; folders: Folder[]; folder: Folder; onClose(): void }) {
  const updateFolder = useUpdateFolder();
  const [target, setTarget] = useState<string>(folder.parent === null ? 'root' : String(folder.parent));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const options = [{ value: 'root', label: ROOT_LABEL }, ...moveTargets(folders, folder).map((f) => ({ value: String(f.id), label: pathLabel(folders, f) }))];
  return (
    <Modal opened onClose={onClose} title={`Move folder ${folder.name}`}>
      <Stack>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Select label="Move to" data={options} value={target} onChange={(v) => setTarget(v ?? 'root')} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button
            loading={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await updateFolder.mutateAsync({ slug, id: folder.id, body: { parent: target === 'root' ? null : Number(target) } });
                onClose();
              } catch (err) {
                setError(err instanceof Error ? err.message : 'Could not move the folder');
              } finally {
                setBusy(false);
              }
            }}
          >
            Move
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function FolderIcon() {
  return (
    <svg aria-hidden width="16" height="16" viewBox="0 0 24 24" style={{ flex: 'none' }}>
      <path fill="var(--mantine-color-indigo-6)" d="M3 5a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </svg>
  );
}
