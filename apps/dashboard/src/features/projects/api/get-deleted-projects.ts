// The deleted projects the account owns, still restorable (`GET /v1/projects?status=deleted`). Its
// key is under the project list's: whatever refreshes the projects refreshes this list too.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

type ListedProject = AnswerOf<'/v1/projects', 'get'>['projects'][number];

/** A deleted project the account owns, restorable until `purgeAt`. */
export type DeletedProject = ListedProject & Required<Pick<ListedProject, 'deletedAt' | 'purgeAt'>>;

export async function getDeletedProjects(): Promise<DeletedProject[]> {
  const { projects } = await unwrap(client.GET('/v1/projects', { params: { query: { status: 'deleted' } } }));
  // One schema serves both lists: `deletedAt` and `purgeAt` are set on every deleted project.
  return projects as DeletedProject[];
}

export const deletedProjectsQueryOptions = () => queryOptions({ queryKey: projectKeys.deletedList(), queryFn: getDeletedProjects });

export function useDeletedProjects() {
  return useQuery(deletedProjectsQueryOptions());
}
