// Logging out (`POST /v1/auth/logout`): this session ends and everything cached for it is forgotten.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { useResetSession } from './get-session.ts';

export async function logout(): Promise<void> {
  await unwrap(client.POST('/v1/auth/logout'));
}

export function useLogout() {
  const resetSession = useResetSession();
  return useMutation({ mutationFn: logout, onSuccess: () => resetSession(null) });
}
