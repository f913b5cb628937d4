// Turning two-factor off with a code or a recovery code (`POST /v1/auth/2fa/disable`): the
// two-factor status and the account (`twoFactorEnabled`) are refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export async function disableTwoFactor(code: string): Promise<void> {
  await unwrap(client.POST('/v1/auth/2fa/disable', { body: { code } }));
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.feature('two-factor') }),
      queryClient.invalidateQueries({ queryKey: accountKeys.me() }),
    ]),
  });
}
