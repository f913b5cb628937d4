// Browsing a project's media: folders, search, type filter, sort, grid or list, pages, and
// uploads into the folder being browsed. The library page opens files' details; the picker
// passes a selection instead.
import { Alert, Group, Pagination, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { PageError, PageLoader } from '../../../components/PageState.tsx';
import { useFiles, type LibraryFile } from '../api/get-files.ts';
import { useFolders } from '../api/get-folders.ts';
import { useUploader } from '../api/upload-files.ts';
import { KIND_LABELS, type FileKind } from './file-kinds.ts';
import { FileGrid, FileTable, type FileSelection } from './FileViews.tsx';
import { FolderBar } from './FolderBar.tsx';
import { UploadDropzone, UploadList } from './UploadPanel.tsx';

const SORTS = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'name:asc', label: 'Name (A to Z)' },
  { value: 'name:desc', label: 'Name (Z to A)' },
  { value: 'updatedAt:desc', label: 'Recently updated' },
  { value: 'size:desc', label: 'Largest first' },
];
const PAGE_SIZE = 24;

export interface MediaBrowserProps {
  slug: string;
  canEdit: boolean;
  folder: number | null;
  onFolderChange(folder: number | null): void;
  /** Open a file (the library's details drawer). */
  onOpen?(file: LibraryFile): void;
  /** Picking files (the media field's picker) instead of opening them. */
  selection?: FileSelection;
  /** The kinds that may be listed (a media field's allowed types); default: every kind. */
  kinds?: FileKind[];
  /** Files just uploaded (the picker selects them). */
  onUploaded?(files: LibraryFile[]): void;
}

export function MediaBrowser({ slug, canEdit, folder, onFolderChange, onOpen, selection, kinds, onUploaded }: MediaBrowserProps) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [type, setType] = useState<'all' | FileKind>('all');
  const [sort, setSort] = useState('createdAt:desc');
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [page, setPage] = useState(1);
  const folders = useFolders(slug);
  const types = type === 'all' ? kinds : [type];
  // A search looks in every folder; browsing shows one folder's files.
  const files = useFiles(slug, { folder: q ? undefined : folder ?? 'root', q, types, sort, page, pageSize: PAGE_SIZE });
  // The library is read again after each upload.
  const uploader = useUploader(slug, (uploaded) => onUploaded?.(uploaded));
  const resetPage = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  const openFolder = (id: number | null) => {
    setSearch('');
    setPage(1);
    onFolderChange(id);
  };
  const kindOptions = kinds ?? (['image', 'video', 'audio', 'file'] as FileKind[]);
  const data = files.data;

  return (
    <Stack>
      {canEdit && (
        <Stack gap="xs">
          <UploadDropzone onFiles={(dropped) => uploader.add(dropped, folder)} hint={`Drag files here to upload them to ${folder === null ? 'the library' : 'this folder'}, or`} />
          <UploadList uploader={uploader} />
        </Stack>
      )}
      <Group gap="sm" align="flex-end">
        <TextInput label="Search files" placeholder="Name contains…" value={search} onChange={(e) => resetPage(setSearch)(e.currentTarget.value)} w={220} type="search" />
        <Select
          label="Type" w={160} allowDeselect={false} value={type} onChange={(v) => resetPage(setType)((v ?? 'all') as 'all' | FileKind)}
          data={[{ value: 'all', label: kinds ? 'Allowed types' : 'All types' }, ...kindOptions.map((k) => ({ value: k, label: KIND_LABELS[k] }))]}
          comboboxProps={{ withinPortal: true }}
        />
        <Select label="Sort by" w={180} allowDeselect={false} value={sort} onChange={(v) => resetPage(setSort)(v ?? 'createdAt:desc')} data={SORTS} comboboxProps={{ withinPortal: true }} />
        <SegmentedControl
          aria-label="View" value={view} onChange={(v) => setView(v as 'grid' | 'list')}
          data={[{ value: 'grid', label: 'Grid' }, { value: 'list', label: 'List' }]}
        />
      </Group>
      {folders.isError && <PageError error={folders.error} title="Could not load the folders" />}
      {folders.data && !q && <FolderBar slug={slug} folders={folders.data} current={folder} onOpen={openFolder} canEdit={canEdit} />}
      {q && <Text size="sm" c="dimmed" role="status">Results for “{q}” in every folder</Text>}
      {files.isPending && <PageLoader label="Loading files…" />}
      {files.isError && <PageError error={files.error} title="Could not load the files" />}
      {data && data.files.length === 0 && (
        <Alert color="gray" role="status">
          {q || type !== 'all' ? 'No file matches.' : folder === null ? 'No files yet.' : 'This folder has no files.'}
          {canEdit && !q && ' Drop files above to upload them.'}
        </Alert>
      )}
      {data && data.files.length > 0 && (view === 'grid'
        ? <FileGrid slug={slug} files={data.files} onOpen={(f) => onOpen?.(f)} selection={selection} />
        : <FileTable slug={slug} files={data.files} onOpen={(f) => onOpen?.(f)} selection={selection} />)}
      {data && data.pagination.pageCount > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{data.pagination.total} files</Text>
          <Pagination
            total={data.pagination.pageCount} value={page} onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': control === 'next' ? 'Next page' : 'Previous page' })}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
          />
        </Group>
      )}
    </Stack>
  );
}
