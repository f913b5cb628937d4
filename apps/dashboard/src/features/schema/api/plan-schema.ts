// What applying a model change would do (`POST /v1/projects/{slug}/schema/plan`): the API
// rehearses the migration and rolls it back, nothing is changed. The model builder's review.
import { client, unwrap, type AnswerOf, type RequestBody } from '../../../lib/api-client.ts';

/** The model builder's push: the working copy, its renames and the version it was made against. */
export type SchemaPush = RequestBody<'/v1/projects/{slug}/schema/plan', 'post'>;
export type SchemaPlan = AnswerOf<'/v1/projects/{slug}/schema/plan', 'post'>;
export type PlannedChange = SchemaPlan['changes'][number];

export async function planSchema(slug: string, push: SchemaPush): Promise<SchemaPlan> {
  return unwrap(client.POST('/v1/projects/{slug}/schema/plan', { params: { path: { slug } }, body: push }));
}
