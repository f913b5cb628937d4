// Collects every problem found in a model so the caller gets them all in one ValidationError,
// rather than fixing one, re-pushing and discovering the next.
import { ValidationError, type FieldError } from '@cms/errors';

export type Path = string[];

/** Hostile input can produce an unbounded number of problems; the list is cut here. */
export const MAX_ERRORS = 200;

export class Issues {
  readonly errors: FieldError[] = [];
  private truncated = false;

  add(path: Path, message: string): void {
    if (this.errors.length < MAX_ERRORS) {
      this.errors.push({ path: [...path], message, name: 'ValidationError' });
    } else if (!this.truncated) {
      this.truncated = true;
      this.errors.push({ path: [], message: `Too many errors; only the first ${MAX_ERRORS} are listed`, name: 'ValidationError' });
    }
  }

  /** No more problems will be listed: callers may skip building messages. */
  get full(): boolean {
    return this.truncated;
  }

  get count(): number {
    return this.errors.length;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw ValidationError.fromFieldErrors(this.errors);
  }
}
