// Renaming a project (`PATCH /v1/projects/{slug}`; its slug, and so its addresses, stay): the
// project and the account's project list are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function renameProject(slug: string, name: string) {
  return (await unwrap(client.PATCH('/v1/projects/{slug}', { params: { path: { slug } }, body: { name } }))).project;
}

export function useRenameProject(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameProject(slug, name),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: projectKeys.detail(slug) }),
      queryClient.invalidateQueries({ queryKey: projectKeys.list() }),
    ]),
  });
}
