// A project's Settings: one heading over its pages (the general settings; backups and export),
// linked from a small navigation of their own.
import { Anchor, Group, Stack, Title } from '@mantine/core';
import { NavLink, Outlet, useParams } from 'react-router';
import nav from './nav.module.css';

const PAGES = [
  { to: '', label: 'General', end: true },
  { to: 'backups', label: 'Backups' },
];

export function SettingsLayout() {
  const { slug = '' } = useParams();
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      <Group component="nav" aria-label="Settings" gap="md">
        {PAGES.map((p) => (
          <Anchor
            key={p.label} component={NavLink} to={`/projects/${slug}/settings${p.to ? `/${p.to}` : ''}`} end={p.end} size="sm"
            underline="hover" fw={500} className={nav.link}
          >
            {p.label}
          </Anchor>
        ))}
      </Group>
      <Outlet />
    </Stack>
  );
}
