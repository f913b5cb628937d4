// Logging out everywhere (`DELETE /v1/auth/sessions`): every session ends, this one included, so
// the account's cache is forgotten.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { useResetSession } from '../../auth/api/get-session.ts';

export async function endAllSessions(): Promise<void> {
  await unwrap(client.DELETE('/v1/auth/sessions'));
}

export function useEndAllSessions() {
  const resetSession = useResetSession();
  return useMutation({ mutationFn: endAllSessions, onSuccess: () => resetSession(null) });
}
