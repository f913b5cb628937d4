// Ending one of the account's other sessions (`DELETE /v1/auth/sessions/{id}`): the sessions and
// the security activity (which logs it) are refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export async function endSession(id: number): Promise<void> {
  await unwrap(client.DELETE('/v1/auth/sessions/{id}', { params: { path: { id } } }));
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.feature('sessions') }),
      queryClient.invalidateQueries({ queryKey: accountKeys.feature('audit-logs') }),
    ]),
  });
}
