// The project's backups, newest first: when, daily or manual, its state (a failed one with its
// reason), size and expiry; a finished one can be downloaded or restored.
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { formatBytes } from '../../usage/components/format.ts';
import { dateOnly, dateTime } from '../../../dates.ts';
import type { ArchiveStatus, Backup } from '../api/get-backups.ts';

const STATUS: Record<ArchiveStatus, { color: string; label: string }> = {
  running: { color: 'blue', label: 'Running' },
  done: { color: 'teal', label: 'Done' },
  failed: { color: 'red', label: 'Failed' },
};

export function ArchiveStatusBadge({ status }: { status: ArchiveStatus }) {
  const s = STATUS[status];
  // Outline in the 9th shade: AA contrast on white (as the other status badges).
  return <Badge color={`${s.color}.9`} variant="outline" data-status={status}>{s.label}</Badge>;
}

export function BackupsTable({ backups, onRestore, restoreDisabled }: { backups: Backup[]; onRestore(backup: Backup): void; restoreDisabled: boolean }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table aria-label="Backups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created</Table.Th><Table.Th>Kind</Table.Th><Table.Th>Status</Table.Th><Table.Th>Size</Table.Th>
            <Table.Th>Expires</Table.Th><Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {backups.map((b) => {
            const when = dateTime(b.createdAt);
            return (
              <Table.Tr key={b.id} data-testid={`backup-${b.id}`}>
                <Table.Td>{when}</Table.Td>
                <Table.Td>{b.kind === 'scheduled' ? 'Daily' : 'Manual'}</Table.Td>
                <Table.Td>
                  <Stack gap={4} align="flex-start">
                    <ArchiveStatusBadge status={b.status} />
                    {b.status === 'failed' && b.error && <Text size="xs" c="red.9" maw={280}>{b.error}</Text>}
                  </Stack>
                </Table.Td>
                <Table.Td>{b.size === null ? '—' : formatBytes(b.size)}</Table.Td>
                <Table.Td>{b.expiresAt ? dateOnly(b.expiresAt) : '—'}</Table.Td>
                <Table.Td>
                  {b.status === 'done' && b.url && (
                    <Group gap="xs" wrap="nowrap">
                      <Button component="a" href={b.url} download size="xs" variant="default" aria-label={`Download the backup of ${when}`}>Download</Button>
                      <Button size="xs" variant="default" disabled={restoreDisabled} onClick={() => onRestore(b)} aria-label={`Restore the backup of ${when}`}>
                        Restore…
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
