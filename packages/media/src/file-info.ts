// `fileInfo` of an upload: `{name, alternativeText, caption, focalPoint, folder}` for one file, or an array
// with one object per file. Sent as JSON text in a multipart field (once, or once per file) or as
// an object in a JSON body. Anything else is a 400 naming the offending key.
import { ValidationError } from '@cms/errors';
import type { FileInfo } from './file-rows.ts';
import { folderRef } from './folder-input.ts';

const MAX_TEXT = 10_000;

function invalid(path: (string | number)[], message: string): ValidationError {
  return ValidationError.fromFieldErrors([{ path: path.map(String), message, name: 'ValidationError' }]);
}

function text(value: unknown, path: (string | number)[], nullable: boolean, max: number): string | null {
  if (value === null && nullable) return null;
  if (typeof value !== 'string') throw invalid(path, `${path.at(-1)} must be a ${nullable ? 'string or null' : 'string'}`);
  if (value.length > max) throw invalid(path, `${path.at(-1)} must be at most ${max} characters`);
  return value;
}

function focalPoint(value: unknown, path: (string | number)[]): FileInfo['focalPoint'] {
  if (value === null) return null;
  const point = value as { x?: unknown; y?: unknown };
  if (typeof value !== 'object' || Array.isArray(value) || typeof point.x !== 'number' || typeof point.y !== 'number'
    || !Number.isFinite(point.x) || !Number.isFinite(point.y) || Object.keys(value).length !== 2) {
    throw invalid(path, 'focalPoint must be null or an object {x, y} of numbers');
  }
  return { x: point.x, y: point.y };
}

/** One file's info object. */
export function parseFileInfo(value: unknown, path: (string | number)[] = ['fileInfo']): FileInfo {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(path, 'fileInfo must be an object');
  const info: FileInfo = {};
  for (const [key, v] of Object.entries(value)) {
    const at = [...path, key];
    if (key === 'name') {
      const name = text(v, at, false, 255)!;
      if (name.trim() === '') throw invalid(at, 'name must not be empty');
      info.name = name;
    } else if (key === 'alternativeText') info.alternativeText = text(v, at, true, MAX_TEXT);
    else if (key === 'caption') info.caption = text(v, at, true, MAX_TEXT);
    else if (key === 'focalPoint') info.focalPoint = focalPoint(v, at);
    // Strapi's admin sends the folder a file goes to (an id, or null for the root).
    else if (key === 'folder') info.folder = folderRef(v, at);
    else throw invalid(at, `Invalid parameter: ${key}`.slice(0, 300));
  }
  return info;
}

/** One JSON text of a multipart `fileInfo` field. */
export function parseFileInfoText(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalid(['fileInfo'], 'fileInfo must be valid JSON');
  }
}

/**
 * The info of each of `count` files: a list (one object per file, in order) or one object (for
 * the first file). More entries than files is an error.
 */
export function parseFileInfos(values: readonly unknown[], count: number): FileInfo[] {
  const entries = values.length === 1 && Array.isArray(values[0]) ? values[0] : values;
  if (entries.length > Math.max(count, 1)) throw invalid(['fileInfo'], `fileInfo has ${entries.length} entries for ${count} file(s)`);
  return entries.map((v, i) => parseFileInfo(v, entries.length > 1 || Array.isArray(values[0]) ? ['fileInfo', i] : ['fileInfo']));
}
