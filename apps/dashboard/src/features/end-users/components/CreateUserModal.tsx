// A new end user, as `POST /api/users` takes one: the API's checks answer, next to their fields
// (a taken username or e-mail is found out and shown on the field concerned).
import { Alert, Button, Checkbox, Group, Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError, reportFormError } from '../../../lib/api-error.ts';
import { useUserRoles } from '../../roles/api/get-roles.ts';
import { takenIdentifiers } from '../api/count-end-users.ts';
import { useCreateEndUser, type NewEndUser } from '../api/create-end-user.ts';
import type { EndUser } from '../api/end-user.ts';
import { useUsersSettings } from '../api/get-users-settings.ts';

const TAKEN = 'Email or Username are already taken';
// Strapi's minimum for end users' passwords.
const PASSWORD_MIN = 6;

export function CreateUserModal({ slug, opened, onClose, onCreated }: { slug: string; opened: boolean; onClose(): void; onCreated(user: EndUser): void }) {
  const roles = useUserRoles(slug);
  const settings = useUsersSettings(slug);
  const create = useCreateEndUser(slug);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Omit<NewEndUser, 'role'> & { role: string | null }>({
    initialValues: { username: '', email: '', password: '', role: null, confirmed: true, blocked: false },
    validate: {
      username: (v) => (v.trim().length >= 3 ? null : 'At least 3 characters'),
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address'),
      password: (v) => (v.length >= PASSWORD_MIN ? null : `At least ${PASSWORD_MIN} characters`),
    },
  });
  const role = form.values.role ?? settings.data?.defaultRole ?? 'authenticated';
  const close = () => {
    form.reset();
    setFormError(null);
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const user: NewEndUser = { ...values, username: values.username.trim(), email: values.email.trim(), role };
    try {
      const created = await create.mutateAsync(user);
      form.reset();
      onCreated(created);
    } catch (err) {
      if (err instanceof ApiError && err.message === TAKEN) {
        const taken = await takenIdentifiers(slug, user).catch(() => ({ username: false, email: false }));
        if (taken.username || taken.email) {
          form.setErrors({ ...(taken.username ? { username: err.message } : {}), ...(taken.email ? { email: err.message } : {}) });
          return;
        }
      }
      reportFormError(err, form.setErrors, setFormError, 'Could not create the user');
    }
  });
  return (
    <Modal opened={opened} onClose={close} title="Create end user">
      <form onSubmit={submit} noValidate aria-label="Create end user">
        <Stack>
          {formError && <Alert color="red" role="alert">{formError}</Alert>}
          <TextInput label="Username" required autoComplete="off" data-autofocus {...form.getInputProps('username')} />
          <TextInput label="E-mail" type="email" required autoComplete="off" {...form.getInputProps('email')} />
          <PasswordInput label="Password" required autoComplete="new-password" description={`At least ${PASSWORD_MIN} characters`} {...form.getInputProps('password')} />
          <Select
            label="Role" data={roles.options} allowDeselect={false} value={role}
            onChange={(v) => form.setFieldValue('role', v)} error={form.errors.role}
          />
          <Checkbox label="Confirmed (may log in without confirming their e-mail)" {...form.getInputProps('confirmed', { type: 'checkbox' })} />
          <Checkbox label="Blocked" {...form.getInputProps('blocked', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={form.submitting}>Create user</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
