// Setting up an authenticator (`POST /v1/auth/2fa/setup`): a new secret, shown once; two-factor is
// on only once a code of it is confirmed (enable-two-factor.ts). Nothing cached changes yet.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';

export type TwoFactorSetup = AnswerOf<'/v1/auth/2fa/setup', 'post'>;

export async function setupTwoFactor(): Promise<TwoFactorSetup> {
  return unwrap(client.POST('/v1/auth/2fa/setup'));
}

export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}
