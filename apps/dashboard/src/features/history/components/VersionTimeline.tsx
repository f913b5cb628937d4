// A document-locale's versions, newest first: when, what made the change, who, and the document's
// status after it. Choosing one compares it with the current document.
import { Button, Group, Text, Timeline, UnstyledButton } from '@mantine/core';
import { dateTimeSeconds } from '../../../dates.ts';
import { StatusBadge } from '../../content/components/StatusBadge.tsx';
import type { HistoryOrigin, HistoryVersion } from '../api/get-versions.ts';

const ORIGINS: Record<HistoryOrigin, string> = {
  rest: 'REST API', graphql: 'GraphQL', dashboard: 'Dashboard', import: 'Import', release: 'Release', schedule: 'Schedule', restore: 'Restore',
};

export function authorLabel(author: HistoryVersion['createdBy']): string {
  if (!author) return 'Anonymous';
  // No name: the account, token or end user is gone.
  if (author.type === 'apiToken') return author.name === null ? 'A deleted API token' : `API token “${author.name}”`;
  if (author.type === 'user') return author.name === null ? 'A deleted end user' : `End user ${author.name}`;
  return author.name ?? 'A former member';
}

/** `Version 3`: counted from the oldest kept version. */
export const versionLabel = (number: number) => `Version ${number}`;

export interface NumberedVersion {
  version: HistoryVersion;
  number: number;
}

export function VersionTimeline({ versions, selected, showStatus, onSelect, more }: {
  versions: NumberedVersion[];
  selected: number | null;
  /** types without draft & publish have no status to show */
  showStatus: boolean;
  onSelect(version: NumberedVersion): void;
  more: { has: boolean; loading: boolean; load(): void };
}) {
  return (
    <>
      <Timeline active={versions.findIndex((v) => v.version.id === selected)} bulletSize={14} lineWidth={2} role="list" aria-label="Versions">
        {versions.map((item) => {
          const { version } = item;
          const current = version.id === selected;
          return (
            <Timeline.Item key={version.id} role="listitem">
              <UnstyledButton
                onClick={() => onSelect(item)} aria-current={current || undefined} p={6} w="100%"
                // A border, not a tint: the status badges keep their contrast.
                style={{ borderRadius: 'var(--mantine-radius-sm)', border: `1px solid ${current ? 'var(--mantine-color-indigo-7)' : 'transparent'}` }}
              >
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text fw={600} size="sm">{versionLabel(item.number)}</Text>
                  {showStatus && <StatusBadge status={version.status} />}
                </Group>
                <Text size="sm">{dateTimeSeconds(version.createdAt)}</Text>
                <Text size="sm" c="dimmed">{ORIGINS[version.origin] ?? version.origin} · {authorLabel(version.createdBy)}</Text>
              </UnstyledButton>
            </Timeline.Item>
          );
        })}
      </Timeline>
      {more.has && <Button variant="default" size="xs" mt="sm" loading={more.loading} onClick={more.load}>Show older versions</Button>}
    </>
  );
}
