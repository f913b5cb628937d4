// Verifying the e-mail address with the mailed link's token (`POST /v1/auth/verify-email`), signed
// in or not. Signed in as that account, it (and its banner) follows at once, not after a refetch.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { sessionQueryOptions, type Account } from './get-session.ts';

export async function verifyEmail(token: string): Promise<Account> {
  return (await unwrap(client.POST('/v1/auth/verify-email', { body: { token } }))).account;
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  const { queryKey } = sessionQueryOptions();
  return useMutation({
    mutationFn: verifyEmail,
    // A read of the account still on its way (the page's first, sent before the address was
    // verified) is cancelled first, so it cannot put the unverified account back.
    onSuccess: async (verified) => {
      await queryClient.cancelQueries({ queryKey });
      queryClient.setQueryData(queryKey, (current) => (current?.id === verified.id ? verified : current));
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}
