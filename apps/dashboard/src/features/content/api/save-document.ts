// Saving a document version through the project's content API: the draft, or with `publish` the
// draft published in the same call. The type's list and its documents are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { hasDraftAndPublish, isSingleType } from '../components/content-model.ts';
import type { Document } from '../components/form-state.ts';
import { localeOf, pathOf, type VersionRef } from './version-ref.ts';

export interface SaveDocumentInput {
  ref: VersionRef;
  /** the attributes to write (`data`) */
  body: Record<string, unknown>;
  publish: boolean;
}

/** Answers the written version (a new document: created, with its documentId). */
export async function saveDocument({ ref, body, publish }: SaveDocumentInput): Promise<Document> {
  const status = hasDraftAndPublish(ref.type) ? { status: publish ? 'published' : 'draft' } : {};
  const query = strapiQuery({ ...status, ...localeOf(ref) });
  const creates = !isSingleType(ref.type) && !ref.documentId;
  return (await contentApi<{ data: Document }>(ref.slug, creates ? 'POST' : 'PUT', `${pathOf(ref)}${query}`, { data: body })).data;
}

export function useSaveDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDocument,
    onSuccess: async (_doc, { ref }) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'list') });
      // The version shown is read again (a single type gets its documentId with its first save).
      await queryClient.invalidateQueries({ queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'document') });
    },
  });
}
