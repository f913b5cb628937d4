// Scheduling a document's publish or unpublish (`POST /v1/projects/{slug}/scheduled-actions`) at a
// wall-clock time on a time zone: the document's scheduled actions are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type ScheduleActionBody = RequestBody<'/v1/projects/{slug}/scheduled-actions', 'post'>;

export async function scheduleAction({ slug, body }: { slug: string; body: ScheduleActionBody }) {
  return (await unwrap(client.POST('/v1/projects/{slug}/scheduled-actions', { params: { path: { slug } }, body }))).data;
}

export function useScheduleAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scheduleAction,
    onSuccess: (_action, { slug, body }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'scheduled-actions', body.documentId) }),
  });
}
