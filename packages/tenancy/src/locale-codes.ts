// BCP-47-like locale codes (`en`, `fr`, `pt-BR`, `zh-Hans`, `sr-Latn-RS`), checked against the
// CLDR data Node ships (Intl) so unknown languages are refused.
import { ValidationError } from '@cms/errors';

const SHAPE = /^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|\d{3}))?$/;
const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

export function localeName(code: string): string {
  return `${names.of(code) ?? code} (${code})`;
}

/** Returns the code when it is well formed and known; throws ValidationError (with `path`) otherwise. */
export function normaliseLocaleCode(code: unknown, path: string[] = ['code']): string {
  if (typeof code === 'string' && code.length <= 20 && SHAPE.test(code)) {
    try {
      if (names.of(code) !== undefined && Intl.getCanonicalLocales(code)[0] === code) return code;
    } catch {
      /* RangeError: not a locale */
    }
  }
  throw ValidationError.fromFieldErrors([{ path, message: `${path.join('.')} is not a known locale code`, name: 'ValidationError', value: typeof code === 'string' ? code.slice(0, 50) : code }]);
}
