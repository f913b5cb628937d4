// A content access key for the signed-in member (`POST /v1/projects/{slug}/content-access`): the
// short-lived bearer credential of the project's own content API (full access for owners and
// editors, read-only for viewers). content-api.ts keeps it in memory and renews it.
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';

export type ContentAccess = AnswerOf<'/v1/projects/{slug}/content-access', 'post'>;

export async function createContentAccess(slug: string): Promise<ContentAccess> {
  return unwrap(client.POST('/v1/projects/{slug}/content-access', { params: { path: { slug } } }));
}
