// The editor's actions: Save (the draft), Publish (save and publish at once), Unpublish, Discard
// draft and Delete (this locale or all), the last three after a confirmation; and the prompt
// shown when someone else changed the document since it was loaded.
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { useDeleteDocument } from '../api/delete-document.ts';
import { useDiscardDraft } from '../api/discard-draft.ts';
import { useUnpublishDocument } from '../api/unpublish-document.ts';
import type { VersionRef } from '../api/version-ref.ts';
import { hasDraftAndPublish, isLocalized } from './content-model.ts';
import type { DocumentStatus } from './list-query.ts';
import type { SaveKind } from './use-save.ts';

type Pending = 'unpublish' | 'discard' | 'delete' | null;

export function EditorActions({ versionRef, status, stored, localeLabel, busy, onSave, onDeleted }: {
  versionRef: VersionRef;
  status: DocumentStatus | null;
  /** the version exists (not a new document or locale version) */
  stored: boolean;
  localeLabel: string;
  busy: SaveKind | null;
  onSave(kind: SaveKind): void;
  onDeleted(): void;
}) {
  const [pending, setPending] = useState<Pending>(null);
  const unpublish = useUnpublishDocument();
  const discard = useDiscardDraft();
  const remove = useDeleteDocument();
  const [allLocales, setAllLocales] = useState('this');
  const dp = hasDraftAndPublish(versionRef.type);
  const localized = isLocalized(versionRef.type);
  const documentId = versionRef.documentId;
  const withId = documentId ? { ...versionRef, documentId } : null;
  const scope = localized ? ` (${localeLabel})` : '';
  return (
    <>
      <Group gap="xs" aria-label="Document actions" role="group">
        <Button type="submit" variant={dp ? 'default' : 'filled'} loading={busy === 'save'} disabled={busy !== null}>Save</Button>
        {dp && <Button onClick={() => onSave('publish')} loading={busy === 'publish'} disabled={busy !== null}>Publish</Button>}
        {dp && withId && (status === 'published' || status === 'modified') && (
          <Button variant="default" onClick={() => setPending('unpublish')}>Unpublish</Button>
        )}
        {dp && withId && status === 'modified' && <Button variant="default" onClick={() => setPending('discard')}>Discard draft</Button>}
        {stored && <Button variant="light" color="red" c="red.9" onClick={() => setPending('delete')}>Delete</Button>}
      </Group>
      <ConfirmModal
        opened={pending === 'unpublish'} onClose={() => setPending(null)} title="Unpublish" confirmLabel="Unpublish"
        onConfirm={async () => {
          // The document is read again.
          await unpublish.mutateAsync(withId!);
        }}
      >
        The published version{scope} is removed from the API; the draft stays and can be published again.
      </ConfirmModal>
      <ConfirmModal
        opened={pending === 'discard'} onClose={() => setPending(null)} title="Discard draft" confirmLabel="Discard draft"
        onConfirm={async () => {
          await discard.mutateAsync(withId!);
        }}
      >
        The draft{scope} goes back to the published version: its unpublished changes are lost.
      </ConfirmModal>
      <ConfirmModal
        opened={pending === 'delete'} onClose={() => setPending(null)} title="Delete" confirmLabel="Delete"
        onConfirm={async () => {
          await remove.mutateAsync({ ref: versionRef, allLocales: allLocales === 'all' });
          onDeleted();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">The document is deleted, draft and published versions alike. This cannot be undone.</Text>
          {localized && (
            <Radio.Group label="Delete" value={allLocales} onChange={setAllLocales}>
              <Stack gap={6} mt={6}>
                <Radio value="this" label={`Only ${localeLabel}`} />
                <Radio value="all" label="Every locale" />
              </Stack>
            </Radio.Group>
          )}
        </Stack>
      </ConfirmModal>
    </>
  );
}

/** Someone changed the document since the form was loaded: write over it, or load their version. */
export function ConflictModal({ opened, onOverwrite, onLoadTheirs, onClose }: { opened: boolean; onOverwrite(): void; onLoadTheirs(): void; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="This document was changed meanwhile">
      <Stack>
        <Text size="sm">
          Someone saved this document after you opened it. Overwrite their changes with yours, or load their version (your unsaved changes are lost).
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button variant="default" onClick={onLoadTheirs}>Load their version</Button>
          <Button color="red" onClick={onOverwrite}>Overwrite</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
