// A project's management data as queries (keys under ['project', slug]).
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, type ApiTokenInfo, type Invitation, type Locale, type Member, type Project, type ProjectRole, type ProjectSchema } from './api.ts';

export const projectKey = (slug: string, ...rest: string[]) => ['project', slug, ...rest] as const;

export function useProject(slug: string) {
  return useQuery({
    queryKey: projectKey(slug),
    queryFn: async () => (await api<{ project: Project }>('GET', `/v1/projects/${slug}`)).project,
    // A refusal (403: e.g. the project requires two-factor) does not change on a retry: shown at once.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 403) && failures < 3,
  });
}

/**
 * The signed-in account's role in the project and what it allows (mirrors the API's checks):
 * viewers only read, editors change everything but the team and the project's deletion.
 */
export function useProjectRole(slug: string): { role: ProjectRole | undefined; canEdit: boolean; isOwner: boolean } {
  const role = useProject(slug).data?.role;
  return { role, canEdit: role === 'owner' || role === 'editor', isOwner: role === 'owner' };
}

export function useTeam(slug: string) {
  return useQuery({ queryKey: projectKey(slug, 'members'), queryFn: () => api<{ members: Member[]; invitations: Invitation[] }>('GET', `/v1/projects/${slug}/members`) });
}

export function useSchema(slug: string) {
  return useQuery({ queryKey: projectKey(slug, 'schema'), queryFn: () => api<ProjectSchema>('GET', `/v1/projects/${slug}/schema`) });
}

export function useApiTokens(slug: string) {
  return useQuery({
    queryKey: projectKey(slug, 'api-tokens'),
    queryFn: async () => (await api<{ apiTokens: ApiTokenInfo[] }>('GET', `/v1/projects/${slug}/api-tokens`)).apiTokens,
  });
}

export function useLocales(slug: string) {
  return useQuery({ queryKey: projectKey(slug, 'locales'), queryFn: async () => (await api<{ locales: Locale[] }>('GET', `/v1/projects/${slug}/locales`)).locales });
}
