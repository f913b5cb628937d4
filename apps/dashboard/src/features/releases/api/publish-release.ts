// Publishing a release now (`POST /v1/projects/{slug}/releases/{id}/publish`): all its actions or
// none. Refused (400), its `details.errors` name the entries that could not be applied. The
// project's releases are read again either way (a failed publish marks the release).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

/** An entry a publish could not apply, as the 400's `details.errors` lists it. */
export interface ReleaseEntryError {
  actionId: number;
  contentType: string;
  entryDocumentId: string;
  locale: string | null;
  message: string;
}

/** The entries a failed publish names (its 400's `details.errors`); empty for any other error. */
export function entryErrorsOf(err: unknown): ReleaseEntryError[] {
  if (!(err instanceof ApiError) || err.status !== 400) return [];
  const errors = (err.details as { errors?: unknown[] }).errors ?? [];
  return errors.filter((e): e is ReleaseEntryError => typeof e === 'object' && e !== null && 'actionId' in e && 'message' in e);
}

export async function publishRelease({ slug, id }: { slug: string; id: number }) {
  return (await unwrap(client.POST('/v1/projects/{slug}/releases/{id}/publish', { params: { path: { slug, id } } }))).data;
}

export function usePublishRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishRelease,
    onSettled: (_release, _error, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases') }),
  });
}
