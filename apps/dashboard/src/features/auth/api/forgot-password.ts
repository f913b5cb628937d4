// Asking for a password reset link by e-mail (`POST /v1/auth/forgot-password`): always accepted,
// whether or not the address has an account. Nothing cached changes.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';

export async function forgotPassword(email: string): Promise<void> {
  await unwrap(client.POST('/v1/auth/forgot-password', { body: { email } }));
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
