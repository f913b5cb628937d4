// One webhook's delivery log: newest first, a status badge per delivery, its attempts on demand,
// and replay for the failed and dead ones.
import { Alert, Badge, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Fragment, useState } from 'react';
import { PageError, PageLoader } from '../../../components/PageState.tsx';
import { useDeliveries, type Delivery, type DeliveryStatus } from '../api/get-deliveries.ts';
import type { Webhook } from '../api/get-webhooks.ts';
import { useReplayDelivery } from '../api/replay-delivery.ts';

const STATUS: Record<DeliveryStatus, { color: string; label: string }> = {
  pending: { color: 'gray', label: 'Pending' },
  retrying: { color: 'orange', label: 'Retrying' },
  delivered: { color: 'teal', label: 'Delivered' },
  dead: { color: 'red', label: 'Failed' },
};

export function StatusBadge({ status }: { status: DeliveryStatus }) {
  const s = STATUS[status];
  // Outline in the 9th shade: AA contrast on white (as the other status badges).
  return <Badge color={`${s.color}.9`} variant="outline" data-status={status}>{s.label}</Badge>;
}

const outcome = (d: { responseStatus: number | null; error: string | null }) =>
  d.responseStatus !== null ? `HTTP ${d.responseStatus}` : d.error ?? '—';

export function DeliveryLog({ slug, webhook, canEdit }: { slug: string; webhook: Webhook; canEdit: boolean }) {
  const deliveries = useDeliveries(slug, webhook.id);
  const replayOne = useReplayDelivery(slug, webhook.id);
  const [open, setOpen] = useState<number | null>(null);
  const [replaying, setReplaying] = useState<number | null>(null);

  async function replay(d: Delivery) {
    setReplaying(d.id);
    try {
      await replayOne.mutateAsync(d.id);
      notifications.show({ color: 'teal', message: `Delivery ${d.id} queued again` });
    } catch (err) {
      notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'Could not replay the delivery' });
    } finally {
      setReplaying(null);
    }
  }

  return (
    <Stack gap="xs">
      <Title order={3}>Deliveries of “{webhook.name}”</Title>
      <Text size="sm" c="dimmed">
        The last 100 deliveries. A failed delivery is retried with growing delays for 24 hours, then marked failed; replay sends it again.
      </Text>
      {deliveries.isPending && <PageLoader label="Loading deliveries…" />}
      {deliveries.isError && <PageError error={deliveries.error} />}
      {deliveries.data?.length === 0 && <Text>No deliveries yet. Change some content or send a test event.</Text>}
      {deliveries.data && deliveries.data.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label={`Deliveries of ${webhook.name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th><Table.Th>Status</Table.Th><Table.Th>Response</Table.Th><Table.Th>Attempts</Table.Th>
                <Table.Th>Duration</Table.Th><Table.Th>Created</Table.Th><Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data.map((d) => (
                <Fragment key={d.id}>
                  <Table.Tr data-testid={`delivery-${d.id}`}>
                    <Table.Td><Code>{d.event}</Code></Table.Td>
                    <Table.Td><StatusBadge status={d.status} /></Table.Td>
                    <Table.Td><Text size="sm" lineClamp={1} maw={260}>{d.attempts === 0 ? '—' : outcome(d)}</Text></Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>{d.durationMs === null ? '—' : `${d.durationMs} ms`}</Table.Td>
                    <Table.Td>{new Date(d.createdAt).toLocaleString()}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="subtle" onClick={() => setOpen(open === d.id ? null : d.id)} aria-expanded={open === d.id}
                          aria-label={`${open === d.id ? 'Hide' : 'Show'} attempts of delivery ${d.id}`}>
                          {open === d.id ? 'Hide' : 'Attempts'}
                        </Button>
                        {(d.status === 'dead' || d.status === 'retrying') && (
                          <Button size="xs" variant="default" disabled={!canEdit} loading={replaying === d.id} onClick={() => replay(d)}
                            aria-label={`Replay delivery ${d.id}`}>Replay</Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open === d.id && (
                    <Table.Tr>
                      <Table.Td colSpan={7}>
                        {d.nextAttemptAt && <Alert color="orange" mb="xs">Next attempt {new Date(d.nextAttemptAt).toLocaleString()}</Alert>}
                        {d.log.length === 0 ? <Text size="sm">Not attempted yet.</Text> : (
                          <Stack gap={6}>
                            {d.log.map((a, i) => (
                              <Stack key={i} gap={2}>
                                <Text size="sm"><b>Attempt {a.attempt}</b> · {new Date(a.at).toLocaleString()} · {outcome(a)} · {a.durationMs} ms</Text>
                                {a.responseExcerpt && <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 120, overflow: 'auto' }}>{a.responseExcerpt}</Code>}
                              </Stack>
                            ))}
                          </Stack>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
