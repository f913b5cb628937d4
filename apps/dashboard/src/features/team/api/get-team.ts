// A project's team (`GET /v1/projects/{slug}/members`): its members with their roles, and the
// pending invitations.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf, type Schemas } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type Team = AnswerOf<'/v1/projects/{slug}/members', 'get'>;

export async function getTeam(slug: string): Promise<Team> {
  return unwrap(client.GET('/v1/projects/{slug}/members', { params: { path: { slug } } }));
}

export const teamQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'members'), queryFn: () => getTeam(slug) });

export function useTeam(slug: string) {
  return useQuery(teamQueryOptions(slug));
}
