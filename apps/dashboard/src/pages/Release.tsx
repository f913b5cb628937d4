// One release: its status and schedule, its entries grouped by type and locale, and — while it is
// pending, for owners and editors — Edit (name, schedule), Unschedule, Delete and Publish now
// (after a confirmation; a failure names its entries). Done releases are read-only.
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useLocales } from '../features/locales/api/get-locales.ts';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useDeleteRelease } from '../features/releases/api/delete-release.ts';
import { useRelease } from '../features/releases/api/get-release.ts';
import { useReleaseActions } from '../features/releases/api/get-release-actions.ts';
import { entryErrorsOf, usePublishRelease, type ReleaseEntryError } from '../features/releases/api/publish-release.ts';
import { useUpdateRelease } from '../features/releases/api/update-release.ts';
import { ActionGroups } from '../features/releases/components/ActionGroups.tsx';
import { PublishFailure } from '../features/releases/components/PublishFailure.tsx';
import { ReleaseFormModal } from '../features/releases/components/ReleaseFormModal.tsx';
import { ReleaseStatusBadge } from '../features/releases/components/ReleaseStatusBadge.tsx';
import { ScheduleText } from '../features/releases/components/ScheduleText.tsx';
import { useSchema } from '../features/schema/api/get-schema.ts';

type Dialog = 'edit' | 'publish' | 'delete' | null;

export function ReleasePage() {
  const { slug = '', releaseId = '' } = useParams();
  const navigate = useNavigate();
  const { canEdit } = useProjectRole(slug);
  const release = useRelease(slug, releaseId);
  const actions = useReleaseActions(slug, releaseId);
  const schema = useSchema(slug);
  const locales = useLocales(slug);
  const publishRelease = usePublishRelease();
  const updateRelease = useUpdateRelease();
  const deleteRelease = useDeleteRelease();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [failure, setFailure] = useState<ReleaseEntryError[] | null>(null);
  const listPath = `/projects/${slug}/releases`;
  const back = <Anchor component={Link} to={listPath} size="sm">Back to releases</Anchor>;

  if (release.isPending || schema.isPending || locales.isPending) return <Stack>{back}<PageLoader label="Loading the release…" /></Stack>;
  const error = release.error ?? schema.error ?? locales.error;
  if (error) return <Stack>{back}<PageError error={error} title="Could not load the release" /></Stack>;
  const r = release.data!;
  const done = r.status === 'done';
  const editable = canEdit && !done;
  const count = r.actions.meta.count;

  // Every change reads the release and its actions again (the mutations do).
  const changed = () => setFailure(null);
  async function publish() {
    setFailure(null);
    try {
      await publishRelease.mutateAsync({ slug, id: r.id });
      notifications.show({ color: 'teal', message: `“${r.name}” published` });
    } catch (err) {
      const entries = entryErrorsOf(err);
      if (entries.length === 0) throw err;
      setFailure(entries);
    }
  }
  async function unschedule() {
    try {
      await updateRelease.mutateAsync({ slug, id: r.id, body: { scheduledAt: null, timezone: null } });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not unschedule the release', message: err instanceof Error ? err.message : '' });
    }
  }
  const saved = () => setDialog(null);

  return (
    <Stack>
      {back}
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2}>{r.name}</Title>
            <ReleaseStatusBadge status={r.status} />
          </Group>
          <ScheduleText release={r} />
          <Text size="sm" c="dimmed">{count === 1 ? '1 entry' : `${count} entries`}</Text>
        </Stack>
        {editable && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setDialog('edit')}>Edit</Button>
            {r.scheduledAt && <Button variant="default" onClick={unschedule}>Unschedule</Button>}
            <Button variant="light" color="red" c="red.9" onClick={() => setDialog('delete')}>Delete</Button>
            <Button onClick={() => setDialog('publish')} disabled={count === 0}>Publish now</Button>
          </Group>
        )}
      </Group>
      {done && <Text size="sm">This release is done: it cannot change any more.</Text>}
      {failure && actions.data && <PublishFailure errors={failure} actions={actions.data} model={schema.data!} onClose={() => setFailure(null)} />}
      {!failure && r.status === 'blocked' && (
        <Alert color="orange" title="Some entries cannot be published as they are">
          Fix the entries marked <em>Blocked</em> in their editor, or remove them from the release: until then it cannot be published.
        </Alert>
      )}
      {!failure && r.status === 'failed' && (
        <Alert color="red" title="The last publish failed">Nothing was changed. Publish again to see which entries failed.</Alert>
      )}
      {actions.isPending && <PageLoader label="Loading the entries…" />}
      {actions.isError && <PageError error={actions.error} title="Could not load the entries" />}
      {actions.data && (
        <ActionGroups
          slug={slug} releaseId={r.id} actions={actions.data} model={schema.data!} locales={locales.data!} editable={editable} done={done}
          failures={new Map((failure ?? []).map((e) => [e.actionId, e.message]))} onChanged={changed}
        />
      )}
      <ReleaseFormModal slug={slug} opened={dialog === 'edit'} editing={r} onClose={() => setDialog(null)} onSaved={saved} />
      <ConfirmModal opened={dialog === 'publish'} onClose={() => setDialog(null)} title="Publish now" confirmLabel="Publish now" onConfirm={publish}>
        Every entry of “{r.name}” is published or unpublished now, all together: if one of them cannot be, nothing changes. Publish
        actions publish each entry’s draft as it is now.{r.scheduledAt ? ' The schedule is then spent.' : ''}
      </ConfirmModal>
      <ConfirmModal
        opened={dialog === 'delete'} onClose={() => setDialog(null)} title="Delete release" confirmLabel="Delete release"
        onConfirm={async () => {
          await deleteRelease.mutateAsync({ slug, id: r.id });
          navigate(listPath);
        }}
      >
        “{r.name}” and its list of entries are deleted. The entries themselves do not change.
      </ConfirmModal>
    </Stack>
  );
}
