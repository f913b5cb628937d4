// Deleting an end user (`DELETE /api/users/{id}` of the project's content API; their JWTs stop
// working at once): the list is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { EndUser } from './end-user.ts';

export const deleteEndUser = (slug: string, id: number) => contentApi<EndUser>(slug, 'DELETE', `/api/users/${id}`);

export function useDeleteEndUser(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteEndUser(slug, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'end-users') }),
  });
}
