// Audit log: who did what in the project — content writes (API tokens, end users, members, the
// scheduler) and every change made through the dashboard, the CLI or the management API —
// newest first, filtered by action, actor and dates, a page at a time, and exported as JSON Lines
// with the same filters. Owners only: the API answers 403 to the other roles, who are told so.
import { Alert, Badge, Button, Code, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { auditSummary } from '../audit.ts';
import { PageError, PageLoader, errorMessage } from '../components/PageState.tsx';
import { dateTimeSeconds } from '../dates.ts';
import { auditLogsExportUrl } from '../features/audit-logs/api/export-audit-logs.ts';
import { auditFilterQuery, useAuditLogs, type AuditEntry, type AuditFilters as Filters } from '../features/audit-logs/api/get-audit-logs.ts';
import { useProject } from '../features/projects/api/get-project.ts';

const PAGE_SIZE = 25;
const NO_FILTERS: Filters = { action: '', actor: '', from: '', to: '' };

/** The actions offered by the filter: families first, then the names the platform records. */
const ACTIONS = [
  { group: 'Families', items: [
    { value: 'entry', label: 'All content changes (entry.*)' }, { value: 'media', label: 'All media (media.*)' },
    { value: 'api-token', label: 'All API tokens (api-token.*)' }, { value: 'member', label: 'All team changes (member.*)' },
  ] },
  { group: 'Actions', items: [
    'entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete',
    'content-type.update', 'role.update', 'api-token.create', 'api-token.delete', 'webhook.create', 'webhook.update', 'webhook.delete',
    'release.publish', 'member.invite', 'member.remove', 'project.settings.update', 'billing.plan-change', 'backup.restore',
  ].map((value) => ({ value, label: value })) },
];

function actorLabel(actor: AuditEntry['actor']): string {
  switch (actor.type) {
    case 'account': return actor.email ?? `Account ${actor.id}`;
    case 'api-token': return `API token ${actor.id}`;
    case 'end-user': return actor.id ? `End user ${actor.id}` : 'Public (anonymous)';
    case 'system': return 'System';
  }
}

export function AuditLogPage() {
  const { slug = '' } = useParams();
  const project = useProject(slug);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const owner = project.data?.role === 'owner';
  const list = useAuditLogs(slug, filters, page, PAGE_SIZE, owner);
  const filtered = Object.keys(auditFilterQuery(filters)).length > 0;

  if (project.isPending) return <PageLoader />;
  if (project.isError) return <PageError error={project.error} />;
  if (!owner) {
    return (
      <Stack>
        <Title order={2}>Audit log</Title>
        <Alert color="blue" title="Owners only">Only the owners of this project can read its audit log.</Alert>
      </Stack>
    );
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
    setPage(1);
  }

  const data = list.data;
  const total = data?.meta.pagination.total ?? 0;
  const first = data && data.data.length ? (page - 1) * PAGE_SIZE + 1 : 0;
  const last = data ? (page - 1) * PAGE_SIZE + data.data.length : 0;
  const exportUrl = auditLogsExportUrl(slug, filters);
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>Audit log</Title>
          <Text size="sm" c="dimmed">
            Every change to the project — content from the API, the dashboard or a schedule, and every setting, token, role and team change — with who made it
            and from where. Entries cannot be changed or deleted; they are kept {retention(project.data.plan)} on the {project.data.plan} plan.
          </Text>
        </Stack>
        <Button component="a" href={exportUrl} download variant="default">Export (JSON Lines)</Button>
      </Group>
      <form onSubmit={apply} aria-label="Filter the audit log">
        <Group align="flex-end" gap="sm">
          <Select
            label="Action" placeholder="Any action" data={ACTIONS} value={draft.action || null} w={260} searchable clearable
            onChange={(value) => setDraft({ ...draft, action: value ?? '' })}
          />
          <TextInput
            label="Actor" placeholder="E-mail, system or api-token:12" w={240} value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.currentTarget.value })}
          />
          <TextInput label="From" type="date" w={170} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
          <TextInput label="To" type="date" w={170} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
          <Button type="submit">Filter</Button>
          <Button variant="subtle" onClick={clear}>Clear</Button>
        </Group>
      </form>
      {list.isError && <Alert color="red" role="alert" title="Could not load the audit log">{errorMessage(list.error)}</Alert>}
      <Table.ScrollContainer minWidth={900}>
        <Table aria-label="Audit log" aria-busy={list.isFetching} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th><Table.Th>Action</Table.Th><Table.Th>Actor</Table.Th><Table.Th>Details</Table.Th><Table.Th>IP address</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.data.map((entry) => (
              <Table.Tr key={entry.id} data-testid={`audit-${entry.id}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTimeSeconds(entry.date)}</Table.Td>
                <Table.Td><Code>{entry.action}</Code></Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Badge variant="outline" color="gray.8" size="sm">{entry.actor.type}</Badge>
                    <Text size="sm">{actorLabel(entry.actor)}</Text>
                  </Group>
                </Table.Td>
                <Table.Td><Text size="sm" lineClamp={2} maw={380} title={auditSummary(entry.payload)}>{auditSummary(entry.payload) || '—'}</Text></Table.Td>
                <Table.Td><Text size="sm" title={entry.userAgent ?? undefined}>{entry.ip ?? '—'}</Text></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.isPending && <Text c="dimmed" size="sm" role="status">Loading the audit log…</Text>}
      {data && data.data.length === 0 && <Text c="dimmed" size="sm">{filtered ? 'No entry matches these filters.' : 'No entries yet.'}</Text>}
      <Group justify="space-between">
        <Text size="sm" role="status" data-testid="audit-total">
          {data && data.data.length > 0 && `${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${total.toLocaleString('en')} ${total === 1 ? 'entry' : 'entries'}`}
        </Text>
        <Pagination
          total={data?.meta.pagination.pageCount ?? 0} value={page} onChange={setPage} aria-label="Pages"
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          getControlProps={(control) => ({ 'aria-label': { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' }[control] })}
        />
      </Group>
      <Text size="xs" c="dimmed">
        Actor filter: an e-mail, <Code>system</Code>, <Code>account</Code>, <Code>api-token</Code>, <Code>end-user</Code> or a type and id such as <Code>api-token:12</Code>.
      </Text>
    </Stack>
  );
}

function retention(plan: string): string {
  return plan === 'enterprise' ? '365 days' : plan === 'pro' ? '90 days' : '7 days';
}
