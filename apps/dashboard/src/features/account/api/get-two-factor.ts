// Whether two-factor sign-in is on for the account, and its recovery codes left (`GET /v1/auth/2fa`).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export type TwoFactorStatus = AnswerOf<'/v1/auth/2fa', 'get'>;

export async function getTwoFactor(): Promise<TwoFactorStatus> {
  return unwrap(client.GET('/v1/auth/2fa'));
}

export const twoFactorQueryOptions = () => queryOptions({ queryKey: accountKeys.feature('two-factor'), queryFn: getTwoFactor });

export function useTwoFactor() {
  return useQuery(twoFactorQueryOptions());
}
