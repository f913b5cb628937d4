// Deleting a document version through the project's content API: this locale's, or with
// `allLocales` every version of the document. The type's list is read again (and a single type's
// document: its page stays).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { isLocalized, isSingleType } from '../components/content-model.ts';
import { pathOf, type VersionRef } from './version-ref.ts';

export async function deleteDocument({ ref, allLocales }: { ref: VersionRef; allLocales: boolean }): Promise<void> {
  const locale = isLocalized(ref.type) ? { locale: allLocales ? '*' : ref.locale } : {};
  await contentApi(ref.slug, 'DELETE', `${pathOf(ref)}${strapiQuery(locale)}`);
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSuccess: (_answer, { ref }) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'list') });
      if (isSingleType(ref.type)) void queryClient.invalidateQueries({ queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'document') });
    },
  });
}
