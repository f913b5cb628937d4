// The entry's scheduled publishes and unpublishes still to run (in this locale), each with Cancel.
// Read again every 2 s while one is due soon; once one has run, the editor reloads.
import { Alert, Button, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useCancelScheduledAction } from '../../../releases/api/cancel-scheduled-action.ts';
import { useScheduledActions, type ScheduledAction } from '../../../releases/api/get-scheduled-actions.ts';
import { zonedLabel } from '../../../releases/components/zones.ts';
import { useReloadDocument } from '../../api/get-draft.ts';
import type { EntryTarget } from './entry-target.ts';

export function ScheduledActions({ target, canEdit }: { target: EntryTarget; canEdit: boolean }) {
  const list = useScheduledActions(target.slug, target.documentId);
  const cancelAction = useCancelScheduledAction();
  const reloadDocument = useReloadDocument(target.slug, target.uid);
  const mine = (list.data ?? []).filter((a) => a.contentType === target.uid && a.locale === (target.locale ?? null));
  const [cancelling, setCancelling] = useState<number | null>(null);

  // One that is no longer listed (and not cancelled here) has run: the entry changed.
  const shown = useRef<number[]>([]);
  const cancelled = useRef(new Set<number>());
  useEffect(() => {
    const ids = mine.map((a) => a.id);
    if (shown.current.some((id) => !ids.includes(id) && !cancelled.current.has(id))) void reloadDocument();
    shown.current = ids;
  });

  if (mine.length === 0) return null;
  async function cancel(action: ScheduledAction) {
    setCancelling(action.id);
    try {
      cancelled.current.add(action.id);
      await cancelAction.mutateAsync({ slug: target.slug, id: action.id, documentId: target.documentId });
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
