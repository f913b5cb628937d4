// The account: change password, two-factor sign-in, active sessions, log out everywhere, its
// security activity (its own audit log), delete the account.
import { Alert, Badge, Button, Card, Group, PasswordInput, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { SecurityActivity } from '../components/SecurityActivity.tsx';
import { TwoFactorSection } from '../components/TwoFactorSection.tsx';
import { useChangePassword } from '../features/account/api/change-password.ts';
import { useDeleteAccount } from '../features/account/api/delete-account.ts';
import { useEndAllSessions } from '../features/account/api/end-all-sessions.ts';
import { useEndSession } from '../features/account/api/end-session.ts';
import { useSessions } from '../features/account/api/get-sessions.ts';
import { useAccount } from '../features/auth/api/get-session.ts';
import { ApiError, reportFormError } from '../lib/api-error.ts';

function ChangePassword() {
  const [error, setError] = useState<string | null>(null);
  const changePassword = useChangePassword();
  const form = useForm({
    initialValues: { currentPassword: '', password: '' },
    validate: { password: (v) => (v.length < 8 ? 'Use at least 8 characters' : null), currentPassword: (v) => (v ? null : 'Enter your current password') },
  });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await changePassword.mutateAsync(values);
      form.reset();
      notifications.show({ color: 'teal', title: 'Password changed', message: 'Your other sessions were logged out.' });
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not change the password');
    }
  });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">Change password</Title>
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack maw={400}>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <PasswordInput label="Current password" autoComplete="current-password" {...form.getInputProps('currentPassword')} />
          <PasswordInput label="New password" description="At least 8 characters" autoComplete="new-password" {...form.getInputProps('password')} />
          <Button type="submit" loading={form.submitting} w="fit-content">Change password</Button>
        </Stack>
      </form>
    </Card>
  );
}

function Sessions() {
  const navigate = useNavigate();
  const sessions = useSessions();
  const endSession = useEndSession();
  const endAllSessions = useEndAllSessions();
  async function end(id: number) {
    try {
      await endSession.mutateAsync(id);
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not end the session', message: (err as Error).message });
    }
  }
  async function everywhere() {
    try {
      await endAllSessions.mutateAsync();
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not log out everywhere', message: (err as Error).message });
      return;
    }
    navigate('/login');
  }
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">Active sessions</Title>
        <Button color="red" variant="light" onClick={everywhere}>Log out everywhere</Button>
      </Group>
      {sessions.isPending && <PageLoader label="Loading sessions…" />}
      {sessions.isError && <PageError error={sessions.error} />}
      {sessions.data && (
        <Table.ScrollContainer minWidth={500}>
          <Table aria-label="Active sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th><Table.Th>IP address</Table.Th><Table.Th>Signed in</Table.Th><Table.Th>Last seen</Table.Th>
                <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.map((s) => (
                <Table.Tr key={s.id}>
                  {/* The label parsed from the user agent; the full user agent on hover. */}
                  <Table.Td title={s.userAgent ?? undefined}>{s.device} {s.current && <Badge ml="xs" variant="light">This session</Badge>}</Table.Td>
                  <Table.Td>
                    {s.ip ?? 'Unknown'}
                    {s.lastSeenIp && s.lastSeenIp !== s.ip && <Text size="sm">last seen from {s.lastSeenIp}</Text>}
                  </Table.Td>
                  <Table.Td>{new Date(s.createdAt).toLocaleString()}</Table.Td>
                  <Table.Td>{new Date(s.lastUsedAt).toLocaleString()}</Table.Td>
                  <Table.Td>{!s.current && <Button size="xs" variant="default" onClick={() => end(s.id)}>End session</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** The danger zone: the password, then the e-mail address typed in a confirmation. */
function DeleteAccount({ email }: { email: string }) {
  const [opened, setOpened] = useState(false);
  const deleteAccount = useDeleteAccount();
  const navigate = useNavigate();
  const form = useForm({ initialValues: { password: '' }, validate: { password: (v) => (v ? null : 'Enter your password') } });
  const ask = form.onSubmit(() => setOpened(true));
  async function remove() {
    try {
      await deleteAccount.mutateAsync(form.getValues().password);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      // A wrong password is shown next to its field (the dialog closes).
      if (fields.password) {
        form.setErrors({ password: fields.password });
        return;
      }
      throw err;
    }
    navigate('/', { replace: true });
    notifications.show({ color: 'teal', title: 'Account deleted', message: `${email} and the projects only it owned are deleted.` });
  }
  return (
    <Card withBorder style={{ borderColor: 'var(--mantine-color-red-8)' }}>
      <Title order={2} size="h4" mb="sm">Delete account</Title>
      <Text size="sm" mb="sm">
        Deletes your account and logs it out everywhere. Projects where you are the only owner are deleted with all their content,
        media, API tokens and end users; projects with another owner stay with them. This cannot be undone.
      </Text>
      <form onSubmit={ask} noValidate aria-label="Delete account">
        <Stack maw={400}>
          <PasswordInput label="Your password" autoComplete="current-password" {...form.getInputProps('password')} />
          <Button type="submit" color="red" w="fit-content">Delete account</Button>
        </Stack>
      </form>
      <ConfirmModal opened={opened} onClose={() => setOpened(false)} title="Delete account" confirmLabel="Delete my account" typed={email} onConfirm={remove}>
        Your account {email}, and every project where you are the only owner, will be deleted for good.
      </ConfirmModal>
    </Card>
  );
}

export function AccountPage() {
  const me = useAccount();
  return (
    <Stack>
      <Title order={1}>Account</Title>
      <Text>
        Signed in as <b>{me.data?.email}</b>
        {me.data?.emailVerified && <Badge ml="xs" variant="light">Verified</Badge>}
      </Text>
      <ChangePassword />
      <TwoFactorSection />
      <Sessions />
      <SecurityActivity />
      {me.data && <DeleteAccount email={me.data.email} />}
    </Stack>
  );
}
