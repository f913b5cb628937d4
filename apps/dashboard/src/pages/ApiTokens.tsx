// API tokens of a project: create (type, permissions, lifespan), the key shown once, list with
// last use, revoke with confirmation.
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { PermissionMatrix, type PermissionMap } from '../components/PermissionMatrix.tsx';
import { useCreateApiToken } from '../features/api-tokens/api/create-api-token.ts';
import { useDeleteApiToken } from '../features/api-tokens/api/delete-api-token.ts';
import { useApiTokenDetails } from '../features/api-tokens/api/get-api-token.ts';
import { useApiTokens, type ApiToken } from '../features/api-tokens/api/get-api-tokens.ts';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useSchema } from '../features/schema/api/get-schema.ts';
import { ApiError } from '../lib/api-error.ts';

const TYPES = [
  { value: 'read-only', label: 'Read-only (find and findOne on everything)' },
  { value: 'full-access', label: 'Full access' },
  { value: 'custom', label: 'Custom permissions' },
];
const LIFESPANS = [
  { value: '7', label: '7 days' }, { value: '30', label: '30 days' }, { value: '90', label: '90 days' }, { value: 'unlimited', label: 'Unlimited' },
];
const when = (iso: string | null | undefined, none: string) => (iso ? new Date(iso).toLocaleString() : none);

function CreateTokenModal({ slug, opened, onClose, onCreated }: { slug: string; opened: boolean; onClose(): void; onCreated(key: string, name: string): void }) {
  const create = useCreateApiToken(slug);
  const schema = useSchema(slug);
  const [permissions, setPermissions] = useState<PermissionMap>({});
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', description: '', type: 'read-only', lifespan: '30' },
    validate: { name: (v) => (v.trim() ? null : 'Give the token a name') },
  });
  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const body = {
        name: values.name.trim(), type: values.type, lifespanDays: values.lifespan === 'unlimited' ? null : Number(values.lifespan),
        ...(values.description ? { description: values.description } : {}), ...(values.type === 'custom' ? { permissions } : {}),
      };
      const { accessKey } = await create.mutateAsync(body);
      form.reset();
      setPermissions({});
      onCreated(accessKey, body.name);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      if (Object.keys(fields).length && Object.keys(fields).every((k) => k in form.values)) form.setErrors(fields);
      else setFormError(err instanceof Error ? err.message : 'Could not create the token');
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Create API token" size="xl">
      <form onSubmit={submit} noValidate aria-label="Create API token">
        <Stack>
          {formError && <Alert color="red" role="alert">{formError}</Alert>}
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
          <Group grow>
            <Select label="Token type" data={TYPES} allowDeselect={false} {...form.getInputProps('type')} />
            <Select label="Duration" data={LIFESPANS} allowDeselect={false} {...form.getInputProps('lifespan')} />
          </Group>
          {form.values.type === 'custom' && (
            schema.isPending ? <PageLoader label="Loading types…" /> : <PermissionMatrix schema={schema.data} value={permissions} onChange={setPermissions} label="Token permissions" forToken />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={form.submitting}>Create token</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function NewKeyModal({ token, onClose }: { token: { key: string; name: string } | null; onClose(): void }) {
  return (
    <Modal opened={token !== null} onClose={onClose} title="Copy your API token" size="lg">
      {token && (
        <Stack>
          <Alert color="yellow" title="Shown only once" role="alert">
            Copy the key of “{token.name}” now and keep it somewhere safe: it is not stored in readable form and cannot be shown again.
          </Alert>
          <Code block data-testid="new-token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{token.key}</Code>
          <Group justify="space-between">
            <CopyButton value={token.key}>
              {({ copied, copy }) => <Button onClick={copy} color={copied ? 'teal' : undefined}>{copied ? 'Copied' : 'Copy token'}</Button>}
            </CopyButton>
            <Button variant="default" onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export function ApiTokensPage() {
  const { slug = '' } = useParams();
  const { canEdit } = useProjectRole(slug);
  const tokens = useApiTokens(slug);
  const revokeToken = useDeleteApiToken(slug);
  // The list has no last use; each token's detail has it.
  const details = useApiTokenDetails(slug, (tokens.data ?? []).map((t) => t.id));
  const [creating, { open, close }] = useDisclosure(false);
  const [newKey, setNewKey] = useState<{ key: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  async function revoke() {
    await revokeToken.mutateAsync(revoking!.id);
    notifications.show({ color: 'teal', message: `Token “${revoking!.name}” revoked` });
  }
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>API tokens</Title>
        <Button onClick={open} disabled={!canEdit}>Create API token</Button>
      </Group>
      <Text size="sm" c="dimmed">Content API clients send a token as <Code>Authorization: Bearer &lt;token&gt;</Code>.</Text>
      {tokens.isPending && <PageLoader label="Loading tokens…" />}
      {tokens.isError && <PageError error={tokens.error} />}
      {tokens.data?.length === 0 && <Text>No tokens yet. Create one to call the API from your apps.</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <Table.ScrollContainer minWidth={700}>
          <Table aria-label="API tokens">
            <Table.Thead>
              <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Type</Table.Th><Table.Th>Created</Table.Th><Table.Th>Expires</Table.Th><Table.Th>Last used</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.map((t, i) => (
                <Table.Tr key={t.id}>
                  <Table.Td>{t.name}</Table.Td>
                  <Table.Td><Badge variant="light">{t.type}</Badge></Table.Td>
                  <Table.Td>{when(t.createdAt, '')}</Table.Td>
                  <Table.Td>{when(t.expiresAt, 'Never')}</Table.Td>
                  <Table.Td>{details[i]?.data ? when(details[i]!.data!.lastUsedAt, 'Never') : '…'}</Table.Td>
                  <Table.Td>
                    <Button size="xs" color="red" variant="light" disabled={!canEdit} onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>Revoke</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateTokenModal slug={slug} opened={creating} onClose={close} onCreated={(key, name) => { close(); setNewKey({ key, name }); }} />
      <NewKeyModal token={newKey} onClose={() => setNewKey(null)} />
      <ConfirmModal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke token" confirmLabel="Revoke token" onConfirm={revoke}>
        Apps using “{revoking?.name}” will get 401 from now on. This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
