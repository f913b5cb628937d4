// The account's sessions (`GET /v1/auth/sessions`): every unexpired one, `current` marking this one.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export type Session = Schemas['Session'];

export async function getSessions(): Promise<Session[]> {
  return (await unwrap(client.GET('/v1/auth/sessions'))).sessions;
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: accountKeys.feature('sessions'), queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
