// A project's releases: pending and done ones in two tabs, each with its status, number of
// entries and schedule (or when it was published), newest first; "New release" opens its page.
import { Anchor, Button, Group, Pagination, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useReleases, type Release, type ReleaseFilter } from '../features/releases/api/get-releases.ts';
import { ReleaseFormModal } from '../features/releases/components/ReleaseFormModal.tsx';
import { ReleaseStatusBadge } from '../features/releases/components/ReleaseStatusBadge.tsx';
import { scheduleText } from '../features/releases/components/ScheduleText.tsx';

export function ReleasesPage() {
  const { slug = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const { canEdit } = useProjectRole(slug);
  const status: ReleaseFilter = search.get('status') === 'done' ? 'done' : 'pending';
  const page = Math.max(1, Number(search.get('page')) || 1);
  // The pending count for the tab, whichever tab is shown.
  const pending = useReleases(slug, 'pending', 1).data?.meta.pendingReleasesCount;
  const [creating, setCreating] = useState(false);

  // The releases were read again by the creation.
  function created(release: Release) {
    navigate(`/projects/${slug}/releases/${release.id}`);
  }
  const showPage = (p: number) => setSearch({ ...(status === 'done' ? { status } : {}), ...(p > 1 ? { page: String(p) } : {}) });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Releases</Title>
        <Button onClick={() => setCreating(true)} disabled={!canEdit}>New release</Button>
      </Group>
      <Text size="sm" c="dimmed">
        A release publishes and unpublishes entries together, all or none of them: now, or at a scheduled time. Add entries
        from their editor (<em>Add to release</em>).
      </Text>
      <Tabs value={status} onChange={(v) => setSearch(v === 'done' ? { status: 'done' } : {})} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="pending">{pending === undefined ? 'Pending' : `Pending (${pending})`}</Tabs.Tab>
          <Tabs.Tab value="done">Done</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="pending" pt="md"><ReleaseTable slug={slug} status="pending" page={page} onPage={showPage} /></Tabs.Panel>
        <Tabs.Panel value="done" pt="md"><ReleaseTable slug={slug} status="done" page={page} onPage={showPage} /></Tabs.Panel>
      </Tabs>
      <ReleaseFormModal slug={slug} opened={creating} editing={null} onClose={() => setCreating(false)} onSaved={created} />
    </Stack>
  );
}

function ReleaseTable({ slug, status, page, onPage }: { slug: string; status: ReleaseFilter; page: number; onPage(page: number): void }) {
  const releases = useReleases(slug, status, page);
  if (releases.isPending) return <PageLoader label="Loading releases…" />;
  if (releases.isError) return <PageError error={releases.error} />;
  const { data, meta } = releases.data;
  if (data.length === 0) {
    return <Text>{status === 'pending' ? 'No pending releases. Create one to publish several entries together.' : 'No release has been published yet.'}</Text>;
  }
  return (
    <Stack>
      <Table aria-label={status === 'pending' ? 'Pending releases' : 'Done releases'}>
        <Table.Thead>
          <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Status</Table.Th><Table.Th>Entries</Table.Th><Table.Th>When</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td><Anchor component={Link} to={`/projects/${slug}/releases/${r.id}`}>{r.name}</Anchor></Table.Td>
              <Table.Td><ReleaseStatusBadge status={r.status} /></Table.Td>
              <Table.Td>{r.actions.meta.count}</Table.Td>
              <Table.Td>{scheduleText(r)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {meta.pagination.pageCount > 1 && <Pagination total={meta.pagination.pageCount} value={page} onChange={onPage} />}
    </Stack>
  );
}
