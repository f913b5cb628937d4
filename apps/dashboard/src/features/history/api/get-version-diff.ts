// What changed between a version and the document as it is now
// (`GET /v1/projects/{slug}/history/{versionId}/diff?against=current`): one change per attribute path.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

/** One changed attribute path (`title`, `seo.metaTitle`, `sections.1.title`): `before` in what the version is compared with, `after` in the version. */
export type VersionChange = AnswerOf<'/v1/projects/{slug}/history/{versionId}/diff', 'get'>['data']['changes'][number];

export async function getChangesSince(slug: string, versionId: number): Promise<VersionChange[]> {
  const params = { path: { slug, versionId }, query: { against: 'current' as const } };
  return (await unwrap(client.GET('/v1/projects/{slug}/history/{versionId}/diff', { params }))).data.changes;
}

export const changesSinceQueryOptions = (slug: string, versionId: number) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'history', 'diff', versionId), queryFn: () => getChangesSince(slug, versionId) });

export function useChangesSince(slug: string, versionId: number) {
  return useQuery(changesSinceQueryOptions(slug, versionId));
}
