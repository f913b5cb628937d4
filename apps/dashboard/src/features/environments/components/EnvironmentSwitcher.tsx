// The environment switcher beside a project's name: production (the parent) and its environments,
// each opening the same page of that project; "New environment…" and "Delete environment…".
import { Badge, Button, Group, Menu, Text } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Project } from '../../projects/api/get-project.ts';
import { useEnvironments, type EnvironmentStatus } from '../api/get-environments.ts';
import { environmentOf } from '../environment-of.ts';
import { DeleteEnvironmentModal } from './DeleteEnvironmentModal.tsx';
import { NewEnvironmentModal } from './NewEnvironmentModal.tsx';

const STATUS: Record<EnvironmentStatus, { label: string; color: string }> = {
  copying: { label: 'Copying', color: 'blue' },
  ready: { label: 'Ready', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

export function EnvironmentStatusBadge({ status }: { status: EnvironmentStatus }) {
  const s = STATUS[status];
  // Outline in the 9th shade: AA contrast on white, as the other status badges.
  return <Badge size="sm" variant="outline" color={`${s.color}.9`} data-environment-status={status}>{s.label}</Badge>;
}

/**
 * The same page in another project: `/projects/a/content/x` → `/projects/b/content/x`. A release's
 * page goes to the releases (their ids are the project's own); documentIds are kept by the copy.
 */
export function samePageIn(pathname: string, from: string, to: string): string {
  const rest = pathname.startsWith(`/projects/${from}`) ? pathname.slice(`/projects/${from}`.length) : '';
  return `/projects/${to}${rest.replace(/^\/releases\/.+$/, '/releases')}`;
}

export function EnvironmentSwitcher({ project }: { project: Project }) {
  const env = environmentOf(project);
  const home = env?.parent.slug ?? project.slug;
  const navigate = useNavigate();
  const location = useLocation();
  const [opened, setOpened] = useState(false);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Listed once wanted: a project's pages do not all ask for its environments.
  const environments = useEnvironments(home, opened || creating || deleting);

  const parentName = env?.parent.name ?? project.name;
  // Owners make and delete environments (an environment's role is the one in its parent).
  const isOwner = project.role === 'owner';
  const list = environments.data ?? [];
  const go = (slug: string) => navigate(samePageIn(location.pathname, project.slug, slug));
  const current = env?.name ?? 'production';

  return (
    <Group gap="xs">
      {/* No focus placeholder: axe counts it (a focusable div) as a child a menu may not have. */}
      <Menu position="bottom-start" withinPortal opened={opened} onChange={setOpened} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button variant="default" size="xs" aria-label={`Environment: ${current}`} rightSection={<span aria-hidden>▾</span>}>
            <Text span size="xs" c="dimmed" mr={4}>Environment:</Text>{current}
          </Button>
        </Menu.Target>
        <Menu.Dropdown aria-label={`Environments of ${parentName}`}>
          <Menu.Label>Environments of {parentName}</Menu.Label>
          <Menu.Item onClick={() => go(home)} aria-current={env ? undefined : 'page'} fw={env ? undefined : 600}>
            production
          </Menu.Item>
          {list.map((e) => (
            <Menu.Item
              key={e.name} onClick={() => go(e.slug)} disabled={e.status !== 'ready'} aria-current={env?.name === e.name ? 'page' : undefined}
              fw={env?.name === e.name ? 600 : undefined} rightSection={e.status === 'ready' ? null : <EnvironmentStatusBadge status={e.status} />}
            >
              {e.name}
            </Menu.Item>
          ))}
          {environments.isPending && <Menu.Label>Loading the environments…</Menu.Label>}
          {environments.isError && <Menu.Label>Could not load the environments</Menu.Label>}
          {isOwner && (
            <>
              <Menu.Divider />
              <Menu.Item onClick={() => setCreating(true)}>New environment…</Menu.Item>
              <Menu.Item color="red.9" disabled={list.length === 0} onClick={() => setDeleting(true)}>Delete environment…</Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <NewEnvironmentModal parent={home} parentName={parentName} opened={creating} onClose={() => setCreating(false)} />
      <DeleteEnvironmentModal
        parent={home} parentName={parentName} environments={list} initial={env?.name ?? null} opened={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={(name) => {
          // The page open was the environment's: the parent's same page instead.
          if (env?.name === name) go(home);
        }}
      />
    </Group>
  );
}
