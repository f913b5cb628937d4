// Promoting an environment's model to its parent (`POST /v1/projects/{slug}/environments/{name}/promote`,
// owners): a dry run plans the migration (nothing changes); applying it (with `confirm` for a
// destructive plan) changes the parent's model, so everything cached of the parent is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type PromoteAnswer = AnswerOf<'/v1/projects/{slug}/environments/{name}/promote', 'post'>;
export type PromoteStep = PromoteAnswer['plan']['steps'][number];
type PromoteBody = NonNullable<RequestBody<'/v1/projects/{slug}/environments/{name}/promote', 'post'>>;

export async function promoteEnvironment(parent: string, name: string, body: PromoteBody): Promise<PromoteAnswer> {
  return unwrap(client.POST('/v1/projects/{slug}/environments/{name}/promote', { params: { path: { slug: parent, name } }, body }));
}

/** Applies the promotion (the plan is `promoteEnvironment(…, { dryRun: true })`). */
export function usePromoteEnvironment(parent: string, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: { confirm?: true }) => promoteEnvironment(parent, name, { dryRun: false, ...options }),
    // Not awaited: the outcome is shown at once, the parent's model (and what is planned from it) follows.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: projectKeys.all(parent) }),
  });
}
