// What a failed publish tells: nothing changed, and each entry that could not be applied with why.
import { Alert, List, Text } from '@mantine/core';
import type { Model } from '../../../model/schema.ts';
import { entryLabel, typeName } from './action-rows.ts';
import type { ReleaseAction } from '../api/get-release-actions.ts';
import type { ReleaseEntryError } from '../api/publish-release.ts';

export function PublishFailure({ errors, actions, model, onClose }: {
  errors: ReleaseEntryError[]; actions: ReleaseAction[]; model: Model; onClose(): void;
}) {
  const named = (e: ReleaseEntryError) => {
    const action = actions.find((a) => a.id === e.actionId);
    const entry = action ? entryLabel(action, model) : e.entryDocumentId;
    return `${typeName(model, e.contentType)} · ${entry}${e.locale ? ` (${e.locale})` : ''}`;
  };
  return (
    <Alert color="red" role="alert" title="The release could not be published" withCloseButton closeButtonLabel="Dismiss" onClose={onClose}>
      <Text size="sm" mb="xs">Nothing was changed. Fix these entries, or remove them from the release, then publish again:</Text>
      <List size="sm" aria-label="Entries that failed">
        {errors.map((e) => <List.Item key={e.actionId}><strong>{named(e)}</strong>: {e.message}</List.Item>)}
      </List>
    </Alert>
  );
}
