// When a release publishes: its schedule on its zone's wall clock, or when it was published.
import { Text } from '@mantine/core';
import { dateTime } from '../../../dates.ts';
import type { Release } from '../api/get-releases.ts';
import { zonedLabel } from './zones.ts';

export function scheduleText(release: Release): string {
  if (release.releasedAt) return `Published ${dateTime(release.releasedAt)}`;
  if (release.scheduledAt && release.timezone) return `Scheduled for ${zonedLabel(release.scheduledAt, release.timezone)}`;
  return 'Not scheduled';
}

export function ScheduleText({ release, size = 'sm' }: { release: Release; size?: string }) {
  return <Text size={size} data-testid="release-schedule">{scheduleText(release)}</Text>;
}
