// Requests per day as stacked bars — served requests and requests refused by a rate limit —
// with the same figures as a table for screen readers and anyone who wants the numbers.
import { Button, Stack, Table, useMantineTheme } from '@mantine/core';
import { useId, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber, longDay, shortDay } from './format.ts';
import type { UsageDay } from '../api/get-daily-usage.ts';

const HEIGHT = 260;

export function RequestsChart({ days }: { days: UsageDay[] }) {
  const theme = useMantineTheme();
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const served = days.reduce((sum, d) => sum + d.requests, 0);
  const rejected = days.reduce((sum, d) => sum + d.rejected, 0);
  const first = days[0];
  const last = days.at(-1);
  const summary = first && last
    ? `Requests per day from ${longDay(first.date)} to ${longDay(last.date)}: ${formatNumber(served)} served and ${formatNumber(rejected)} refused by rate limits in all.`
    : 'Requests per day';
  const axis = { fontSize: 12, fill: theme.colors.gray[7] };
  return (
    <Stack gap="xs">
      <div data-testid="requests-chart" style={{ width: '100%', height: HEIGHT }}>
        <BarChart
          responsive data={days} style={{ width: '100%', height: HEIGHT }} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          aria-label={summary} barCategoryGap="20%"
        >
          <CartesianGrid vertical={false} stroke={theme.colors.gray[3]} />
          <XAxis dataKey="date" tickFormatter={shortDay} tick={axis} tickLine={false} axisLine={{ stroke: theme.colors.gray[4] }} minTickGap={16} />
          <YAxis allowDecimals={false} tickFormatter={formatNumber} tick={axis} tickLine={false} axisLine={false} width={56} />
          <Tooltip
            labelFormatter={(label) => longDay(String(label))}
            formatter={(value) => formatNumber(Number(value))}
            cursor={{ fill: theme.colors.gray[1] }}
          />
          <Legend itemSorter={null} wrapperStyle={{ fontSize: 13, color: theme.colors.gray[8] }} />
          <Bar dataKey="requests" name="Requests" stackId="day" fill={theme.colors.indigo[7]} isAnimationActive={false} />
          <Bar dataKey="rejected" name="Rejected (rate limits)" stackId="day" fill={theme.colors.red[7]} isAnimationActive={false} />
        </BarChart>
      </div>
      <div>
        <Button variant="default" size="compact-sm" onClick={() => setShowTable((v) => !v)} aria-expanded={showTable} aria-controls={tableId}>
          {showTable ? 'Hide the figures' : 'Show the figures as a table'}
        </Button>
      </div>
      <div id={tableId} hidden={!showTable}>
        {showTable && (
          <Table aria-label="Requests per day" striped>
            <Table.Thead>
              <Table.Tr><Table.Th>Day (UTC)</Table.Th><Table.Th ta="right">Requests</Table.Th><Table.Th ta="right">Rejected</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...days].reverse().map((d) => (
                <Table.Tr key={d.date}>
                  <Table.Td>{longDay(d.date)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(d.requests)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(d.rejected)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </div>
    </Stack>
  );
}
