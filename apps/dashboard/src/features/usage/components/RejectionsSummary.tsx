// Requests refused by rate limits over the window, by the limit that refused them.
import { Group, Stack, Text } from '@mantine/core';
import { formatNumber } from './format.ts';
import type { Rejections } from '../api/get-rejections.ts';

const KINDS: Array<{ kind: keyof Rejections; label: string; hint: string }> = [
  { kind: 'perSecond', label: 'Requests per second', hint: 'more requests in one second than the plan allows' },
  { kind: 'monthly', label: 'Monthly quota', hint: "the plan's requests for the month were used up" },
  { kind: 'auth', label: 'Login and sign-up attempts', hint: 'too many attempts for one account or address (brute-force protection)' },
];

export function RejectionsSummary({ total }: { total: Rejections }) {
  const all = total.perSecond + total.monthly + total.auth;
  return (
    <Stack gap="xs">
      <Text size="xl" fw={700} data-testid="rejected-total">{formatNumber(all)}</Text>
      <Text size="sm" c="dimmed">
        {all === 0 ? 'No request was refused by a rate limit in the last 30 days.' : 'Requests answered with 429 Too Many Requests in the last 30 days (not counted as usage):'}
      </Text>
      {all > 0 && (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Rejections by limit">
          {KINDS.map(({ kind, label, hint }) => (
            <li key={kind}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{label}</Text>
                <Text size="sm" fw={500} data-testid={`rejected-${kind}`}>{formatNumber(total[kind])}</Text>
              </Group>
              <Text size="xs" c="dimmed">{hint}</Text>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
