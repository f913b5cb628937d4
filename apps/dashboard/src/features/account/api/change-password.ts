// Changing the password (`PUT /v1/auth/password`, with the current one): the account's other
// sessions end, so its session list is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export type ChangePasswordBody = RequestBody<'/v1/auth/password', 'put'>;

export async function changePassword(body: ChangePasswordBody): Promise<void> {
  await unwrap(client.PUT('/v1/auth/password', { body }));
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.feature('sessions') }),
  });
}
