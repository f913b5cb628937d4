// A relation field's search: the target type's documents whose main field contains what was
// typed (drafts included, in the document's locale), through the project's content API.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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

/**
 * Searched while the picker is open (`enabled`) and the target type is known. The last results
 * stay offered while the next search runs: an option being clicked as the debounce fires is not
 * taken from under the pointer (its row would vanish between the press and the release, and the
 * click land on nothing).
 */
export function useRelationSearch(search: RelationSearch, target: RelationTarget | null, enabled: boolean) {
  const options = relationSearchQueryOptions(search, target);
  return useQuery({ ...options, enabled: enabled && target !== null, placeholderData: keepPreviousData });
}
