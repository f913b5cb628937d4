// Mailing a new verification link (`POST /v1/auth/verify-email/send`; the API allows one a minute).
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';

export async function sendVerificationEmail(): Promise<void> {
  await unwrap(client.POST('/v1/auth/verify-email/send'));
}

export function useSendVerificationEmail() {
  return useMutation({ mutationFn: sendVerificationEmail });
}
