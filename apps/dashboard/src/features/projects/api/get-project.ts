// A project as its member sees it (`GET /v1/projects/{slug}`), and the member's role there.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Project = Schemas['Project'];
/** A member's role in a project: what it may change (see the Team page). */
export type ProjectRole = Project['role'];

export async function getProject(slug: string): Promise<Project> {
  return (await unwrap(client.GET('/v1/projects/{slug}', { params: { path: { slug } } }))).project;
}

export const projectQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: projectKeys.detail(slug),
    queryFn: () => getProject(slug),
    // A refusal (403: e.g. the project requires two-factor) does not change on a retry: shown at once.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 403) && failures < 3,
  });

export function useProject(slug: string) {
  return useQuery(projectQueryOptions(slug));
}

/**
 * The signed-in account's role in the project and what it allows (mirrors the API's checks):
 * viewers only read, editors change everything but the team and the project's deletion.
 */
export function useProjectRole(slug: string): { role: ProjectRole | undefined; canEdit: boolean; isOwner: boolean } {
  const role = useProject(slug).data?.role;
  return { role, canEdit: role === 'owner' || role === 'editor', isOwner: role === 'owner' };
}
