// The ValidationErrors a migration can end with: a change that is never allowed (plan time) or
// one that would lose data the schema holds (apply time). Paths point into the pushed schema.
import { ValidationError, type FieldError } from '@cms/errors';

export function fieldError(path: string[], message: string): FieldError {
  return { path, message, name: 'ValidationError' };
}

export function refusal(path: string[], message: string): ValidationError {
  return ValidationError.fromFieldErrors([fieldError(path, message)]);
}

/** Path of a content type or component (and optionally one of its attributes) in the schema body. */
export function schemaPath(uid: string, attribute?: string): string[] {
  // Content type uids are `api::x.x` (or `plugin::…`); component uids are `category.name`.
  const section = uid.includes('::') ? 'contentTypes' : 'components';
  return attribute === undefined ? [section, uid] : [section, uid, 'attributes', attribute];
}
