// Deleting a locale (`DELETE /v1/projects/{slug}/locales/{code}`) with every document version in
// it: the project's locales are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteLocale(slug: string, code: string): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/locales/{code}', { params: { path: { slug, code } } }));
}

export function useDeleteLocale(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => deleteLocale(slug, code),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'locales') }),
  });
}
