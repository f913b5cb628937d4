// The project rule "members must use two-factor" (docs/two-factor.md): its switch on the Settings
// page (owners change it, and only with two-factor on themselves), and the page a member without
// two-factor sees instead of the project while the rule is on.
import { Alert, Anchor, Button, Card, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAccount } from '../features/auth/api/get-session.ts';
import { useSecuritySettings } from '../features/settings/api/get-security-settings.ts';
import { useUpdateSecuritySettings } from '../features/settings/api/update-security-settings.ts';
import { ApiError } from '../lib/api-error.ts';
import { PageError, PageLoader } from './PageState.tsx';

/** The error the API answers a member the rule keeps out. */
export function isTwoFactorSetupRequired(error: unknown): boolean {
  return error instanceof ApiError && error.errorName === 'TwoFactorSetupRequired';
}

export function RequireTwoFactorSetting({ slug, isOwner }: { slug: string; isOwner: boolean }) {
  const me = useAccount();
  const security = useSecuritySettings(slug);
  const update = useUpdateSecuritySettings(slug);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function change(requireTwoFactor: boolean) {
    setError(null);
    setSaving(true);
    try {
      await update.mutateAsync({ requireTwoFactor });
      notifications.show({ color: 'teal', message: requireTwoFactor ? 'Members must now use two-factor authentication' : 'Two-factor authentication is optional again' });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  }
  const ownTwoFactor = me.data?.twoFactorEnabled === true;
  const on = security.data?.requireTwoFactor === true;
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">Security</Title>
      {security.isPending && <PageLoader label="Loading…" />}
      {security.isError && <PageError error={security.error} />}
      {security.data && (
        <Stack maw={520}>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <Switch
            label="Require two-factor for members" checked={on} onChange={(e) => change(e.currentTarget.checked)}
            disabled={!isOwner || saving || (!on && !ownTwoFactor)}
            description="Members without two-factor authentication cannot open this project until they turn it on."
          />
          {!isOwner && <Text size="sm" c="dimmed">Only owners can change this.</Text>}
          {isOwner && !on && !ownTwoFactor && (
            <Text size="sm">
              Turn on two-factor authentication for your own account first, on your <Anchor component={Link} to="/account">Account page</Anchor>.
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}

/** Shown in place of a project whose rule keeps this account out. */
export function TwoFactorRequiredNotice({ projectSlug }: { projectSlug: string }) {
  return (
    <Alert color="yellow" title="This project requires two-factor authentication" role="alert" my="md">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          The owners of <b>{projectSlug}</b> require every member to sign in with two-factor authentication. Turn it on for your
          account, then come back: the project opens as before.
        </Text>
        <Button component={Link} to="/account">Set up two-factor authentication</Button>
      </Stack>
    </Alert>
  );
}
