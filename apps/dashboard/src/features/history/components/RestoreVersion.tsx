// Restore: the version's content becomes the entry's draft, after a confirmation.
import { Button } from '@mantine/core';
import { useState } from 'react';
import { dateTimeSeconds } from '../../../dates.ts';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import type { HistoryVersion } from '../api/get-versions.ts';
import { useRestoreVersion, type DroppedLink } from '../api/restore-version.ts';

export function RestoreVersion({ slug, version, label, draftAndPublish, onRestored }: {
  slug: string; version: HistoryVersion; label: string; draftAndPublish: boolean; onRestored(dropped: DroppedLink[]): void;
}) {
  const when = dateTimeSeconds(version.createdAt);
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreVersion();
  return (
    <>
      <Button variant="default" onClick={() => setConfirming(true)}>Restore</Button>
      <ConfirmModal
        opened={confirming} onClose={() => setConfirming(false)} title={`Restore ${label}`} confirmLabel="Restore"
        onConfirm={async () => onRestored(await restore.mutateAsync({ slug, version }))}
      >
        {draftAndPublish
          ? `The entry’s draft becomes this version’s content (${when}); a published entry keeps its published version until you publish again.`
          : `The entry’s content becomes this version’s (${when}).`}
        {' '}Unsaved changes in the form are lost. Links to entries or files deleted since are left out.
      </ConfirmModal>
    </>
  );
}
