// Unpublishing a document-locale (`POST /v1/projects/{slug}/content/{uid}/{documentId}/unpublish`):
// its draft stays. The document is read again.
import { client, unwrap } from '../../../lib/api-client.ts';
import { contentActionParams, useContentAction, type StoredVersionRef } from './content-action.ts';

export async function unpublishDocument(ref: StoredVersionRef): Promise<void> {
  await unwrap(client.POST('/v1/projects/{slug}/content/{uid}/{documentId}/unpublish', contentActionParams(ref)));
}

export const useUnpublishDocument = () => useContentAction(unpublishDocument);
