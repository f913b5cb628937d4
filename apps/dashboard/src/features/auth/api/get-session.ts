// Who is signed in: `GET /v1/auth/session` (null for a visitor), and forgetting the previous
// account's cache when that changes.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export type Account = Schemas['Account'];

export async function getSession(): Promise<Account | null> {
  return (await unwrap(client.GET('/v1/auth/session'))).account;
}

export const sessionQueryOptions = () => queryOptions({ queryKey: accountKeys.me(), queryFn: getSession, staleTime: 60_000, retry: false });

export function useAccount() {
  return useQuery(sessionQueryOptions());
}

/** After login, signup or logout: forget everything cached for the previous account. */
export function useResetSession() {
  const queryClient = useQueryClient();
  return async (account: Account | null) => {
    queryClient.clear();
    queryClient.setQueryData(accountKeys.me(), account);
  };
}
