// Frame of a project's pages: breadcrumb, name and the project's navigation; viewers are told
// that they can only look.
import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import nav from './nav.module.css';
import { useProject } from '../features/projects/api/get-project.ts';
import { PageError, PageLoader } from './PageState.tsx';
import { isTwoFactorSetupRequired, TwoFactorRequiredNotice } from './TwoFactorRule.tsx';
import { ViewOnlyNote } from './ViewOnly.tsx';
import { EnvironmentBanner } from '../features/environments/components/EnvironmentBanner.tsx';
import { EnvironmentSwitcher } from '../features/environments/components/EnvironmentSwitcher.tsx';
import { ParentOnlyGate, sectionShown } from '../features/environments/components/ParentOnly.tsx';

const SECTIONS = [
  { to: '', label: 'Overview', end: true },
  { to: 'content', label: 'Content' },
  { to: 'releases', label: 'Releases' },
  { to: 'media', label: 'Media library' },
  { to: 'model', label: 'Content-type builder' },
  { to: 'end-users', label: 'End users' },
  { to: 'api-tokens', label: 'API tokens' },
  { to: 'webhooks', label: 'Webhooks' },
  { to: 'roles', label: 'Roles & permissions' },
  { to: 'locales', label: 'Locales' },
  { to: 'team', label: 'Team' },
  { to: 'usage', label: 'Usage' },
  { to: 'billing', label: 'Billing' },
  // Owners only (the API answers 403 to the other roles).
  { to: 'audit-log', label: 'Audit log', owners: true },
  { to: 'settings', label: 'Settings' },
];

export function ProjectLayout() {
  const { slug = '' } = useParams();
  const project = useProject(slug);
  if (project.isPending) return <PageLoader label="Loading project…" />;
  if (project.isError && isTwoFactorSetupRequired(project.error)) return <TwoFactorRequiredNotice projectSlug={slug} />;
  if (project.isError) return <PageError error={project.error} title="Could not load the project" />;
  return (
    <Stack>
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to="/projects">Projects</Anchor>
        <Text>{project.data.name}</Text>
      </Breadcrumbs>
      <Group gap="md" align="center">
        <Title order={1}>{project.data.name}</Title>
        <EnvironmentSwitcher project={project.data} />
      </Group>
      <EnvironmentBanner project={project.data} />
      <Group component="nav" aria-label="Project" gap="lg">
        {SECTIONS.filter((s) => (!('owners' in s) || project.data.role === 'owner') && sectionShown(project.data, s.to)).map((s) => (
          <Anchor
            key={s.label} component={NavLink} to={`/projects/${slug}${s.to ? `/${s.to}` : ''}`} end={s.end}
            underline="hover" fw={500} className={nav.link}
          >
            {s.label}
          </Anchor>
        ))}
      </Group>
      {project.data.role === 'viewer' && <ViewOnlyNote />}
      <ParentOnlyGate project={project.data}><Outlet /></ParentOnlyGate>
    </Stack>
  );
}
