// Creating a project (`POST /v1/projects`): the account's project list is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateProjectBody = RequestBody<'/v1/projects', 'post'>;

export async function createProject(body: CreateProjectBody) {
  return (await unwrap(client.POST('/v1/projects', { body }))).project;
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.list() }),
  });
}
