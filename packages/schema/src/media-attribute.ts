// Media attributes: a link to one or many files of the upload library.
import { withBase, type BaseFields } from './attribute-base.ts';
import { describeType, show } from './guards.ts';
import type { OptionReader } from './options.ts';
import type { MediaAttribute } from './types.ts';

export const MEDIA_TYPES: readonly string[] = ['images', 'files', 'videos', 'audios'];

export function parseMedia(base: BaseFields, opts: OptionReader): MediaAttribute {
  return withBase<MediaAttribute>(base, { kind: 'media', multiple: opts.boolean('multiple') ?? false, allowedTypes: readAllowedTypes(opts) });
}

/** null (or absent) allows every file type, as in Strapi. */
function readAllowedTypes(opts: OptionReader): string[] | null {
  if (!opts.has('allowedTypes')) return null;
  const value = opts.value('allowedTypes');
  if (!Array.isArray(value)) return opts.fail('allowedTypes', `allowedTypes must be an array or null, got ${describeType(value)}`) ?? null;
  if (value.length === 0) return opts.fail('allowedTypes', 'allowedTypes must not be empty (use null to allow every type)') ?? null;
  let ok = true;
  value.forEach((v, i) => {
    if (typeof v === 'string' && MEDIA_TYPES.includes(v)) return;
    opts.issues.add([...opts.path, 'allowedTypes', String(i)], `allowedTypes values must be one of ${MEDIA_TYPES.join(', ')}, got ${show(v)}`);
    ok = false;
  });
  return ok ? (value as string[]).slice() : null;
}
