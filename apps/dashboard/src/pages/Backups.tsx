// Settings → Backups: the project's backups (daily and manual; back up now, download, restore in
// place or as a new project) and its export (an archive for a self-hosted Strapi 5). Owners only:
// archives hold every end user's password hash, so the API answers 403 to the other roles, who are
// told so instead.
import { Alert, Button, Card, CloseButton, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageError, PageLoader, errorMessage } from '../components/PageState.tsx';
import { dateTime } from '../dates.ts';
import { useCreateBackup } from '../features/backups/api/create-backup.ts';
import { useBackups, type Backup } from '../features/backups/api/get-backups.ts';
import { useRestore, useRestoreEnd, type Restore } from '../features/backups/api/get-restore.ts';
import { BackupsTable } from '../features/backups/components/BackupsTable.tsx';
import { ExportCard } from '../features/backups/components/ExportCard.tsx';
import { RestoreModal, RestoreProgress } from '../features/backups/components/RestoreModal.tsx';
import { useProject, type Project } from '../features/projects/api/get-project.ts';

function BackupsCard({ project }: { project: Project }) {
  const slug = project.slug;
  const backups = useBackups(slug);
  const backUp = useCreateBackup(slug);
  // The backup whose restore window is open, and the restore started (followed to its end here).
  const [choosing, setChoosing] = useState<Backup | null>(null);
  const [started, setStarted] = useState<{ backup: Backup; restore: Restore } | null>(null);
  // Whether the open window follows the restore (it shows the form again once reopened), and whether
  // the page's note about it was dismissed (or already seen in the window).
  const [inWindow, setInWindow] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const followed = useRestore(slug, started?.restore.id ?? null);
  const restore = followed.data ?? started?.restore;

  useRestoreEnd(slug, followed.data, (ended) => {
    if (ended.status === 'done' && ended.target === 'in-place') {
      notifications.show({
        color: 'teal', title: `${project.name} was restored`,
        message: `Its content, media and end users are those of the backup of ${dateTime(started!.backup.createdAt)}.`,
      });
    }
  });

  const running = restore?.status === 'running';
  const modalOpen = choosing !== null;
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">Backups</Title>
          <Button onClick={() => backUp.mutate()} loading={backUp.isPending}>Back up now</Button>
        </Group>
        <Text size="sm">
          A backup of the whole project — content types, content, media and end users — is taken every day and kept until the date under
          {' '}<i>Expires</i>. Back up now before a risky change. Restoring one replaces the project's content, media and end users, or makes a new
          project from it.
        </Text>
        {backUp.isError && <Alert color="red" role="alert" title="Could not start a backup">{errorMessage(backUp.error)}</Alert>}
        {started && restore && !modalOpen && !dismissed && (
          <Group align="flex-start" wrap="nowrap" gap="xs" data-testid="restore-status">
            <div style={{ flex: 1 }}><RestoreProgress project={project} backup={started.backup} restore={restore} /></div>
            {!running && <CloseButton aria-label="Dismiss" onClick={() => setDismissed(true)} />}
          </Group>
        )}
        {backups.isPending && <PageLoader label="Loading backups…" />}
        {backups.isError && <PageError error={backups.error} title="Could not load the backups" />}
        {backups.data?.length === 0 && <Text c="dimmed">No backups yet — a backup is taken every day.</Text>}
        {backups.data && backups.data.length > 0 && <BackupsTable backups={backups.data} onRestore={setChoosing} restoreDisabled={running} />}
      </Stack>
      <RestoreModal
        project={project} backup={choosing} restore={inWindow ? restore : undefined}
        onStarted={(r) => {
          setStarted({ backup: choosing!, restore: r });
          setInWindow(true);
          setDismissed(false);
        }}
        onClose={() => {
          // Closed while it runs, the page follows the restore; its outcome seen here is not shown twice.
          if (inWindow && !running) setDismissed(true);
          setInWindow(false);
          setChoosing(null);
        }}
      />
    </Card>
  );
}

export function BackupsPage() {
  const { slug = '' } = useParams();
  const project = useProject(slug);
  if (project.isPending) return <PageLoader label="Loading backups…" />;
  if (project.isError) return <PageError error={project.error} />;
  if (project.data.role !== 'owner') {
    return (
      <Alert color="gray" role="note" title="Backups and exports are for owners">
        Only the project's owners can manage backups and exports: they hold all of its content and every end user's password hash. Your
        role is {project.data.role}; ask an owner if you need a backup or an export.
      </Alert>
    );
  }
  return (
    <Stack>
      <BackupsCard project={project.data} />
      <ExportCard slug={slug} />
    </Stack>
  );
}
