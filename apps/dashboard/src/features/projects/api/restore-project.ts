// Restoring a deleted project (`POST /v1/projects/{slug}/restore`): it leaves "Recently deleted"
// for the account's projects (both lists are refreshed).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Project } from './get-project.ts';

export async function restoreProject(slug: string): Promise<Project> {
  return (await unwrap(client.POST('/v1/projects/{slug}/restore', { params: { path: { slug } } }))).project;
}

export function useRestoreProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.list() }),
  });
}
