// The busiest routes of the window, with each one's share of the requests.
import { Table, Text } from '@mantine/core';
import { formatNumber } from './format.ts';
import type { RouteUsage } from '../api/get-top-routes.ts';

export function TopRoutes({ routes, total }: { routes: RouteUsage[]; total: number }) {
  if (routes.length === 0) return <Text size="sm" c="dimmed">No requests in the last 30 days: routes show here once your API is called.</Text>;
  return (
    <Table aria-label="Top routes" striped>
      <Table.Thead>
        <Table.Tr><Table.Th>Route</Table.Th><Table.Th ta="right">Requests</Table.Th><Table.Th ta="right">Share</Table.Th></Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {routes.map((r) => (
          <Table.Tr key={r.route}>
            <Table.Td ff="monospace" fz="sm" style={{ wordBreak: 'break-all' }}>{r.route === 'other' ? <Text span fs="italic" fz="sm">other routes</Text> : r.route}</Table.Td>
            <Table.Td ta="right">{formatNumber(r.requests)}</Table.Td>
            <Table.Td ta="right">{total > 0 ? `${Math.round((r.requests / total) * 100)}%` : '–'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
