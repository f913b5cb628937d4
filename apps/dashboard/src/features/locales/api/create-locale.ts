// Adding a locale to a project (`POST /v1/projects/{slug}/locales`): its locales are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateLocaleBody = RequestBody<'/v1/projects/{slug}/locales', 'post'>;

export async function createLocale(slug: string, body: CreateLocaleBody) {
  return (await unwrap(client.POST('/v1/projects/{slug}/locales', { params: { path: { slug } }, body }))).locale;
}

export function useCreateLocale(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLocaleBody) => createLocale(slug, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'locales') }),
  });
}
