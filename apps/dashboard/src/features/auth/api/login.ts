// Logging in (`POST /v1/auth/login`): the e-mail and password, then with two-factor on the code as
// well (a 401 `TwoFactorRequired` asks for it). Signed in, the previous account's cache is forgotten.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { useResetSession, type Account } from './get-session.ts';

export type LoginBody = RequestBody<'/v1/auth/login', 'post'>;

export async function login(body: LoginBody): Promise<Account> {
  return (await unwrap(client.POST('/v1/auth/login', { body }))).account;
}

export function useLogin() {
  const resetSession = useResetSession();
  return useMutation({ mutationFn: login, onSuccess: (account) => resetSession(account) });
}
