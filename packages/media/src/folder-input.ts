// What callers send about folders: ids (in paths, bodies and `fileInfo.folder`) and the bodies
// that create, rename or move one. Anything else is a 400 naming the field.
import { ValidationError } from '@cms/errors';

export const MAX_FOLDER_NAME = 100;

const fieldError = (path: (string | number)[], message: string) =>
  ValidationError.fromFieldErrors([{ path: path.map(String), message, name: 'ValidationError' }]);

/** A positive integer id (a JSON number or its decimal text), as text; null when it is not one. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^[1-9]\d{0,14}$/.test(value)) return value;
  return null;
}

/** An id in a URL path: a 400 when it is no positive integer (a 404 is for ids that could exist). */
export function pathId(value: unknown, name = 'id'): string {
  const id = idOf(value);
  if (id === null) throw fieldError([name], `${name} must be a positive integer`);
  return id;
}

/** A folder reference: an id, or null for the root. */
export function folderRef(value: unknown, path: (string | number)[]): string | null {
  if (value === null) return null;
  const id = idOf(value);
  if (id === null) throw fieldError(path, `${path.at(-1)} must be a folder id or null`);
  return id;
}

function folderName(value: unknown): string {
  if (typeof value !== 'string') throw fieldError(['name'], 'name must be a string');
  const name = value.trim();
  if (name === '') throw fieldError(['name'], 'name must not be empty');
  if (name.length > MAX_FOLDER_NAME) throw fieldError(['name'], `name must be at most ${MAX_FOLDER_NAME} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw fieldError(['name'], 'name must not contain control characters');
  return name;
}

function bodyObject(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw fieldError([], 'The body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw fieldError([key], `${key} is not a valid key`.slice(0, 300));
  }
  return body as Record<string, unknown>;
}

/** `POST …/media/folders`: `{name, parent?}`. */
export function parseNewFolder(body: unknown): { name: string; parent: string | null } {
  const input = bodyObject(body, ['name', 'parent']);
  return { name: folderName(input.name), parent: input.parent === undefined ? null : folderRef(input.parent, ['parent']) };
}

/** `PATCH …/media/folders/{id}`: `{name?, parent?}`, at least one of them. */
export function parseFolderChange(body: unknown): { name?: string; parent?: string | null } {
  const input = bodyObject(body, ['name', 'parent']);
  if (input.name === undefined && input.parent === undefined) throw fieldError([], 'Send name, parent or both');
  return {
    ...(input.name === undefined ? {} : { name: folderName(input.name) }),
    ...(input.parent === undefined ? {} : { parent: folderRef(input.parent, ['parent']) }),
  };
}
