// A project's management data as queries (keys under ['project', slug]).
import { useQuery } from '@tanstack/react-query';
import { api, type ApiTokenInfo, type Project, type ProjectSchema } from './api.ts';

export const projectKey = (slug: string, ...rest: string[]) => ['project', slug, ...rest] as const;

export function useProject(slug: string) {
  return useQuery({ queryKey: projectKey(slug), queryFn: async () => (await api<{ project: Project }>('GET', `/v1/projects/${slug}`)).project });
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
