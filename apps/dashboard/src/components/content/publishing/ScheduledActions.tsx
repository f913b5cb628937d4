// The entry's scheduled publishes and unpublishes still to run (in this locale), each with Cancel.
// Read again every 2 s while one is due soon; once one has run, the editor reloads.
import { Alert, Button, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { cancelScheduledAction, isDueSoon, listScheduledActions, scheduledActionsKey, type ScheduledAction } from '../../releases/releases-api.ts';
import { zonedLabel } from '../../releases/zones.ts';
import type { EntryTarget } from './entry-target.ts';

const soon = (list: ScheduledAction[] | undefined) => (list ?? []).some((a) => isDueSoon(a.scheduledFor.datetime));

export function ScheduledActions({ target, canEdit, onRan }: { target: EntryTarget; canEdit: boolean; onRan(): void }) {
  const client = useQueryClient();
  const key = scheduledActionsKey(target.slug, target.documentId);
  const list = useQuery({
    queryKey: key,
    queryFn: () => listScheduledActions(target.slug, target.documentId),
    refetchInterval: ({ state: { data } }) => (soon(data) ? 2000 : false),
  });
  const mine = (list.data ?? []).filter((a) => a.contentType === target.uid && a.locale === (target.locale ?? null));
  const [cancelling, setCancelling] = useState<number | null>(null);

  // One that is no longer listed (and not cancelled here) has run: the entry changed.
  const shown = useRef<number[]>([]);
  const cancelled = useRef(new Set<number>());
  useEffect(() => {
    const ids = mine.map((a) => a.id);
    if (shown.current.some((id) => !ids.includes(id) && !cancelled.current.has(id))) onRan();
    shown.current = ids;
  });

  if (mine.length === 0) return null;
  async function cancel(action: ScheduledAction) {
    setCancelling(action.id);
    try {
      cancelled.current.add(action.id);
      await cancelScheduledAction(target.slug, action.id);
      await client.invalidateQueries({ queryKey: key });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not cancel', message: err instanceof Error ? err.message : '' });
    } finally {
      setCancelling(null);
    }
  }
  return (
    <Alert color="blue" title="Scheduled" role="region" aria-label="Scheduled">
      <List size="sm" spacing={4}>
        {mine.map((a) => {
          const text = `${a.action === 'publish' ? 'Publish' : 'Unpublish'} on ${zonedLabel(a.scheduledFor.datetime, a.scheduledFor.timezone)}`;
          return (
            <List.Item key={a.id}>
              <Group gap="sm">
                <Text size="sm">{text}</Text>
                {canEdit && (
                  <Button size="compact-xs" variant="default" loading={cancelling === a.id} onClick={() => cancel(a)} aria-label={`Cancel: ${text}`}>Cancel</Button>
                )}
              </Group>
            </List.Item>
          );
        })}
      </List>
    </Alert>
  );
}
