// A document's preview URL (`GET /v1/projects/{slug}/preview-url`): the type's template filled for
// the document, locale and status; null when the type has no template (the API answers 204).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export interface PreviewTarget {
  slug: string;
  uid: string;
  documentId: string;
  locale?: string;
  status: 'draft' | 'published';
}

export async function getPreviewUrl({ slug, uid, documentId, locale, status }: PreviewTarget): Promise<string | null> {
  const query = { contentType: uid, documentId, status, ...(locale ? { locale } : {}) };
  // A 204 reads as undefined.
  const answer = await unwrap(client.GET('/v1/projects/{slug}/preview-url', { params: { path: { slug }, query } }));
  return answer?.data.url ?? null;
}

export const previewUrlQueryOptions = (target: PreviewTarget) =>
  queryOptions({
    queryKey: projectKeys.feature(target.slug, 'content', target.uid, 'preview-url', target.documentId, target.locale ?? '', target.status),
    queryFn: () => getPreviewUrl(target),
  });

export function usePreviewUrl(target: PreviewTarget) {
  return useQuery(previewUrlQueryOptions(target));
}
