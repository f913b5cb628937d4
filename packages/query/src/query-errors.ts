// Strapi's query-validation errors. Its rule (seen in every verified message): the message says
// `at <path>` only when the path differs from the key — `Invalid key $nope at name`,
// `Invalid key nope` (populate path "nope"), `Invalid key pagination at categories`.
import { ValidationError } from '@cms/errors';

export type QueryParam = 'filters' | 'sort' | 'fields' | 'populate';

export function invalidKey(key: string, param: QueryParam, path: string | null): ValidationError {
  const at = path !== null && path !== key ? path : undefined;
  return ValidationError.invalidKey(key, { source: 'query', param, path, at });
}

export const dotted = (path: readonly string[]): string | null => (path.length ? path.join('.') : null);

/** An uncastable filter value (Strapi answers 500 here; we answer 400 before any SQL). */
export function invalidValue(key: string, path: string, expected: string, value: unknown): ValidationError {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  return new ValidationError(`Invalid value ${shown} for ${path}: expected ${expected}`, { key, path, source: 'query', param: 'filters' });
}
