// Deleting the account (`DELETE /v1/auth/account`, with its password): it is logged out
// everywhere, so its cache is forgotten.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { useResetSession } from '../../auth/api/get-session.ts';

export async function deleteAccount(password: string): Promise<void> {
  await unwrap(client.DELETE('/v1/auth/account', { body: { password } }));
}

export function useDeleteAccount() {
  const resetSession = useResetSession();
  return useMutation({ mutationFn: deleteAccount, onSuccess: () => resetSession(null) });
}
