// Request bodies of the auth and users endpoints, checked the way Strapi's yup schemas answer:
// unknown keys → `Invalid parameters: a, b` (details {}), a bad field → its message with
// `details.errors`.
import { isEmail, PASSWORD_MAX } from '@cms/auth';
import { ValidationError, type FieldError } from '@cms/errors';

/** Strapi's minimum for end-user passwords. */
export const USER_PASSWORD_MIN = 6;
const MAX_USERNAME = 255;

type Body = Record<string, unknown>;

export function objectBody(body: unknown): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The request body must be a JSON object');
  return body as Body;
}

export function onlyKeys(body: Body, allowed: readonly string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`.slice(0, 300));
}

function fieldError(path: string, message: string): FieldError {
  return { path: [path], message, name: 'ValidationError' };
}

/** Collect field errors; throw them together (Strapi: `N errors occurred`). */
export class FieldChecks {
  private readonly errors: FieldError[] = [];

  required(body: Body, key: string): string | undefined {
    const value = body[key];
    if (value === undefined || value === null || value === '') {
      this.errors.push(fieldError(key, `${key} is a required field`));
      return undefined;
    }
    if (typeof value !== 'string') {
      this.errors.push(fieldError(key, `${key} must be a \`string\` type`));
      return undefined;
    }
    return value;
  }

  optional(body: Body, key: string): string | undefined {
    return body[key] === undefined ? undefined : this.required(body, key);
  }

  bool(body: Body, key: string): boolean | undefined {
    const value = body[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') this.errors.push(fieldError(key, `${key} must be a \`boolean\` type`));
    return typeof value === 'boolean' ? value : undefined;
  }

  email(value: string | undefined, key = 'email'): string | undefined {
    if (value !== undefined && !isEmail(value)) this.errors.push(fieldError(key, `${key} must be a valid email`));
    return value;
  }

  username(value: string | undefined): string | undefined {
    // eslint-disable-next-line no-control-regex
    if (value !== undefined && (value.trim().length < 3 || value.length > MAX_USERNAME || /[\u0000-\u001f\u007f]/.test(value))) {
      this.errors.push(fieldError('username', `username must be between 3 and ${MAX_USERNAME} characters without control characters`));
    }
    return value;
  }

  password(value: string | undefined, key = 'password'): string | undefined {
    if (value === undefined) return value;
    if (value.length < USER_PASSWORD_MIN) this.errors.push(fieldError(key, `${key} must be at least ${USER_PASSWORD_MIN} characters`));
    else if (value.length > PASSWORD_MAX) this.errors.push(fieldError(key, `${key} must be at most ${PASSWORD_MAX} characters`));
    return value;
  }

  done(): void {
    if (this.errors.length) throw ValidationError.fromFieldErrors(this.errors);
  }

  /**
   * The new `password` and its `passwordConfirmation` (reset and change password): read after the
   * body's other fields, every field error thrown together, then the two compared.
   */
  newPassword(body: Body): string {
    const password = this.password(this.required(body, 'password'));
    const confirmation = this.required(body, 'passwordConfirmation');
    this.done();
    if (password !== confirmation) throw new ValidationError('Passwords do not match');
    return password!;
  }
}

/** The lower-cased `email` of a body holding only that key (forgot-password, send-email-confirmation). */
export function emailOf(rawBody: unknown): string {
  const body = objectBody(rawBody);
  onlyKeys(body, ['email']);
  const checks = new FieldChecks();
  const email = checks.email(checks.required(body, 'email'));
  checks.done();
  return email!.toLowerCase();
}

/** The fields of a `/api/users` body: all of username, email and password `required` (create), or any subset (update). */
export function userFields(rawBody: unknown, required: boolean) {
  const body = objectBody(rawBody);
  onlyKeys(body, ['username', 'email', 'password', 'role', 'confirmed', 'blocked']);
  const checks = new FieldChecks();
  const text = (key: string) => (required ? checks.required(body, key) : checks.optional(body, key));
  const fields = {
    username: checks.username(text('username')),
    email: checks.email(text('email')),
    password: checks.password(text('password')),
    confirmed: checks.bool(body, 'confirmed'),
    blocked: checks.bool(body, 'blocked'),
    role: body.role,
  };
  checks.done();
  return fields;
}
