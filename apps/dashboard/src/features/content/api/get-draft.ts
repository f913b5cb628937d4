// A document version's draft with everything populated, through the project's content API: what
// the editor edits. Read once (staleTime Infinity): the editor's own writes and the live changes
// it is told about read it again (`useReloadDocument`).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Model } from '../../../model/schema.ts';
import { isSingleType, typePath } from '../components/content-model.ts';
import type { Document } from '../components/form-state.ts';
import { populateFor } from '../components/populate.ts';
import { draftStatus, findVersion, localeOf, singleStamps, type VersionRef } from './version-ref.ts';

export async function getDraft(model: Model, ref: VersionRef): Promise<Document | null> {
  const params = { ...draftStatus(ref.type), populate: populateFor(model, ref.type.attributes) };
  if (!isSingleType(ref.type)) return findVersion<Document>(ref, params);
  if ((await singleStamps(ref, [ref.locale], false))[0] === null) return null;
  return (await contentApi<{ data: Document }>(ref.slug, 'GET', `${typePath(ref.type)}${strapiQuery({ ...params, ...localeOf(ref) })}`)).data;
}

export const draftQueryOptions = (model: Model, ref: VersionRef) =>
  queryOptions({
    queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'document', ref.documentId ?? '', ref.locale ?? '', 'draft'),
    queryFn: () => getDraft(model, ref),
    staleTime: Infinity,
  });

export function useDraft(model: Model, ref: VersionRef, enabled = true) {
  return useQuery({ ...draftQueryOptions(model, ref), enabled });
}

/** Read the type's documents again (the one shown: its draft, published stamp and locales). */
export function useReloadDocument(slug: string, uid: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'content', uid, 'document') });
}
