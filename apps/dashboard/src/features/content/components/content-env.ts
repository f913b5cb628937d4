// What every page of the content manager shares: the project, its model and locales, and
// whether the signed-in member may change content.
import type { Locale } from '../../locales/api/get-locales.ts';
import type { Model } from '../../../model/schema.ts';

export interface ContentEnv {
  slug: string;
  model: Model;
  locales: Locale[];
  defaultLocale: string;
  canEdit: boolean;
}

/** `/projects/{slug}/content/{uid}` and below. */
export const contentPath = (slug: string, uid: string, rest = '') => `/projects/${slug}/content/${uid}${rest ? `/${rest}` : ''}`;

/** `?locale=fr` for localized types (nothing otherwise). */
export const localeSearch = (locale: string | undefined | null) => (locale ? `?locale=${encodeURIComponent(locale)}` : '');
