// One figure against its plan limit: "x of y" and a bar, or "x of unlimited" (no bar) when the
// plan sets no limit (null or negative).
import { Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function LimitMeter({ label, used, limit, format, children }: {
  label: string;
  used: number;
  limit: number | null;
  format(n: number): string;
  /** A line under the bar (an empty state, a hint). */
  children?: ReactNode;
}) {
  const unlimited = limit === null || limit < 0;
  const share = unlimited ? 0 : limit > 0 ? Math.min(100, (used / limit) * 100) : 100;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>{label}</Text>
        <Text size="sm" data-testid={`usage-${label}`}>{format(used)} of {unlimited ? 'unlimited' : format(limit)}</Text>
      </Group>
      {!unlimited && <Progress value={share} color={share >= 90 ? 'red' : 'indigo'} aria-label={`${label}: ${Math.round(share)}% used`} />}
      {children}
    </Stack>
  );
}
