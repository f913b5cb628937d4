// A project's usage for every member: requests per day over the last 30 days (with the requests
// rate limits refused), this month against the plan's limits, the busiest routes and the
// rejections by limit. Figures are the platform's metering (docs/management-api.md § Usage).
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useDailyUsage } from '../features/usage/api/get-daily-usage.ts';
import { useRejections } from '../features/usage/api/get-rejections.ts';
import { useTopRoutes } from '../features/usage/api/get-top-routes.ts';
import { useUsage } from '../features/usage/api/get-usage.ts';
import { useRefreshUsage } from '../features/usage/api/refresh-usage.ts';
import { formatBytes, formatNumber, monthName } from '../features/usage/components/format.ts';
import { LimitMeter } from '../features/usage/components/LimitMeter.tsx';
import { RejectionsSummary } from '../features/usage/components/RejectionsSummary.tsx';
import { TopRoutes } from '../features/usage/components/TopRoutes.tsx';

// The chart library is loaded with this page only.
const RequestsChart = lazy(async () => ({ default: (await import('../features/usage/components/RequestsChart.tsx')).RequestsChart }));

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="xl" fw={700} data-testid={testId}>{value}</Text>
    </Card>
  );
}

export function UsagePage() {
  const { slug = '' } = useParams();
  const refresh = useRefreshUsage(slug);
  const month = useUsage(slug);
  const daily = useDailyUsage(slug);
  const rejections = useRejections(slug);
  const routes = useTopRoutes(slug);
  const queries = [month, daily, rejections, routes];
  const failed = queries.find((q) => q.isError);
  if (failed) return <PageError error={failed.error} title="Could not load the usage" />;
  if (!month.data || !daily.data || !rejections.data || !routes.data) return <PageLoader label="Loading usage…" />;

  const days = daily.data;
  const today = days.at(-1);
  const served = days.reduce((sum, d) => sum + d.requests, 0);
  const refused = days.reduce((sum, d) => sum + d.rejected, 0);
  const { limits } = month.data;
  const refreshing = queries.some((q) => q.isFetching);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Usage</Title>
        <Button variant="default" loading={refreshing} onClick={refresh}>Refresh</Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure label="Requests today (UTC)" value={formatNumber(today?.requests ?? 0)} testId="requests-today" />
        <Figure label="Requests in the last 30 days" value={formatNumber(served)} testId="requests-30-days" />
        <Figure label="Rejected by rate limits (30 days)" value={formatNumber(refused)} testId="rejected-30-days" />
      </SimpleGrid>
      <Card withBorder>
        <Title order={3} size="h4" mb="xs">Requests per day</Title>
        {served + refused === 0
          ? <Text c="dimmed" py="xl" ta="center">No requests in the last 30 days. Call your project's API (see the Overview) and they show here.</Text>
          : <Suspense fallback={<PageLoader label="Drawing the chart…" />}><RequestsChart days={days} /></Suspense>}
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Stack gap="sm">
            <Title order={3} size="h4">{monthName(month.data.period)} against your plan</Title>
            <LimitMeter label="API requests" used={month.data.requests} limit={limits.requestsPerMonth} format={formatNumber}>
              {month.data.requests === 0 && <Text size="sm" c="dimmed">No requests yet this month.</Text>}
            </LimitMeter>
            <LimitMeter label="Documents" used={month.data.documents} limit={limits.documents} format={formatNumber} />
            <LimitMeter label="Media storage" used={month.data.storageBytes} limit={limits.storageBytes} format={formatBytes} />
            <Text size="sm" data-testid="history-bytes">Content history: {formatBytes(month.data.historyBytes)}</Text>
            <Text size="xs" c="dimmed">
              Requests a second allowed: {limits.requestsPerSecond === null || limits.requestsPerSecond < 0 ? 'unlimited' : formatNumber(limits.requestsPerSecond)}.
              Requests the dashboard makes for you are not counted.
            </Text>
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={3} size="h4" mb="xs">Rate-limit rejections</Title>
          <RejectionsSummary total={rejections.data.total} />
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={3} size="h4" mb="xs">Top routes (last 30 days)</Title>
        <TopRoutes routes={routes.data} total={served} />
      </Card>
    </Stack>
  );
}
