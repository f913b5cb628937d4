// The account's projects (`GET /v1/projects`): every project it is a member of.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Project } from './get-project.ts';

export async function getProjects(): Promise<Project[]> {
  return (await unwrap(client.GET('/v1/projects'))).projects;
}

export const projectsQueryOptions = () => queryOptions({ queryKey: projectKeys.list(), queryFn: getProjects });

export function useProjects() {
  return useQuery(projectsQueryOptions());
}
