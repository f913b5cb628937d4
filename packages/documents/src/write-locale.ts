// The locale a write targets on a localized type. It must be one of the project's locales
// (Strapi would create any code: GitHub #27108); absent means the default locale.
import { ValidationError } from '@cms/errors';

export function writeLocale(localeCodes: ReadonlySet<string>, defaultLocale: string, requested: unknown): string {
  const locale = requested ?? defaultLocale;
  if (typeof locale !== 'string' || !localeCodes.has(locale)) {
    throw new ValidationError('This locale doesn\'t exist', { locale: typeof locale === 'string' ? locale : null });
  }
  return locale;
}
