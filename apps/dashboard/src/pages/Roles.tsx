// End-user roles and what each may do through the content API: the public role (no
// credentials), authenticated (any end user's JWT) and custom roles.
import { Alert, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { PermissionMatrix, type PermissionMap } from '../components/PermissionMatrix.tsx';
import { EditableArea } from '../components/ViewOnly.tsx';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useCreateRole } from '../features/roles/api/create-role.ts';
import { useDeleteRole } from '../features/roles/api/delete-role.ts';
import { useRoles } from '../features/roles/api/get-roles.ts';
import { useUpdateRolePermissions } from '../features/roles/api/update-role-permissions.ts';
import { useSchema } from '../features/schema/api/get-schema.ts';
import { reportFormError } from '../lib/api-error.ts';

const BUILTIN = ['public', 'authenticated'];

function NewRole({ slug, onCreated }: { slug: string; onCreated(type: string): void }) {
  const create = useCreateRole(slug);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', type: '' },
    validate: { name: (v) => (v.trim() ? null : 'Give the role a name'), type: (v) => (/^[a-z][a-z0-9_-]{0,49}$/.test(v) ? null : 'Lower-case letters, digits, _ and -, starting with a letter') },
  });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await create.mutateAsync({ name: values.name.trim(), type: values.type });
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
  const { canEdit } = useProjectRole(slug);
  const schema = useSchema(slug);
  const roles = useRoles(slug);
  const savePermissions = useUpdateRolePermissions(slug);
  const deleteRole = useDeleteRole(slug);
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
      await savePermissions.mutateAsync({ type: selected, permissions: draft });
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
          <NewRole slug={slug} onCreated={setSelected} />
        </Stack>
      </EditableArea>
      <ConfirmModal
        opened={deleting} onClose={() => setDeleting(false)} title="Delete role" confirmLabel="Delete role"
        onConfirm={async () => {
          await deleteRole.mutateAsync(selected);
          setSelected('public');
        }}
      >
        Users with the role “{role?.name}” become authenticated users.
      </ConfirmModal>
    </Stack>
  );
}
