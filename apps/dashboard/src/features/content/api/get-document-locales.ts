// The locales a document has a version in (drafts count), through the project's content API:
// the locale picker marks the others as missing.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { isLocalized, isSingleType, typePath } from '../components/content-model.ts';
import { draftStatus, singleStamps, type VersionRef } from './version-ref.ts';

export async function getDocumentLocales(ref: VersionRef, projectLocales: string[]): Promise<string[]> {
  if (!isLocalized(ref.type)) return [];
  if (isSingleType(ref.type)) {
    const stamps = await singleStamps(ref, projectLocales, false);
    return projectLocales.filter((_, i) => stamps[i] !== null);
  }
  const query = strapiQuery({
    ...draftStatus(ref.type), locale: '*', filters: { documentId: { $eq: ref.documentId } }, fields: ['locale'], pagination: { pageSize: 100 },
  });
  const { data } = await contentApi<{ data: Array<{ locale: string }> }>(ref.slug, 'GET', `${typePath(ref.type)}${query}`);
  return data.map((d) => d.locale);
}

export const documentLocalesQueryOptions = (ref: VersionRef, projectLocales: string[]) =>
  queryOptions({
    queryKey: projectKeys.feature(ref.slug, 'content', ref.type.uid, 'document', ref.documentId ?? '', 'locales'),
    queryFn: () => getDocumentLocales(ref, projectLocales),
    staleTime: Infinity,
  });

export function useDocumentLocales(ref: VersionRef, projectLocales: string[], enabled: boolean) {
  return useQuery({ ...documentLocalesQueryOptions(ref, projectLocales), enabled });
}
