// Project settings: name, GraphQL limits, browser access (CORS), delivery (CDN caching and the
// answer cache), and deletion (owners only; the project stays restorable for 7 days from the
// projects page). Viewers see the settings with their
// forms turned off. Backups and export are the next page of Settings (Backups.tsx).
import { Alert, Button, Card, Group, NumberInput, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { reportFormError } from '../lib/api-error.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { RequireTwoFactorSetting } from '../components/TwoFactorRule.tsx';
import { EditableArea } from '../components/ViewOnly.tsx';
import { environmentOf } from '../features/environments/environment-of.ts';
import { useProject, useProjectRole, type Project } from '../features/projects/api/get-project.ts';
import { useDeleteProject } from '../features/settings/api/delete-project.ts';
import { useCorsSettings, type CorsSettings } from '../features/settings/api/get-cors-settings.ts';
import { useDeliverySettings, type DeliverySettings } from '../features/settings/api/get-delivery-settings.ts';
import { useGraphqlSettings, type GraphqlSettings } from '../features/settings/api/get-graphql-settings.ts';
import { useRenameProject } from '../features/settings/api/rename-project.ts';
import { useUpdateCorsSettings } from '../features/settings/api/update-cors-settings.ts';
import { useUpdateDeliverySettings } from '../features/settings/api/update-delivery-settings.ts';
import { useUpdateGraphqlSettings } from '../features/settings/api/update-graphql-settings.ts';
import { SsoSettings } from '../features/settings/components/SsoSettings.tsx';

/** A settings form: saves with PUT, shows field errors in place and other errors above. */
function useSettingsForm<T extends Record<string, unknown>>(initial: T, save: (values: T) => Promise<unknown>, fieldOf: (path: string) => string = (p) => p) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<T>({ initialValues: initial });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await save(values);
      notifications.show({ color: 'teal', message: 'Saved' });
    } catch (err) {
      reportFormError(err, (fields) => form.setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [fieldOf(k), v]))), setError, 'Could not save');
    }
  });
  return { form, submit, error };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">{title}</Title>
      {children}
    </Card>
  );
}

function Rename({ project }: { project: Project }) {
  const rename = useRenameProject(project.slug);
  const { form, submit, error } = useSettingsForm({ name: project.name }, ({ name }) => rename.mutateAsync(name));
  return (
    <Section title="Project name">
      <form onSubmit={submit} aria-label="Project name">
        <Stack maw={420}>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <TextInput label="Name" description={`The address stays /p/${project.slug}`} {...form.getInputProps('name')} />
          <Button type="submit" w="fit-content" loading={form.submitting}>Rename</Button>
        </Stack>
      </form>
    </Section>
  );
}

function GraphqlForm({ slug, settings }: { slug: string; settings: GraphqlSettings }) {
  const save = useUpdateGraphqlSettings(slug);
  const { form, submit, error } = useSettingsForm(settings, save.mutateAsync);
  return (
    <Section title="GraphQL">
      <form onSubmit={submit} aria-label="GraphQL settings">
        <Stack maw={520}>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <Group grow>
            <NumberInput label="Default page size" min={1} {...form.getInputProps('defaultLimit')} />
            <NumberInput label="Largest page (-1: no limit)" min={-1} {...form.getInputProps('maxLimit')} />
          </Group>
          <Group grow>
            <NumberInput label="Depth limit (0: none)" min={0} {...form.getInputProps('depthLimit')} />
            <NumberInput label="Cost limit (0: none)" min={0} {...form.getInputProps('costLimit')} />
          </Group>
          <Switch label="Introspection" {...form.getInputProps('introspection', { type: 'checkbox' })} />
          <Switch label="GraphiQL playground" {...form.getInputProps('playground', { type: 'checkbox' })} />
          <Button type="submit" w="fit-content" loading={form.submitting}>Save GraphQL settings</Button>
        </Stack>
      </form>
    </Section>
  );
}

