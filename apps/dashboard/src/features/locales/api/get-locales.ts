// A project's locales (`GET /v1/projects/{slug}/locales`), the default one first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Locale = Schemas['Locale'];

export async function getLocales(slug: string): Promise<Locale[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/locales', { params: { path: { slug } } }))).locales;
}

export const localesQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'locales'), queryFn: () => getLocales(slug) });

export function useLocales(slug: string) {
  return useQuery(localesQueryOptions(slug));
}
