// A project's plan: usage against its limits for every member; for owners, the subscription,
// the plans to compare, Upgrade (Stripe Checkout) and Manage billing (Stripe's portal, where the
// card, invoices and cancellation are), and the grace period after a failed payment.
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useBilling } from '../features/billing/api/get-billing.ts';
import { useOpenBillingPortal } from '../features/billing/api/open-billing-portal.ts';
import { useStartCheckout } from '../features/billing/api/start-checkout.ts';
import { useProject, useProjectRole } from '../features/projects/api/get-project.ts';
import { useUsage } from '../features/usage/api/get-usage.ts';
import { formatBytes as bytes, formatNumber } from '../features/usage/components/format.ts';
import { LimitMeter } from '../features/usage/components/LimitMeter.tsx';
import { ApiError } from '../lib/api-error.ts';

const PLAN_NAMES: Record<string, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };
const planName = (plan: string) => PLAN_NAMES[plan] ?? plan;
const day = (iso: string) => new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric' });

export function BillingPage() {
  const { slug = '' } = useParams();
  const [params] = useSearchParams();
  const project = useProject(slug);
  const { isOwner } = useProjectRole(slug);
  const usage = useUsage(slug);
  const billing = useBilling(slug, isOwner);
  const checkout = useStartCheckout(slug);
  const portal = useOpenBillingPortal(slug);
  const [redirecting, setRedirecting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Checkout and the portal are Stripe's pages: the browser goes there and comes back here.
  async function go(what: string, page: () => Promise<string>) {
    setError(null);
    setRedirecting(what);
    try {
      window.location.assign(await page());
    } catch (err) {
      setRedirecting(null);
      setError(err instanceof Error ? err.message : 'Stripe could not be reached');
    }
  }

  if (project.isPending || usage.isPending) return <PageLoader label="Loading billing…" />;
  if (project.isError) return <PageError error={project.error} />;
  if (usage.isError) return <PageError error={usage.error} />;
  const off = billing.error instanceof ApiError && billing.error.status === 501;
  const state = billing.data;
  const live = state && !['none', 'canceled', 'incomplete_expired'].includes(state.status);

  return (
    <Stack>
      <Title order={2}>Plan and billing</Title>
      {params.get('checkout') === 'success' && <Alert color="teal" role="status">Thank you: your subscription is being set up. The new plan applies as soon as Stripe confirms the payment.</Alert>}
      {params.get('checkout') === 'cancelled' && <Alert color="gray" role="status">Checkout was cancelled: nothing was charged.</Alert>}
      {state?.graceUntil && (
        <Alert color="red" role="alert" title="Your last payment failed">
          The project keeps its {planName(state.plan)} plan until {day(state.graceUntil)}. Update your card in <em>Manage billing</em> before then, or it moves to the Free plan (nothing is deleted).
        </Alert>
      )}
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Stack gap="xs">
            <Group gap="xs"><Text fw={600}>Current plan</Text><Badge size="lg" data-testid="current-plan">{planName(state?.plan ?? project.data.plan)}</Badge></Group>
            {state && state.status !== 'none' && <Text size="sm">Subscription: {state.status.replace('_', ' ')}{state.currentPeriodEnd ? `, ${state.cancelAtPeriodEnd ? 'ends' : 'renews'} on ${day(state.currentPeriodEnd)}` : ''}</Text>}
            {state?.cancelAtPeriodEnd && state.currentPeriodEnd && <Text size="sm">After {day(state.currentPeriodEnd)} the project moves to the Free plan; nothing is deleted.</Text>}
            {!isOwner && <Text size="sm" c="dimmed">Only the project's owners can change its plan.</Text>}
            {isOwner && off && <Text size="sm" c="dimmed">Billing is not enabled on this platform: the project keeps its plan.</Text>}
            {isOwner && billing.isError && !off && <Text size="sm" c="red.9" role="alert">{billing.error.message}</Text>}
            {isOwner && live && (
              <Group>
                <Button onClick={() => go('portal', () => portal.mutateAsync())} loading={redirecting === 'portal'}>Manage billing</Button>
                <Button variant="default" onClick={() => go('invoices', () => portal.mutateAsync())} loading={redirecting === 'invoices'}>Invoices</Button>
                <Text size="sm" c="dimmed">Card, invoices, plan changes and cancellation are in Stripe's billing portal.</Text>
              </Group>
            )}
          </Stack>
        </Card>
        <Card withBorder>
          <Stack gap="sm">
            <Text fw={600}>Usage this month ({usage.data.period})</Text>
            <LimitMeter label="API requests" used={usage.data.requests} limit={usage.data.limits.requestsPerMonth} format={formatNumber} />
            <LimitMeter label="Documents" used={usage.data.documents} limit={usage.data.limits.documents} format={formatNumber} />
            <LimitMeter label="Media storage" used={usage.data.storageBytes} limit={usage.data.limits.storageBytes} format={bytes} />
          </Stack>
        </Card>
      </SimpleGrid>
      {state && (
        <Table aria-label="Plans" maw={900}>
          <Table.Thead>
            <Table.Tr><Table.Th>Plan</Table.Th><Table.Th>Requests a month</Table.Th><Table.Th>Requests a second</Table.Th><Table.Th>Documents</Table.Th><Table.Th>Storage</Table.Th><Table.Th>Largest upload</Table.Th><Table.Th>Pending releases</Table.Th><Table.Th /></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {state.plans.map((p) => (
              <Table.Tr key={p.plan}>
                <Table.Td fw={600}>{planName(p.plan)}</Table.Td>
                <Table.Td>{formatNumber(p.limits.requestsPerMonth)}</Table.Td>
                <Table.Td>{formatNumber(p.limits.requestsPerSecond)}</Table.Td>
                <Table.Td>{formatNumber(p.limits.documents)}</Table.Td>
                <Table.Td>{bytes(p.limits.storageBytes)}</Table.Td>
                <Table.Td>{bytes(p.limits.maxUploadBytes)}</Table.Td>
                <Table.Td>{p.pendingReleases === null ? 'Unlimited' : formatNumber(p.pendingReleases)}</Table.Td>
                <Table.Td>
                  {p.plan === state.plan ? <Badge variant="outline">Current</Badge>
                    : p.purchasable && !live ? (
                      <Button size="xs" onClick={() => go(p.plan, () => checkout.mutateAsync(p.plan))} loading={redirecting === p.plan}>Upgrade to {planName(p.plan)}</Button>
                    ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
