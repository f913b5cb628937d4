// Who is signed in: `GET /v1/auth/session` through TanStack Query (null for a visitor).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Account } from './api.ts';

export const ME_KEY = ['me'] as const;

export function useAccount() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => (await api<{ account: Account | null }>('GET', '/v1/auth/session')).account,
    staleTime: 60_000,
    retry: false,
  });
}

/** After login, signup or logout: forget everything cached for the previous account. */
export function useResetSession() {
  const client = useQueryClient();
  return async (account: Account | null) => {
    client.clear();
    client.setQueryData(ME_KEY, account);
  };
}
