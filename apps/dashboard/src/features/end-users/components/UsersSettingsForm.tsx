// The users-permissions settings (Strapi's "Advanced settings" of the plugin): registration,
// e-mail confirmation, default role, JWT lifetime and the pages its e-mails lead to.
import { Alert, Button, Group, NumberInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { reportFormError } from '../../../lib/api-error.ts';
import { useUserRoles } from '../../roles/api/get-roles.ts';
import type { UsersSettings } from '../api/get-users-settings.ts';
import { useUpdateUsersSettings } from '../api/update-users-settings.ts';

const DAY = 24 * 3600;

/** Seconds as people say them (2592000 → "30 days"). */
function lifetime(seconds: number): string {
  const units: Array<[number, string]> = [[DAY, 'day'], [3600, 'hour'], [60, 'minute']];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size} ${name}${seconds === size ? '' : 's'}`;
  }
  return `${seconds} seconds`;
}

export function UsersSettingsForm({ slug, settings }: { slug: string; settings: UsersSettings }) {
  const save = useUpdateUsersSettings(slug);
  const roles = useUserRoles(slug);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ initialValues: { ...settings, resetPasswordUrl: settings.resetPasswordUrl ?? '' } });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const body: UsersSettings = { ...values, resetPasswordUrl: values.resetPasswordUrl.trim() || null, emailConfirmationRedirect: values.emailConfirmationRedirect.trim() };
      const saved = await save.mutateAsync(body);
      form.resetDirty({ ...saved, resetPasswordUrl: saved.resetPasswordUrl ?? '' });
      notifications.show({ color: 'teal', message: 'End-user settings saved' });
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not save');
    }
  });
  return (
    <form onSubmit={submit} aria-label="End-user settings">
      <Stack maw={560}>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Switch
          label="Allow registration" description="POST /api/auth/local/register creates users; when off it answers “Register action is currently disabled”."
          {...form.getInputProps('allowRegister', { type: 'checkbox' })}
        />
        <Switch
          label="Require e-mail confirmation" description="New users get a confirmation e-mail and cannot log in until they open its link."
          {...form.getInputProps('emailConfirmation', { type: 'checkbox' })}
        />
        <Select label="Default role of new users" data={roles.options} allowDeselect={false} {...form.getInputProps('defaultRole')} />
        <NumberInput
          label="JWT lifetime (seconds)" description={`${lifetime(Number(form.values.jwtExpiresIn) || 0)}; from 60 seconds to 365 days`}
          min={60} max={365 * DAY} allowDecimal={false} {...form.getInputProps('jwtExpiresIn')}
        />
        <TextInput
          label="Reset password page" placeholder="https://app.example.com/reset-password"
          description="Your front end's page that receives ?code=… from the reset e-mail; empty: the e-mail gives the code alone."
          {...form.getInputProps('resetPasswordUrl')}
        />
        <TextInput
          label="Redirect after e-mail confirmation" description="An http(s) URL, or a path of the API's host starting with /."
          {...form.getInputProps('emailConfirmationRedirect')}
        />
        <Group>
          <Button type="submit" loading={form.submitting}>Save end-user settings</Button>
        </Group>
      </Stack>
    </form>
  );
}
