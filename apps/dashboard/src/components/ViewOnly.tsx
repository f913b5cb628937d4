// What a viewer is told, and how pages turn their forms off for a role that may not change them
// (the API would answer 403).
import { Alert, Fieldset } from '@mantine/core';
import type { ReactNode } from 'react';

export const VIEW_ONLY_MESSAGE = 'You have view-only access to this project.';

export function ViewOnlyNote() {
  return (
    <Alert color="gray" role="note" aria-label="Your access">
      {VIEW_ONLY_MESSAGE} An owner can make you an editor if you need to change something.
    </Alert>
  );
}

/** Disables every control inside (a native disabled fieldset) when `readOnly`. */
export function EditableArea({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  return (
    <Fieldset variant="unstyled" disabled={readOnly} m={0} p={0}>
      {children}
    </Fieldset>
  );
}
