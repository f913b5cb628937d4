// Discarding a document-locale's draft (`POST /v1/projects/{slug}/content/{uid}/{documentId}/discard`):
// it goes back to the published version. The document is read again.
import { client, unwrap } from '../../../lib/api-client.ts';
import { contentActionParams, useContentAction, type StoredVersionRef } from './content-action.ts';

export async function discardDraft(ref: StoredVersionRef): Promise<void> {
  await unwrap(client.POST('/v1/projects/{slug}/content/{uid}/{documentId}/discard', contentActionParams(ref)));
}

export const useDiscardDraft = () => useContentAction(discardDraft);
