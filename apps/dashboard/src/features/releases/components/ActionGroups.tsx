// A release's entries, grouped by content type and locale: each one's action (Publish or
// Unpublish, switchable while the release is pending), whether it could be applied now (Ready, or
// Blocked with the reason) and Remove. Done releases show the same read-only.
import { Anchor, Badge, Button, SegmentedControl, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Locale } from '../../locales/api/get-locales.ts';
import type { Model } from '../../../model/schema.ts';
import { contentPath, localeSearch } from '../../content/components/content-env.ts';
import { blockedReason, entryLabel, groupActions } from './action-rows.ts';
import type { ActionType, ReleaseAction } from '../api/get-release-actions.ts';
import { useRemoveReleaseAction } from '../api/remove-release-action.ts';
import { useUpdateReleaseAction } from '../api/update-release-action.ts';

export interface ActionGroupsProps {
  slug: string;
  releaseId: number;
  actions: ReleaseAction[];
  model: Model;
  locales: Locale[];
  /** switch and remove (a pending release, a member who may edit) */
  editable: boolean;
  /** done: the validity column is left out */
  done: boolean;
  /** the last failed publish's message per action id */
  failures: Map<number, string>;
  /** after a change (the release and its actions are read again) */
  onChanged(): void;
}

const ACTION_TYPES = [{ value: 'publish', label: 'Publish' }, { value: 'unpublish', label: 'Unpublish' }];

export function ActionGroups(props: ActionGroupsProps) {
  const { actions, model, locales, done } = props;
  if (actions.length === 0) {
    return <Text>No entries yet. Open an entry in the content manager and use <em>Add to release</em>.</Text>;
  }
  return (
    <Stack gap="lg">
      {groupActions(actions, model, locales).map((group) => (
        <Stack key={group.key} gap="xs" component="section" aria-label={group.title}>
          <Title order={3} size="h4">{group.title}</Title>
          {/* Fixed columns: the groups' tables line up. */}
          <Table aria-label={`Entries: ${group.title}`} layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="30%">Entry</Table.Th><Table.Th w={done ? undefined : '25%'}>Action</Table.Th>
                {!done && <Table.Th>Validity</Table.Th>}{props.editable && <Table.Th w={120}><VisuallyHidden>Remove</VisuallyHidden></Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {group.actions.map((action) => <ActionRow key={action.id} {...props} action={action} />)}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
    </Stack>
  );
}

function ActionRow({ slug, releaseId, action, model, editable, done, failures, onChanged }: ActionGroupsProps & { action: ReleaseAction }) {
  const [busy, setBusy] = useState(false);
  const switchType = useUpdateReleaseAction();
  const remove = useRemoveReleaseAction();
  const label = entryLabel(action, model);
  const failure = failures.get(action.id);

  async function change(run: () => Promise<unknown>, failed: string) {
    setBusy(true);
    try {
      await run();
      onChanged();
    } catch (err) {
      notifications.show({ color: 'red', title: failed, message: err instanceof Error ? err.message : 'Something went wrong' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Table.Tr data-action-id={action.id}>
      <Table.Td>
        {action.entry
          ? <Anchor component={Link} to={`${contentPath(slug, action.contentType, action.entryDocumentId)}${localeSearch(action.locale)}`}>{label}</Anchor>
          : <Text size="sm">{label}</Text>}
      </Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          {editable ? (
            <SegmentedControl
              size="xs" data={ACTION_TYPES} value={action.type} disabled={busy} aria-label={`Action for ${label}`}
              onChange={(type) => change(() => switchType.mutateAsync({ slug, releaseId, actionId: action.id, type: type as ActionType }), 'Could not change the action')}
            />
          ) : <Text size="sm">{action.type === 'publish' ? 'Publish' : 'Unpublish'}</Text>}
          {/* Strapi's rule: the release publishes the draft as it is then, edits included. */}
          {action.type === 'publish' && !done && <Text size="xs" c="dimmed">Publishes the entry’s draft as it is at publish time.</Text>}
        </Stack>
      </Table.Td>
      {!done && (
        <Table.Td>
          {action.isEntryValid && !failure ? <Badge variant="outline" color="teal.9">Ready</Badge> : (
            <Stack gap={4} align="flex-start">
              {/* Valid now but refused by the last publish (a unique value taken meanwhile…): Failed. */}
              <Badge variant="outline" color="red.9">{action.isEntryValid ? 'Failed' : 'Blocked'}</Badge>
              <Text size="sm" c="red.9" data-testid="blocked-reason">{blockedReason(action, model, failure)}</Text>
            </Stack>
          )}
        </Table.Td>
      )}
      {editable && (
        <Table.Td>
          <Button
            size="xs" variant="light" color="red" c="red.9" loading={busy} aria-label={`Remove ${label} from the release`}
            onClick={() => change(() => remove.mutateAsync({ slug, releaseId, actionId: action.id }), 'Could not remove the entry')}
          >
            Remove
          </Button>
        </Table.Td>
      )}
    </Table.Tr>
  );
}
