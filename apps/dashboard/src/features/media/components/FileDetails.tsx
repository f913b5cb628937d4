// One file's details in a drawer: edit its name, alternative text, caption, focal point and
// folder; replace its content; copy its URL; delete it after a confirmation that lists the
// documents still using it. Viewers see the same, read-only.
import { Alert, Anchor, Button, Divider, Drawer, FileButton, Group, List, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { EditableArea } from '../../../components/ViewOnly.tsx';
import { fileUrl } from '../../../content-api.ts';
import { reportFormError } from '../../../lib/api-error.ts';
import { useDeleteFile } from '../api/delete-file.ts';
import { useFile } from '../api/get-file.ts';
import { useFileUsages, type FileUsage } from '../api/get-file-usages.ts';
import type { LibraryFile } from '../api/get-files.ts';
import type { Folder } from '../api/get-folders.ts';
import { useUpdateFile } from '../api/update-file.ts';
import { useUploader } from '../api/upload-files.ts';
import { absoluteUrl, formatSize, kindOf, previewUrl } from './file-kinds.ts';
import { pathLabel } from './folder-tree.ts';
import { FocalPointPicker, type FocalPoint } from './FocalPointPicker.tsx';
import { UploadList } from './UploadPanel.tsx';

interface Draft {
  name: string;
  alternativeText: string;
  caption: string;
  focalPoint: FocalPoint;
  folder: string;
}

const draftOf = (file: LibraryFile): Draft => ({
  name: file.name, alternativeText: file.alternativeText ?? '', caption: file.caption ?? '', focalPoint: file.focalPoint,
  folder: file.folder === null ? 'root' : String(file.folder),
});

export function FileDetails({ slug, file, folders, canEdit, onClose }: {
  slug: string; file: LibraryFile | null; folders: Folder[]; canEdit: boolean; onClose(): void;
}) {
  return (
    <Drawer opened={file !== null} onClose={onClose} position="right" size="lg" closeButtonProps={{ "aria-label": "Close" }} title={file ? `Details of ${file.name}` : 'File details'}>
      {file && <FileDetailsBody key={file.id} slug={slug} file={file} folders={folders} canEdit={canEdit} onClose={onClose} />}
    </Drawer>
  );
}

function FileDetailsBody({ slug, file: opened, folders, canEdit, onClose }: { slug: string; file: LibraryFile; folders: Folder[]; canEdit: boolean; onClose(): void }) {
  const [folder, setFolder] = useState(opened.folder);
  // The file as the upload API has it now (after a save or a replace, and while its new formats are made).
  const current = useFile(slug, opened);
  const updateFile = useUpdateFile();
  const deleteFile = useDeleteFile();
  const file: LibraryFile = { ...(current.data ?? opened), folder };
  const [draft, setDraft] = useState(() => draftOf(file));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [copied, setCopied] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // A replace reads the library again.
  const replacer = useUploader(slug, () => setMessage({ ok: true, text: 'File replaced.' }), `?id=${file.id}`);
  // A save or a replace changes updatedAt: show what the file holds now. (New formats or a
  // refetch of the same file leave what is being typed alone.)
  const updatedAt = current.data.updatedAt;
  useEffect(() => setDraft(draftOf({ ...current.data, folder })), [updatedAt, folder]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const url = absoluteUrl(slug, file.url);
  const image = kindOf(file.mime) === 'image' ? previewUrl(slug, file, 'small') : null;

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      const fileInfo = {
        name: draft.name.trim(),
        alternativeText: draft.alternativeText.trim() || null,
        caption: draft.caption.trim() || null,
        focalPoint: draft.focalPoint,
        folder: draft.folder === 'root' ? null : Number(draft.folder),
      };
      // The library is read again after the change.
      await updateFile.mutateAsync({ slug, id: file.id, fileInfo });
      setFolder(fileInfo.folder);
      setMessage({ ok: true, text: 'Saved.' });
    } catch (err) {
      // The API names fields as fileInfo.<key>.
      reportFormError(err, (fields) => setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^fileInfo\./, ''), v]))),
        (text) => setMessage({ ok: false, text }), 'Could not save the file');
    } finally {
      setSaving(false);
    }
  }

  async function copy() {
    await navigator.clipboard.writeText(url);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }

  const folderOptions = [{ value: 'root', label: 'Media library (no folder)' }, ...folders.map((f) => ({ value: String(f.id), label: pathLabel(folders, f) }))];

  return (
    <Stack>
      {image
        ? <FocalPointPicker src={image} value={draft.focalPoint} onChange={(p) => set('focalPoint', p)} disabled={!canEdit} />
        : kindOf(file.mime) === 'video'
          ? <video src={fileUrl(slug, file.url)} controls style={{ maxWidth: '100%', maxHeight: 260 }} aria-label={`Video ${file.name}`} />
          : kindOf(file.mime) === 'audio' ? <audio src={fileUrl(slug, file.url)} controls aria-label={`Audio ${file.name}`} /> : null}
      <Text size="sm" c="dimmed">
        {file.mime} · {formatSize(file.size)}{file.width && file.height ? ` · ${file.width}×${file.height} px` : ''} · added {new Date(file.createdAt).toLocaleString('en')}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <TextInput label="URL" value={url} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
        <Button variant="default" onClick={copy} mt={24} aria-label={copied ? 'Copied' : 'Copy URL'}>{copied ? 'Copied' : 'Copy URL'}</Button>
        <Anchor href={url} target="_blank" rel="noreferrer" mt={24} size="sm">Open</Anchor>
      </Group>
      <Divider />
      <EditableArea readOnly={!canEdit}>
        <form onSubmit={save} aria-label="File information">
          <Stack gap="sm">
            {message && <Alert color={message.ok ? 'teal' : 'red'} role={message.ok ? 'status' : 'alert'}>{message.text}</Alert>}
            <TextInput label="Name" value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} required maxLength={255} />
            <TextInput
              label="Alternative text" description="Describes the image for people who cannot see it (screen readers, failed loads)."
              value={draft.alternativeText} onChange={(e) => set('alternativeText', e.currentTarget.value)} error={errors.alternativeText}
            />
            <Textarea label="Caption" value={draft.caption} onChange={(e) => set('caption', e.currentTarget.value)} error={errors.caption} autosize minRows={2} />
            <Select label="Folder" data={folderOptions} value={draft.folder} onChange={(v) => set('folder', v ?? 'root')} allowDeselect={false} error={errors.folder} comboboxProps={{ withinPortal: true }} />
            {canEdit && <Group><Button type="submit" loading={saving}>Save</Button></Group>}
          </Stack>
        </form>
      </EditableArea>
      {canEdit && (
        <>
          <Divider />
          <Group justify="space-between">
            <FileButton onChange={(f) => f && replacer.add([f])} accept={file.mime.startsWith('image/') ? 'image/*' : undefined}>
              {(props) => <Button variant="default" {...props}>Replace file</Button>}
            </FileButton>
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>Delete file</Button>
          </Group>
          <UploadList uploader={replacer} />
          <ConfirmModal
            opened={deleting} onClose={() => setDeleting(false)} title={`Delete ${file.name}`} confirmLabel="Delete file"
            onConfirm={async () => {
              // What was read about the file is dropped; the listing and folders are read again.
              await deleteFile.mutateAsync({ slug, id: file.id });
              onClose();
            }}
          >
            <DeleteWarning slug={slug} fileId={file.id} />
          </ConfirmModal>
        </>
      )}
    </Stack>
  );
}

const usageText = (u: FileUsage) => `${u.label} (${u.uid.replace(/^api::[^.]+\./, '')}, ${u.field}${u.locale ? `, ${u.locale}` : ''}, ${u.status})`;

function DeleteWarning({ slug, fileId }: { slug: string; fileId: number }) {
  const usages = useFileUsages(slug, fileId);
  if (usages.isPending) return <Text size="sm">Checking where the file is used…</Text>;
  if (usages.isError) return <Text size="sm">The file and its formats will be deleted. (Where it is used could not be checked.)</Text>;
  if (usages.data.length === 0) return <Text size="sm">The file and its formats will be deleted. No document uses it.</Text>;
  return (
    <Stack gap="xs">
      <Alert color="orange" role="alert" title="This file is still in use">
        These documents will lose it:
        <List size="sm" mt={4} data-testid="file-usages">
          {usages.data.map((u) => <List.Item key={`${u.uid}/${u.documentId}/${u.locale}/${u.status}/${u.field}`}>{usageText(u)}</List.Item>)}
        </List>
      </Alert>
      <Text size="sm">The file and its formats will be deleted.</Text>
    </Stack>
  );
}
