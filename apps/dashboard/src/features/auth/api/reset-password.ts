// Choosing a new password with a mailed link (`POST /v1/auth/reset-password`): every session of the
// account ends, this browser's included, so the session's cache is forgotten.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { useResetSession } from './get-session.ts';

export type ResetPasswordBody = RequestBody<'/v1/auth/reset-password', 'post'>;

export async function resetPassword(body: ResetPasswordBody): Promise<void> {
  await unwrap(client.POST('/v1/auth/reset-password', { body }));
}

export function useResetPassword() {
  const resetSession = useResetSession();
  return useMutation({ mutationFn: resetPassword, onSuccess: () => resetSession(null) });
}
