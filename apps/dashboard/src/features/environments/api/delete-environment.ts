// Deleting an environment (`DELETE /v1/projects/{slug}/environments/{name}`, owners): it leaves its
// parent's list; what was cached of it is stale.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Environment } from './get-environments.ts';

export async function deleteEnvironment(parent: string, name: string): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/environments/{name}', { params: { path: { slug: parent, name } } }));
}

export function useDeleteEnvironment(parent: string) {
  const queryClient = useQueryClient();
  const key = projectKeys.feature(parent, 'environments');
  return useMutation({
    mutationFn: (name: string) => deleteEnvironment(parent, name),
    onSuccess: (_, name) => {
      queryClient.setQueryData<Environment[]>(key, (list = []) => list.filter((e) => e.name !== name));
      // The deleted project's cached data is stale: read again (a 404) if it is opened again. Not
      // refetched now: its page, if open, is left for the parent's.
      void queryClient.invalidateQueries({ queryKey: projectKeys.all(`${parent}--${name}`), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
