// A relation field's search: the target type's documents whose main field contains what was
// typed (drafts included, in the document's locale), through the project's content API.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RelationItem } from '../../../components/fields/relation-body.ts';
import { searchItems, searchPath, type RelationTarget } from '../../../components/fields/relation-target.ts';
import { contentApi } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export interface RelationSearch {
  slug: string;
  targetUid: string;
  locale?: string;
  term: string;
}

export async function searchRelations({ slug, term, locale }: RelationSearch, target: RelationTarget): Promise<RelationItem[]> {
  return searchItems(target, await contentApi<unknown>(slug, 'GET', searchPath(target, term, locale)));
}

export const relationSearchQueryOptions = (search: RelationSearch, target: RelationTarget | null) =>
  queryOptions({
    queryKey: projectKeys.feature(search.slug, 'content', search.targetUid, 'relation-search', search.locale ?? '', search.term.trim()),
    queryFn: () => searchRelations(search, target!),
    enabled: target !== null,
    staleTime: 10_000,
  });

/** Searched while the picker is open (`enabled`) and the target type is known. */
export function useRelationSearch(search: RelationSearch, target: RelationTarget | null, enabled: boolean) {
  const options = relationSearchQueryOptions(search, target);
  return useQuery({ ...options, enabled: enabled && target !== null });
}
