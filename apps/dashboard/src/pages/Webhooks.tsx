// A project's webhooks: list, create and edit (URL, events, headers, enabled), the signing
// secret shown once after creation, a test send with its outcome, and each webhook's delivery
// log with replay. Viewers read only.
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useDeleteWebhook } from '../features/webhooks/api/delete-webhook.ts';
import type { Delivery } from '../features/webhooks/api/get-deliveries.ts';
import { useWebhooks, type Webhook } from '../features/webhooks/api/get-webhooks.ts';
import { useTestWebhook } from '../features/webhooks/api/test-webhook.ts';
import { DeliveryLog } from '../features/webhooks/components/DeliveryLog.tsx';
import { WebhookFormModal } from '../features/webhooks/components/WebhookFormModal.tsx';

function SecretModal({ secret, onClose }: { secret: { value: string; name: string } | null; onClose(): void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Copy the signing secret" size="lg">
      {secret && (
        <Stack>
          <Alert color="yellow" title="Shown only once" role="alert">
            Copy the signing secret of “{secret.name}” now: it cannot be shown again. Your receiver checks the
            X-Webhook-Signature header of every request with it.
          </Alert>
          <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{secret.value}</Code>
          <Group justify="space-between">
            <CopyButton value={secret.value}>
              {({ copied, copy }) => <Button onClick={copy} color={copied ? 'teal' : undefined}>{copied ? 'Copied' : 'Copy secret'}</Button>}
            </CopyButton>
            <Button variant="default" onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export function WebhooksPage() {
  const { slug = '' } = useParams();
  const { canEdit } = useProjectRole(slug);
  const webhooks = useWebhooks(slug);
  const deleteWebhook = useDeleteWebhook(slug);
  const testWebhook = useTestWebhook(slug);
  const [form, setForm] = useState<{ editing: Webhook | null } | null>(null);
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const [tested, setTested] = useState<{ hook: Webhook; delivery: Delivery } | null>(null);

  async function remove() {
    await deleteWebhook.mutateAsync(deleting!.id);
    if (selected === deleting!.id) setSelected(null);
    notifications.show({ color: 'teal', message: `Webhook “${deleting!.name}” deleted` });
  }

  async function test(hook: Webhook) {
    setTesting(hook.id);
    setTested(null);
    try {
      const delivery = await testWebhook.mutateAsync(hook.id);
      setTested({ hook, delivery });
      setSelected(hook.id);
    } catch (err) {
      notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'Could not send the test event' });
    } finally {
      setTesting(null);
    }
  }

  const shown = webhooks.data?.find((h) => h.id === selected) ?? null;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Webhooks</Title>
        <Button onClick={() => setForm({ editing: null })} disabled={!canEdit}>Create webhook</Button>
      </Group>
      <Text size="sm" c="dimmed">
        A webhook POSTs Strapi’s payload <Code>{'{event, createdAt, model, uid, entry}'}</Code> to your URL when content or media
        changes, signed in <Code>X-Webhook-Signature</Code> with the webhook’s secret.
      </Text>
      {webhooks.isPending && <PageLoader label="Loading webhooks…" />}
      {webhooks.isError && <PageError error={webhooks.error} />}
      {webhooks.data?.length === 0 && <Text>No webhooks yet. Create one to tell your site or build pipeline when content changes.</Text>}
      {tested && (
        <Alert color={tested.delivery.status === 'delivered' ? 'teal' : 'red'} role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setTested(null)}
          title={`Test event to “${tested.hook.name}”: ${tested.delivery.status === 'delivered' ? 'delivered' : 'failed'}`}>
          {tested.delivery.responseStatus !== null ? `The receiver answered HTTP ${tested.delivery.responseStatus}` : tested.delivery.error}
          {tested.delivery.durationMs !== null && ` in ${tested.delivery.durationMs} ms`}.
        </Alert>
      )}
      {webhooks.data && webhooks.data.length > 0 && (
        <Table.ScrollContainer minWidth={800}>
          <Table aria-label="Webhooks">
            <Table.Thead>
              <Table.Tr><Table.Th>Name</Table.Th><Table.Th>URL</Table.Th><Table.Th>Events</Table.Th><Table.Th>State</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {webhooks.data.map((h) => (
                <Table.Tr key={h.id}>
                  <Table.Td>{h.name}</Table.Td>
                  <Table.Td><Text size="sm" style={{ wordBreak: 'break-all' }}>{h.url}</Text></Table.Td>
                  <Table.Td><Text size="sm">{h.events.join(', ')}</Text></Table.Td>
                  <Table.Td>{h.enabled ? <Badge color="teal.9" variant="outline">Enabled</Badge> : <Badge color="gray.9" variant="outline">Disabled</Badge>}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setSelected(h.id)} aria-label={`Deliveries of ${h.name}`}>Deliveries</Button>
                      <Button size="xs" variant="default" disabled={!canEdit} loading={testing === h.id} onClick={() => test(h)} aria-label={`Send test to ${h.name}`}>Send test</Button>
                      <Button size="xs" variant="default" disabled={!canEdit} onClick={() => setForm({ editing: h })} aria-label={`Edit ${h.name}`}>Edit</Button>
                      <Button size="xs" color="red" variant="light" disabled={!canEdit} onClick={() => setDeleting(h)} aria-label={`Delete ${h.name}`}>Delete</Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {shown && <DeliveryLog slug={slug} webhook={shown} canEdit={canEdit} />}
      <WebhookFormModal
        slug={slug} opened={form !== null} editing={form?.editing ?? null} onClose={() => setForm(null)}
        onCreated={(value, name) => setSecret({ value, name })}
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
      <ConfirmModal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete webhook" confirmLabel="Delete webhook" onConfirm={remove}>
        “{deleting?.name}” stops receiving events, and its delivery log is deleted with it.
      </ConfirmModal>
    </Stack>
  );
}

