// The Usage page's Refresh: every usage figure of the project is read again (no request of its own).
import { useQueryClient } from '@tanstack/react-query';
import { projectKeys } from '../../../lib/query-keys.ts';

export function useRefreshUsage(slug: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'usage') });
}
