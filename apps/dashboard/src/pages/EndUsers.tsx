// End users of the project (Strapi's users-permissions plugin): the users themselves, the
// plugin's settings and the e-mails it sends. Viewers see everything with the controls off.
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { EditableArea } from '../components/ViewOnly.tsx';
import { useEmailTemplates } from '../features/end-users/api/get-email-templates.ts';
import { useUsersSettings } from '../features/end-users/api/get-users-settings.ts';
import { EmailTemplatesPanel } from '../features/end-users/components/EmailTemplatesPanel.tsx';
import { UsersSettingsForm } from '../features/end-users/components/UsersSettingsForm.tsx';
import { UsersTable } from '../features/end-users/components/UsersTable.tsx';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useEmailSettings } from '../features/settings/api/get-email-settings.ts';

const TABS = ['users', 'settings', 'emails'] as const;
type Tab = (typeof TABS)[number];

function SettingsTab({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const settings = useUsersSettings(slug);
  if (settings.isPending) return <PageLoader label="Loading settings…" />;
  if (settings.isError) return <PageError error={settings.error} />;
  return (
    <EditableArea readOnly={!canEdit}>
      <UsersSettingsForm slug={slug} settings={settings.data} />
    </EditableArea>
  );
}

function EmailsTab({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const templates = useEmailTemplates(slug);
  const transport = useEmailSettings(slug);
  if (templates.isPending || transport.isPending) return <PageLoader label="Loading e-mails…" />;
  if (templates.isError || transport.isError) return <PageError error={templates.error ?? transport.error} />;
  return (
    <EditableArea readOnly={!canEdit}>
      <EmailTemplatesPanel slug={slug} templates={templates.data} transport={transport.data} />
    </EditableArea>
  );
}

export function EndUsersPage() {
  const { slug = '' } = useParams();
  const { canEdit } = useProjectRole(slug);
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'users';
  // Each tab starts clean: the list's page and search belong to the users tab.
  const select = (next: string | null) => next && setParams(next === 'users' ? {} : { tab: next });
  return (
    <Stack>
      <Title order={2}>End users</Title>
      <Text size="sm" c="dimmed">
        The people who sign in to your apps through the project's API (<code>/api/auth/local</code>), as Strapi's Users &amp; Permissions plugin has them.
        What each role may do is set in Roles &amp; permissions.
      </Text>
      <Tabs value={tab} onChange={select} keepMounted={false}>
        <Tabs.List aria-label="End-user sections">
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
          <Tabs.Tab value="emails">E-mail templates</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users" pt="md"><UsersTable slug={slug} canEdit={canEdit} /></Tabs.Panel>
        <Tabs.Panel value="settings" pt="md"><SettingsTab slug={slug} canEdit={canEdit} /></Tabs.Panel>
        <Tabs.Panel value="emails" pt="md"><EmailsTab slug={slug} canEdit={canEdit} /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
