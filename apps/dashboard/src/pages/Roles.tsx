// End-user roles and what each may do through the content API: the public role (no
// credentials), authenticated (any end user's JWT) and custom roles.
import { Alert, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, type RoleInfo, reportFormError } from '../api.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { PermissionMatrix, type PermissionMap } from '../components/PermissionMatrix.tsx';
import { EditableArea } from '../components/ViewOnly.tsx';
import { projectKey, useProjectRole, useSchema } from '../project.ts';

const BUILTIN = ['public', 'authenticated'];

function NewRole({ slug, onCreated }: { slug: string; onCreated(type: string): void }) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', type: '' },
    validate: { name: (v) => (v.trim() ? null : 'Give the role a name'), type: (v) => (/^[a-z][a-z0-9_-]{0,49}$/.test(v) ? null : 'Lower-case letters, digits, _ and -, starting with a letter') },
  });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await api('POST', `/v1/projects/${slug}/roles`, { name: values.name.trim(), type: values.type });
      form.reset();
      onCreated(values.type);
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not create the role');
    }
  });
  return (
    <form onSubmit={submit} aria-label="New role">
      <Stack>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Group align="flex-end">
          <TextInput label="New role name" {...form.getInputProps('name')} />
          <TextInput label="Type (its key)" placeholder="editor" {...form.getInputProps('type')} />
          <Button type="submit" variant="default" loading={form.submitting}>Add role</Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RolesPage() {
  const { slug = '' } = useParams();
  const client = useQueryClient();
  const key = projectKey(slug, 'roles');
  const { canEdit } = useProjectRole(slug);
  const schema = useSchema(slug);
  const roles = useQuery({ queryKey: key, queryFn: async () => (await api<{ roles: RoleInfo[] }>('GET', `/v1/projects/${slug}/roles`)).roles });
  const [selected, setSelected] = useState('public');
  const [draft, setDraft] = useState<PermissionMap>({});
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const role = roles.data?.find((r) => r.type === selected);
  useEffect(() => setDraft(role?.permissions ?? {}), [role]);
  if (roles.isPending || schema.isPending) return <PageLoader label="Loading roles…" />;
  if (roles.isError || schema.isError) return <PageError error={roles.error ?? schema.error} />;
  async function save() {
    setSaving(true);
    try {
      await api('PUT', `/v1/projects/${slug}/roles/${selected}/permissions`, { permissions: draft });
      await client.invalidateQueries({ queryKey: key });
      notifications.show({ color: 'teal', message: `Permissions of ${role?.name} saved` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not save', message: (err as Error).message });
    } finally {
      setSaving(false);
    }
  }
  return (
    <Stack>
      <Title order={2}>Roles & permissions</Title>
      <Text size="sm" c="dimmed">
        <b>Public</b> applies to requests without credentials, <b>Authenticated</b> to any end user's JWT; custom roles are given to users.
      </Text>
      <Group align="flex-end">
        <Select label="Role" data={roles.data.map((r) => ({ value: r.type, label: `${r.name} (${r.type})` }))} value={selected} onChange={(v) => v && setSelected(v)} allowDeselect={false} />
        {!BUILTIN.includes(selected) && canEdit && <Button color="red" variant="light" onClick={() => setDeleting(true)}>Delete role</Button>}
      </Group>
      <EditableArea readOnly={!canEdit}>
        <Stack>
          <PermissionMatrix schema={schema.data} value={draft} onChange={setDraft} label={`Permissions of ${role?.name ?? selected}`} />
          <Button onClick={save} loading={saving} w="fit-content">Save permissions</Button>
          <NewRole slug={slug} onCreated={async (type) => { await client.invalidateQueries({ queryKey: key }); setSelected(type); }} />
        </Stack>
      </EditableArea>
      <ConfirmModal
        opened={deleting} onClose={() => setDeleting(false)} title="Delete role" confirmLabel="Delete role"
        onConfirm={async () => {
          await api('DELETE', `/v1/projects/${slug}/roles/${selected}`);
          setSelected('public');
          await client.invalidateQueries({ queryKey: key });
        }}
      >
        Users with the role “{role?.name}” become authenticated users.
      </ConfirmModal>
    </Stack>
  );
}
