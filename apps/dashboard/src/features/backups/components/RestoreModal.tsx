// Restoring a backup: in place (the project's content, media and end users replaced by the
// backup's, confirmed by typing the project's slug) or as a new project (named here). Once
// started, the same window follows the restore to its end; closed meanwhile, the page does.
import { Alert, Anchor, Button, Group, Loader, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../components/PageState.tsx';
import { dateTime } from '../../../dates.ts';
import { ApiError } from '../../../lib/api-error.ts';
import type { Project } from '../../projects/api/get-project.ts';
import type { Backup } from '../api/get-backups.ts';
import type { Restore } from '../api/get-restore.ts';
import { useRestoreBackup, type RestoreTarget } from '../api/restore-backup.ts';

/** A restore under way or ended, in words (and a link to a new project once it is made). */
export function RestoreProgress({ project, backup, restore, inWindow = false }: { project: Project; backup: Backup; restore: Restore; inWindow?: boolean }) {
  const when = dateTime(backup.createdAt);
  if (restore.status === 'running') {
    return (
      <Group gap="sm" wrap="nowrap" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text size="sm">
          {restore.target === 'in-place'
            ? `Restoring ${project.name} to the backup of ${when}…`
            : `Making a new project from the backup of ${when}…`}
          {' '}This takes a while for a large project{inWindow ? '; you can close this window meanwhile' : ''}.
        </Text>
      </Group>
    );
  }
  if (restore.status === 'failed') {
    return (
      <Alert color="red" role="alert" title="The restore failed">
        {restore.error ?? 'The platform could not restore the backup.'}
      </Alert>
    );
  }
  if (restore.target === 'in-place') {
    return (
      <Alert color="teal" role="status" title="Restored">
        {project.name} now holds the content, media and end users of the backup of {when}.
      </Alert>
    );
  }
  const made = restore.project;
  return (
    <Alert color="teal" role="status" title="Restored as a new project">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">“{made?.name ?? 'The new project'}” was made from the backup of {when}.</Text>
        {made && <Anchor component={Link} to={`/projects/${made.slug}`} size="sm" fw={500}>Open {made.name}</Anchor>}
      </Stack>
    </Alert>
  );
}

function RestoreForm({ project, backup, onStarted, onCancel }: { project: Project; backup: Backup; onStarted(restore: Restore): void; onCancel(): void }) {
  const start = useRestoreBackup(project.slug);
  const [target, setTarget] = useState<RestoreTarget>('in-place');
  const [typed, setTyped] = useState('');
  const [name, setName] = useState(`${project.name} (restored)`);
  const when = dateTime(backup.createdAt);
  const inPlace = target === 'in-place';
  const ready = inPlace ? typed === project.slug : name.trim() !== '';

  const submit = () => start.mutate({ backupId: backup.id, target, ...(inPlace ? {} : { name: name.trim() }) }, { onSuccess: onStarted });
  // A refused name is shown on its field; anything else above the form.
  const fieldError = start.error instanceof ApiError ? start.error.fieldErrors().name : undefined;

  return (
    <form onSubmit={(e) => { e.preventDefault(); if (ready) submit(); }} aria-label="Restore backup">
      <Stack>
        {start.isError && !fieldError && <Alert color="red" role="alert">{errorMessage(start.error)}</Alert>}
        <Radio.Group label="Restore" value={target} onChange={(v) => setTarget(v as RestoreTarget)}>
          <Stack gap="xs" mt={6}>
            <Radio value="in-place" label="In place" description={`Replace what ${project.name} holds with the backup's`} />
            <Radio value="new-project" label="As a new project" description={`Leave ${project.name} as it is`} />
          </Stack>
        </Radio.Group>
        {inPlace ? (
          <>
            <Alert color="red" variant="light" role="note" title={`Restore ${project.name} to the backup of ${when}?`}>
              Its content, media and end users will be replaced by the backup's. API tokens, members, settings and webhooks stay.
            </Alert>
            <TextInput label={`Type "${project.slug}" to confirm`} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
          </>
        ) : (
          <>
            <Text size="sm">
              A new project is made from the backup of {when}, with its content types, content, media and end users; you are its owner.
              {' '}{project.name} is not changed.
            </Text>
            <TextInput
              label="Name of the new project" required value={name} error={!inPlace && fieldError}
              onChange={(e) => setName(e.currentTarget.value)} autoComplete="off"
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>Cancel</Button>
          <Button type="submit" color={inPlace ? 'red' : undefined} disabled={!ready} loading={start.isPending}>
            {inPlace ? 'Restore in place' : 'Restore as a new project'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * `restore` is the restore started from this window (undefined before): the form gives way to
 * its progress and outcome.
 */
export function RestoreModal({ project, backup, restore, onStarted, onClose }: {
  project: Project; backup: Backup | null; restore: Restore | undefined; onStarted(restore: Restore): void; onClose(): void;
}) {
  return (
    <Modal opened={backup !== null} onClose={onClose} title="Restore backup" size="lg">
      {backup && (restore ? (
        <Stack>
          <RestoreProgress project={project} backup={backup} restore={restore} inWindow />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{restore.status === 'running' ? 'Close' : 'Done'}</Button>
          </Group>
        </Stack>
      ) : (
        <RestoreForm key={backup.id} project={project} backup={backup} onStarted={onStarted} onCancel={onClose} />
      ))}
    </Modal>
  );
}
