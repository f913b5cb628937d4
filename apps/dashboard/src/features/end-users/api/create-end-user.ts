// Creating an end user (`POST /api/users` of the project's content API): the list is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { EndUser } from './end-user.ts';

export interface NewEndUser {
  username: string;
  email: string;
  password: string;
  role: string;
  confirmed: boolean;
  blocked: boolean;
}

export const createEndUser = (slug: string, user: NewEndUser) => contentApi<EndUser>(slug, 'POST', '/api/users', user);

export function useCreateEndUser(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: NewEndUser) => createEndUser(slug, user),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'end-users') }),
  });
}
