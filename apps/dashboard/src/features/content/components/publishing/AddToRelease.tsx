// The editor's "Add to release": pick a pending release and whether it publishes or unpublishes
// this entry (in this locale).
import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PageError, PageLoader } from '../../../../components/PageState.tsx';
import { useAddReleaseAction } from '../../../releases/api/add-release-action.ts';
import type { ActionType } from '../../../releases/api/get-release-actions.ts';
import { usePendingReleases } from '../../../releases/api/get-releases.ts';
import { ActionTypeRadio } from './ActionTypeRadio.tsx';
import { localeField, type EntryTarget } from './entry-target.ts';

export function AddToRelease({ target }: { target: EntryTarget }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>Add to release</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Add to release">
        {opened && <AddToReleaseForm target={target} onDone={() => setOpened(false)} />}
      </Modal>
    </>
  );
}

function AddToReleaseForm({ target, onDone }: { target: EntryTarget; onDone(): void }) {
  const releases = usePendingReleases(target.slug);
  const addAction = useAddReleaseAction();
  const [releaseId, setReleaseId] = useState<string | null>(null);
  const [type, setType] = useState<ActionType>('publish');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (releases.isPending) return <PageLoader label="Loading releases…" />;
  if (releases.isError) return <PageError error={releases.error} title="Could not load the releases" />;
  if (releases.data.length === 0) {
    return (
      <Text>
        No pending release. Create one on the <Anchor component={Link} to={`/projects/${target.slug}/releases`}>Releases</Anchor> page first.
      </Text>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const release = releases.data!.find((r) => String(r.id) === releaseId);
    if (!release) return setError('Choose a release');
    setBusy(true);
    setError(null);
    try {
      await addAction.mutateAsync({
        slug: target.slug, releaseId: release.id, body: { contentType: target.uid, entryDocumentId: target.documentId, type, ...localeField(target) },
      });
      notifications.show({ color: 'teal', message: `Added to “${release.name}”` });
      onDone();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not add the entry');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Add to release">
      <Stack>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Select
          label="Release" placeholder="Choose a release" data={releases.data.map((r) => ({ value: String(r.id), label: r.name }))}
          value={releaseId} onChange={setReleaseId} searchable withAsterisk
        />
        <ActionTypeRadio value={type} onChange={setType} />
        {type === 'publish' && <Text size="sm" c="dimmed">The release publishes the entry’s draft as it is at publish time, later edits included.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button type="submit" loading={busy}>Add</Button>
        </Group>
      </Stack>
    </form>
  );
}
