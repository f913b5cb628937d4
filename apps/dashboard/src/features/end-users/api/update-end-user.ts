// Changing an end user's role, confirmation or block (`PUT /api/users/{id}` of the project's
// content API): the list is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { EndUser } from './end-user.ts';

export type EndUserChanges = Partial<Pick<EndUser, 'blocked' | 'confirmed'>> & { role?: string };

export const updateEndUser = (slug: string, id: number, changes: EndUserChanges) => contentApi<EndUser>(slug, 'PUT', `/api/users/${id}`, changes);

export function useUpdateEndUser(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: EndUserChanges }) => updateEndUser(slug, id, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'end-users') }),
  });
}
