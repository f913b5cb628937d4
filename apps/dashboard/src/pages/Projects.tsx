// The account's projects, and the one clear action when there are none: create one. Projects it
// owns that were deleted less than 7 days ago are listed under "Recently deleted", to restore.
import { Alert, Anchor, Button, Card, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { dateTime } from '../dates.ts';
import { useCreateProject } from '../features/projects/api/create-project.ts';
import { useDeletedProjects } from '../features/projects/api/get-deleted-projects.ts';
import { useProjects } from '../features/projects/api/get-projects.ts';
import { useRestoreProject } from '../features/projects/api/restore-project.ts';
import { reportFormError } from '../lib/api-error.ts';
import { slugFromName } from '../slug.ts';
import classes from './Projects.module.css';

/** The deleted projects still restorable (nothing at all when there are none). */
function RecentlyDeleted() {
  const deleted = useDeletedProjects();
  const restore = useRestoreProject();
  if (!deleted.data?.length) return null;
  return (
    <Stack gap="xs" mt="lg" component="section" aria-labelledby="recently-deleted">
      <Title order={2} size="h4" id="recently-deleted">Recently deleted</Title>
      <Text size="sm" c="dimmed">A deleted project can be restored for 7 days, as it was; then it is purged for good.</Text>
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Recently deleted projects">
          <Table.Thead>
            <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Slug</Table.Th><Table.Th>Deleted</Table.Th><Table.Th>Purged on</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deleted.data.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td><Text span ff="monospace" size="sm">{p.slug}</Text></Table.Td>
                <Table.Td>{dateTime(p.deletedAt)}</Table.Td>
                <Table.Td>{dateTime(p.purgeAt)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs" variant="default" aria-label={`Restore ${p.name}`}
                    loading={restore.isPending && restore.variables === p.slug}
                    onClick={() => restore.mutate(p.slug, {
                      onSuccess: (project) => notifications.show({ color: 'teal', title: `${project.name} is back`, message: 'Its API answers again, with everything it held.' }),
                      onError: (err) => notifications.show({ color: 'red', title: 'Could not restore the project', message: err.message }),
                    })}
                  >
                    Restore
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const createProject = useCreateProject();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', defaultLocale: 'en' },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the project a name'),
      defaultLocale: (v) => (/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(v) ? null : 'Use a locale code such as en, fr or pt-BR'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const project = await createProject.mutateAsync({ name: values.name.trim(), defaultLocale: values.defaultLocale });
      onClose();
      form.reset();
      navigate(`/projects/${project.slug}`);
    } catch (err) {
      reportFormError(err, form.setErrors, setFormError, 'Could not create the project');
    }
  });
  const slug = slugFromName(form.values.name);
  return (
    <Modal opened={opened} onClose={onClose} title="Create project">
      <form onSubmit={submit} noValidate aria-label="Create project">
        <Stack>
          {formError && <Alert color="red" role="alert">{formError}</Alert>}
          <TextInput label="Project name" required data-autofocus {...form.getInputProps('name')} />
          <Text size="sm" c="dimmed" aria-live="polite">
            API address: <Text span ff="monospace" data-testid="slug-preview">/p/{slug}/api</Text>
          </Text>
          <TextInput label="Default locale" description="The locale content is written in unless a request names another" required {...form.getInputProps('defaultLocale')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={form.submitting}>Create project</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function ProjectsPage() {
  const projects = useProjects();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Projects</Title>
        {projects.data && projects.data.length > 0 && <Button onClick={open}>Create project</Button>}
      </Group>
      {projects.isPending && <PageLoader label="Loading projects…" />}
      {projects.isError && <PageError error={projects.error} />}
      {projects.data?.length === 0 && (
        <Card withBorder padding="xl" ta="center">
          <Stack align="center">
            <Title order={2} size="h3">No projects yet</Title>
            <Text c="dimmed">A project is one content API: its types, content, tokens and users.</Text>
            <Button onClick={open} size="md">Create project</Button>
          </Stack>
        </Card>
      )}
      {projects.data && projects.data.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {projects.data.map((p) => (
            <Card key={p.id} withBorder className={classes.card}>
              <Anchor component={Link} to={`/projects/${p.slug}`} aria-label={`Open project ${p.name}`} className={classes.open} fw={600} c="inherit" underline="hover">
                {p.name}
              </Anchor>
              <Text size="sm" c="dimmed" ff="monospace">{p.slug}</Text>
              <Text size="xs" c="dimmed" mt="xs">Plan: {p.plan} · default locale {p.defaultLocale}</Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <RecentlyDeleted />
      <CreateProjectModal opened={opened} onClose={close} />
    </Stack>
  );
}
