// The account's own audit log on the Account page: its sign-ins (and refused ones), two-factor,
// session and password changes, newest first, a page at a time (GET /v1/auth/audit-logs).
import { Card, Code, Group, Pagination, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { auditSummary } from '../audit.ts';
import { dateTimeSeconds } from '../dates.ts';
import { useAccountAuditLogs } from '../features/account/api/get-audit-logs.ts';
import { PageError } from './PageState.tsx';

const PAGE_SIZE = 10;

export function SecurityActivity() {
  const [page, setPage] = useState(1);
  const log = useAccountAuditLogs(page, PAGE_SIZE);
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb={4}>Security activity</Title>
      <Text size="sm" c="dimmed" mb="sm">Sign-ins to your account, refused ones included, and changes to its password, two-factor sign-in and sessions.</Text>
      {log.isError && <PageError error={log.error} />}
      <Table.ScrollContainer minWidth={600}>
        <Table aria-label="Security activity" aria-busy={log.isFetching}>
          <Table.Thead>
            <Table.Tr><Table.Th>Date</Table.Th><Table.Th>Action</Table.Th><Table.Th>Details</Table.Th><Table.Th>IP address</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.data?.data.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTimeSeconds(entry.date)}</Table.Td>
                <Table.Td><Code>{entry.action}</Code></Table.Td>
                <Table.Td><Text size="sm" lineClamp={2} maw={320}>{auditSummary(entry.payload) || '—'}</Text></Table.Td>
                <Table.Td><Text size="sm" title={entry.userAgent ?? undefined}>{entry.ip ?? '—'}</Text></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {log.data && log.data.data.length === 0 && <Text c="dimmed" size="sm">No activity yet.</Text>}
      {(log.data?.meta.pagination.pageCount ?? 0) > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pagination
            total={log.data!.meta.pagination.pageCount} value={page} onChange={setPage} aria-label="Security activity pages"
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            getControlProps={(control) => ({ 'aria-label': { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' }[control] })}
          />
        </Group>
      )}
    </Card>
  );
}
