// A project's model (`GET /v1/projects/{slug}/schema`): its content types and components.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { StoredModel } from '../../../model/schema.ts';

/** Typed by the dashboard's model editor (model/schema.ts), which reads every attribute's options. */
export type ProjectSchema = StoredModel;

export async function getSchema(slug: string): Promise<ProjectSchema> {
  return (await unwrap(client.GET('/v1/projects/{slug}/schema', { params: { path: { slug } } }))) as unknown as ProjectSchema;
}

export const schemaQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'schema'), queryFn: () => getSchema(slug) });

export function useSchema(slug: string) {
  return useQuery(schemaQueryOptions(slug));
}
