// The signed-in frame: header with the product name, projects and the account menu.
import { AppShell, Anchor, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, Outlet, useNavigate } from 'react-router';
import { api } from '../api.ts';
import { useAccount, useResetSession } from '../session.ts';

export function Layout() {
  const me = useAccount();
  const reset = useResetSession();
  const navigate = useNavigate();

  async function logout() {
    try {
      await api('POST', '/v1/auth/logout');
    } catch (err) {
      notifications.show({ color: 'red', title: 'Logout failed', message: (err as Error).message });
      return;
    }
    await reset(null);
    navigate('/login');
  }

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Anchor component={Link} to="/projects" fw={700} c="inherit" underline="never">Content Platform</Anchor>
            <Anchor component={Link} to="/projects" size="sm">Projects</Anchor>
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" aria-label={`Account menu: ${me.data?.email ?? ''}`}>{me.data?.email ?? 'Account'}</Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item component={Link} to="/account">Account and sessions</Menu.Item>
              <Menu.Divider />
              <Menu.Item onClick={logout}>Log out</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
        <Text component="footer" c="dimmed" size="xs" ta="center" mt="xl">Strapi v5-compatible content APIs</Text>
      </AppShell.Main>
    </AppShell>
  );
}
