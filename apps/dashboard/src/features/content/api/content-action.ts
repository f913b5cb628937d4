// What the management API's content actions share (unpublish, discard: the content API has
// neither): their path and body, and after one the type's lists and documents are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { projectKeys } from '../../../lib/query-keys.ts';
import { isLocalized } from '../components/content-model.ts';
import type { VersionRef } from './version-ref.ts';

/** A stored version: it has its documentId. */
export type StoredVersionRef = VersionRef & { documentId: string };

export function contentActionParams(ref: StoredVersionRef) {
  const path = { slug: ref.slug, uid: ref.type.uid, documentId: ref.documentId };
  return { params: { path }, body: isLocalized(ref.type) ? { locale: ref.locale } : {} };
}

/** The mutation of a content action: the version's document is read again (its status changed). */
export function useContentAction(action: (ref: StoredVersionRef) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: async (_answer, ref) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'list') });
      await queryClient.invalidateQueries({ queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'document') });
    },
  });
}
