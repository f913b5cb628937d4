// The account's own audit log (`GET /v1/auth/audit-logs`), a page at a time, newest first: its
// sign-ins (and refused ones), two-factor, session and password changes.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

export type AccountAuditPage = AnswerOf<'/v1/auth/audit-logs', 'get'>;

export async function getAccountAuditLogs(page: number, pageSize: number): Promise<AccountAuditPage> {
  return unwrap(client.GET('/v1/auth/audit-logs', { params: { query: { page, pageSize } } }));
}

export const accountAuditLogsQueryOptions = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: accountKeys.feature('audit-logs', { page, pageSize }),
    queryFn: () => getAccountAuditLogs(page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useAccountAuditLogs(page: number, pageSize: number) {
  return useQuery(accountAuditLogsQueryOptions(page, pageSize));
}
