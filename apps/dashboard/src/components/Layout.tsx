// The signed-in frame: header with the product name, projects and the account menu; a banner
// while the account's e-mail address is not verified.
import { Alert, AppShell, Anchor, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { useAccount } from '../features/auth/api/get-session.ts';
import { useLogout } from '../features/auth/api/logout.ts';
import { useSendVerificationEmail } from '../features/auth/api/send-verification-email.ts';

/** "Verify your e-mail address", with a new link on request (the API allows one a minute). */
function VerifyEmailBanner({ email }: { email: string }) {
  const sendLink = useSendVerificationEmail();
  const [result, setResult] = useState('');
  async function send() {
    try {
      await sendLink.mutateAsync();
      setResult(`We sent a new link to ${email}.`);
    } catch (err) {
      setResult(err instanceof Error ? err.message : 'Could not send the link');
    }
  }
  return (
    <Alert color="yellow" role="region" aria-label="Verify your e-mail address" p="xs" mb="md">
      <Group gap="xs" wrap="wrap">
        <Text size="sm"><b>Verify your e-mail address:</b> open the link we sent to {email}.</Text>
        <Button size="compact-sm" variant="default" loading={sendLink.isPending} onClick={send}>Send the link again</Button>
        <Text size="sm" role="status" data-testid="verify-email-result">{result}</Text>
      </Group>
    </Alert>
  );
}

export function Layout() {
  const me = useAccount();
  const logout = useLogout();
  const navigate = useNavigate();

  async function logOut() {
    try {
      await logout.mutateAsync();
    } catch (err) {
      notifications.show({ color: 'red', title: 'Logout failed', message: (err as Error).message });
      return;
    }
    navigate('/login');
  }

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Anchor component={Link} to="/projects" fw={700} c="inherit" underline="never">Content Platform</Anchor>
            <Anchor component={Link} to="/projects" size="sm">Projects</Anchor>
            <Anchor component={Link} to="/docs/api" size="sm">API reference</Anchor>
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" aria-label={`Account menu: ${me.data?.email ?? ''}`}>{me.data?.email ?? 'Account'}</Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item component={Link} to="/account">Account and sessions</Menu.Item>
              <Menu.Divider />
              <Menu.Item onClick={logOut}>Log out</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        {me.data && !me.data.emailVerified && <VerifyEmailBanner email={me.data.email} />}
        <Outlet />
        <Text component="footer" c="dimmed" size="xs" ta="center" mt="xl">Strapi v5-compatible content APIs</Text>
      </AppShell.Main>
    </AppShell>
  );
}
