// What kind a file is (Strapi's allowedTypes: images, videos, audios, files), its preview URL
// and its size, as the library's views show them.
import { fileUrl } from '../../../content-api.ts';
import type { FileTypeFilter } from '../api/get-files.ts';
import type { MediaFile } from './media-file.ts';

export type FileKind = FileTypeFilter;

export function kindOf(mime: string): FileKind {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'file';
}

/** Strapi's `allowedTypes` of a media attribute (`images`, `videos`, `audios`, `files`) as kinds; none: every kind. */
export function allowedKinds(allowedTypes: string[] | undefined): FileKind[] {
  const kinds: Record<string, FileKind> = { images: 'image', videos: 'video', audios: 'audio', files: 'file' };
  const out = (allowedTypes ?? []).map((t) => kinds[t]).filter((k): k is FileKind => k !== undefined);
  return out.length ? [...new Set(out)] : ['image', 'video', 'audio', 'file'];
}

export const KIND_LABELS: Record<FileKind, string> = { image: 'Images', video: 'Videos', audio: 'Audio', file: 'Other files' };

/** The smallest format that is at least `min` pixels wide (the thumbnail for cards), else the original. */
export function previewUrl(slug: string, file: MediaFile, preferred: 'thumbnail' | 'small' = 'thumbnail'): string | null {
  if (kindOf(file.mime) !== 'image') return null;
  const order = preferred === 'thumbnail' ? ['thumbnail', 'small', 'medium', 'large'] : ['small', 'medium', 'large', 'thumbnail'];
  for (const name of order) {
    const format = file.formats?.[name];
    if (format) return fileUrl(slug, format.url);
  }
  return fileUrl(slug, file.url);
}

export function formatSize(kilobytes: number): string {
  if (kilobytes < 1) return `${Math.round(kilobytes * 1000)} B`;
  if (kilobytes < 1000) return `${kilobytes.toLocaleString('en', { maximumFractionDigits: 1 })} kB`;
  if (kilobytes < 1_000_000) return `${(kilobytes / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
  return `${(kilobytes / 1_000_000).toLocaleString('en', { maximumFractionDigits: 2 })} GB`;
}

/** The file's absolute URL, to copy and paste elsewhere. */
export function absoluteUrl(slug: string, url: string): string {
  return new URL(fileUrl(slug, url), window.location.origin).href;
}

/** `PNG`, `PDF`…: the extension of the name, else the kind. */
export function extensionLabel(file: { name: string; mime: string; ext?: string | null }): string {
  const ext = (file.ext ?? /\.([A-Za-z0-9]{1,8})$/.exec(file.name)?.[0] ?? '').replace(/^\./, '').toUpperCase();
  return ext || kindOf(file.mime).toUpperCase();
}
