// A release's status as a badge: whether it could be published now, or how its publish ended.
import { Badge } from '@mantine/core';
import type { ReleaseStatus } from '../api/get-releases.ts';

const LOOK: Record<ReleaseStatus, { label: string; color: string }> = {
  ready: { label: 'Ready', color: 'teal' },
  blocked: { label: 'Blocked', color: 'red' },
  failed: { label: 'Failed', color: 'red' },
  done: { label: 'Done', color: 'gray' },
  empty: { label: 'Empty', color: 'blue' },
};

export function ReleaseStatusBadge({ status }: { status: ReleaseStatus }) {
  const { label, color } = LOOK[status];
  // The darkest shade on a transparent background keeps the contrast above 4.5:1.
  return <Badge variant="outline" color={`${color}.9`} data-release-status={status}>{label}</Badge>;
}
