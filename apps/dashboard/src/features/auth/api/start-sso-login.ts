// Starting a single sign-on (`POST /v1/auth/sso/start`): the work e-mail finds its project's
// connection; the answer is the identity provider's address, where the browser goes next.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';

export async function startSsoLogin(email: string): Promise<string> {
  return (await unwrap(client.POST('/v1/auth/sso/start', { body: { email } }))).url;
}

export function useStartSsoLogin() {
  return useMutation({ mutationFn: startSsoLogin });
}
