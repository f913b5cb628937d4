// Starting an environment (`POST /v1/projects/{slug}/environments`, owners): the new environment
// shows at once (copying) in its parent's list, which then follows the copy.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Environment } from './get-environments.ts';

/** The contract's environment names. */
export const ENVIRONMENT_NAME = /^[a-z][a-z0-9-]{0,19}$/;
export const NAME_RULE = 'Start with a lowercase letter, then up to 19 lowercase letters, digits or dashes.';

export async function createEnvironment(parent: string, name: string): Promise<Environment> {
  return (await unwrap(client.POST('/v1/projects/{slug}/environments', { params: { path: { slug: parent } }, body: { name } }))).environment;
}

export function useCreateEnvironment(parent: string) {
  const queryClient = useQueryClient();
  const key = projectKeys.feature(parent, 'environments');
  return useMutation({
    mutationFn: (name: string) => createEnvironment(parent, name),
    onSuccess: (env) => {
      queryClient.setQueryData<Environment[]>(key, (list = []) => [...list.filter((e) => e.name !== env.name), env]);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
