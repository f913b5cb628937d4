// Signing up (`POST /v1/auth/signup`): the new account is signed in at once, with a fresh cache.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { useResetSession, type Account } from './get-session.ts';

export type SignupBody = RequestBody<'/v1/auth/signup', 'post'>;

export async function signup(body: SignupBody): Promise<Account> {
  return (await unwrap(client.POST('/v1/auth/signup', { body }))).account;
}

export function useSignup() {
  const resetSession = useResetSession();
  return useMutation({ mutationFn: signup, onSuccess: (account) => resetSession(account) });
}