function CorsForm({ slug, settings }: { slug: string; settings: CorsSettings }) {
  const save = useUpdateCorsSettings(slug);
  const { form, submit, error } = useSettingsForm(
    { origins: settings.origins.join('\n'), credentials: settings.credentials, maxAge: settings.maxAge },
    (values) => {
      const origins = values.origins.split(/[\s,]+/).filter(Boolean);
      return save.mutateAsync({ origins, credentials: values.credentials, maxAge: values.maxAge });
    },
    (path) => (path.startsWith('origins') ? 'origins' : path),
  );
  return (
    <Section title="Browser access (CORS)">
      <form onSubmit={submit} aria-label="Browser access">
        <Stack maw={520}>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <Textarea
            label="Allowed origins" description="One per line, e.g. https://app.example.com — or * for any web page (the default, like Strapi)"
            autosize minRows={2} {...form.getInputProps('origins')}
          />
          <Switch label="Allow credentials (cookies) in cross-origin requests" {...form.getInputProps('credentials', { type: 'checkbox' })} />
          <NumberInput label="Preflight cache (seconds)" min={0} {...form.getInputProps('maxAge')} />
          <Button type="submit" w="fit-content" loading={form.submitting}>Save browser access</Button>
        </Stack>
      </form>
    </Section>
  );
}

function DeliveryForm({ slug, settings }: { slug: string; settings: DeliverySettings }) {
  const save = useUpdateDeliverySettings(slug);
  const { form, submit, error } = useSettingsForm(settings, save.mutateAsync);
  return (
    <Section title="Delivery">
      <form onSubmit={submit} aria-label="Delivery">
        <Stack maw={520}>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <NumberInput
            label="CDN cache time (seconds)" min={0}
            description="How long a CDN may serve public published reads (s-maxage); a change purges them sooner when a purge URL is set up"
            {...form.getInputProps('sMaxAge')}
          />
          <Switch
            label="Answer repeated reads from memory" description="Never older than the last change; turn off only to measure or debug your queries"
            {...form.getInputProps('answerCache', { type: 'checkbox' })}
          />
          <Button type="submit" w="fit-content" loading={form.submitting}>Save delivery settings</Button>
        </Stack>
      </form>
    </Section>
  );
}

function DeleteProject({ project }: { project: Project }) {
  const [opened, setOpened] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteProject(project.slug);
  return (
    <Section title="Delete project">
      <Text size="sm" mb="sm">
        Deletes the project with its content, media, tokens and end users. You can restore it from the projects page for 7 days; after
        that it is gone for good.
      </Text>
      <Button color="red" w="fit-content" onClick={() => setOpened(true)}>Delete project</Button>
      <ConfirmModal
        opened={opened} onClose={() => setOpened(false)} title="Delete project" confirmLabel="Delete this project" typed={project.slug}
        onConfirm={async () => {
          await remove.mutateAsync();
          navigate('/projects');
        }}
      >
        “{project.name}” and everything in it will be deleted: its API stops answering at once. You can restore it from the projects page
        for 7 days (under <i>Recently deleted</i>); after that it is purged for good.
      </ConfirmModal>
    </Section>
  );
}

export function SettingsPage() {
  const { slug = '' } = useParams();
  const project = useProject(slug);
  const { canEdit, isOwner } = useProjectRole(slug);
  const graphql = useGraphqlSettings(slug);
  const cors = useCorsSettings(slug);
  const delivery = useDeliverySettings(slug);
  if (project.isPending || graphql.isPending || cors.isPending || delivery.isPending) return <PageLoader label="Loading settings…" />;
  const failed = project.error ?? graphql.error ?? cors.error ?? delivery.error;
  if (failed) return <PageError error={failed} />;
  return (
    <Stack>
      <EditableArea readOnly={!canEdit}>
        <Stack>
          <Rename project={project.data!} />
          <GraphqlForm slug={slug} settings={graphql.data!} />
          <CorsForm slug={slug} settings={cors.data!} />
          <DeliveryForm slug={slug} settings={delivery.data!} />
        </Stack>
      </EditableArea>
      <RequireTwoFactorSetting slug={slug} isOwner={isOwner} />
      {/* An environment's single sign-on is its parent's. */}
      {!environmentOf(project.data!) && <SsoSettings project={project.data!} isOwner={isOwner} />}
      {isOwner && <DeleteProject project={project.data!} />}
    </Stack>
  );
}
