// Turning two-factor on with a code of the new secret (`POST /v1/auth/2fa/enable`): answers the ten
// recovery codes, once. The two-factor status and the account (`twoFactorEnabled`) are refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export async function enableTwoFactor(code: string): Promise<string[]> {
  return (await unwrap(client.POST('/v1/auth/2fa/enable', { body: { code } }))).recoveryCodes;
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    // Not awaited: the recovery codes show at once, before the refreshed status says "on".
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.feature('two-factor') });
      void queryClient.invalidateQueries({ queryKey: accountKeys.me() });
    },
  });
}
