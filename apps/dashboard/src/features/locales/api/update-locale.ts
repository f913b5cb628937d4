// Changing a locale (`PATCH /v1/projects/{slug}/locales/{code}`: its name, or making it the
// default). The project's default locale follows, and what is read in it: everything cached of
// the project is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type UpdateLocaleBody = RequestBody<'/v1/projects/{slug}/locales/{code}', 'patch'>;

export async function updateLocale(slug: string, code: string, body: UpdateLocaleBody) {
  return (await unwrap(client.PATCH('/v1/projects/{slug}/locales/{code}', { params: { path: { slug, code } }, body }))).locale;
}

export function useUpdateLocale(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: UpdateLocaleBody }) => updateLocale(slug, code, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all(slug) }),
  });
}
