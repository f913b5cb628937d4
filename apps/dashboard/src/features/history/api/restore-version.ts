// Restoring a version (`PUT /v1/projects/{slug}/history/{versionId}/restore`): its content becomes
// the document's draft; links to documents or files deleted since are left out (`meta.dropped`).
// The document's versions, its type's list and the document are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { HistoryVersion } from './get-versions.ts';

/** A link a restore left out: its document (`documentId`) or file (`id`) no longer exists. */
export type DroppedLink = AnswerOf<'/v1/projects/{slug}/history/{versionId}/restore', 'put'>['meta']['dropped'][number];

export async function restoreVersion({ slug, version }: { slug: string; version: HistoryVersion }): Promise<DroppedLink[]> {
  // No options: no body (the route takes `{}` as well).
  const params = { path: { slug, versionId: version.id } };
  const answer = await unwrap(client.PUT('/v1/projects/{slug}/history/{versionId}/restore', { params }));
  return answer.meta.dropped;
}

export function useRestoreVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreVersion,
    onSuccess: async (_dropped, { slug, version }) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'history', 'versions', version.contentType, version.relatedDocumentId) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'content', version.contentType, 'list') });
      await queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'content', version.contentType, 'document') });
    },
  });
}
