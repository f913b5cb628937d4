// Responsive formats of an uploaded image, made with sharp the way Strapi's upload plugin makes
// them: `thumbnail` fits 245×156, `large`/`medium`/`small` fit 1000/750/500
// squares, each only when the original is larger. Output keeps the original's format.
// sharp (libvips, about 20 MB of a process's memory) loads with the first image processed.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type SharpModule from 'sharp';
import type { ImageFormat, Formats } from './file-rows.ts';
import { kilobytes } from './file-names.ts';
import type { MediaStorage } from './storage.ts';

interface FormatSpec {
  name: string;
  width: number;
  height: number;
}

const THUMBNAIL: FormatSpec = { name: 'thumbnail', width: 245, height: 156 };
const BREAKPOINTS: FormatSpec[] = [
  { name: 'large', width: 1000, height: 1000 },
  { name: 'medium', width: 750, height: 750 },
  { name: 'small', width: 500, height: 500 },
];
export const FORMAT_NAMES: readonly string[] = [THUMBNAIL, ...BREAKPOINTS].map((f) => f.name);

// What sharp reads and writes back in the same format (SVG, BMP, ICO get no formats, as in Strapi).
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);

export function isResizableImage(mime: string): boolean {
  return RESIZABLE.has(mime);
}

/** The storage file name of a format of `hash`+`ext`. */
export const formatFileName = (format: string, hash: string, ext: string) => `${format}_${hash}${ext}`;

export interface ProcessedImage {
  width: number | null;
  height: number | null;
  formats: Formats | null;
}

export interface ImageSource {
  /** Storage key of the original. */
  key: string;
  name: string;
  hash: string;
  ext: string;
  mime: string;
}

/**
 * Read the original at `source.key`, measure it and store every format that applies under
 * `{prefix}{format}_{hash}{ext}`. Null when the original is gone (deleted or replaced since).
 * The original is staged in a temp file, so memory holds only the (small) formats.
 */
export async function makeImageFormats(
  storage: MediaStorage, source: ImageSource, prefix: string, urlOf: (fileName: string) => string,
): Promise<ProcessedImage | null> {
  const body = await storage.get(source.key);
  if (!body) return null;
  const staged = join(tmpdir(), `cms-media-${randomUUID()}${source.ext}`);
  try {
    // Outside resize's catch: sharp missing is an error (the job is retried), not an unreadable image.
    const sharp = await loadSharp();
    await pipeline(body, createWriteStream(staged));
    const resized = await resize(sharp, staged);
    // An image sharp cannot read (corrupt, over the pixel limit) is a file without formats:
    // retrying cannot help, so it is not an error.
    if (!resized) return { width: null, height: null, formats: null };
    const { width, height, outputs } = resized;
    if (outputs.length === 0) return { width, height, formats: null };
    const formats: Formats = {};
    for (const { spec, data, info } of outputs) {
      const fileName = formatFileName(spec.name, source.hash, source.ext);
      await storage.put(`${prefix}${fileName}`, data, { contentType: source.mime, contentLength: data.length });
      const format: ImageFormat = {
        name: `${spec.name}_${source.name}`,
        hash: `${spec.name}_${source.hash}`,
        ext: source.ext,
        mime: source.mime,
        path: null,
        width: info.width,
        height: info.height,
        size: kilobytes(data.length),
        sizeInBytes: data.length,
        url: urlOf(fileName),
      };
      formats[spec.name] = format;
    }
    return { width, height, formats };
  } finally {
    await rm(staged, { force: true });
  }
}

type Sharp = typeof SharpModule;
let sharpLoading: Promise<Sharp> | null = null;

/** sharp, imported on first use; a failed import (no native build for this platform) is retried at the next image. */
function loadSharp(): Promise<Sharp> {
  sharpLoading ??= import('sharp').then((m) => m.default, (err: unknown) => {
    sharpLoading = null;
    throw new Error(`sharp (image processing) could not be loaded: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
  return sharpLoading;
}

// Images above this many pixels are not decoded (memory): they keep no dimensions or formats.
const MAX_INPUT_PIXELS = 100_000_000;

/** Dimensions and every applicable format of the image file at `path`; null when sharp cannot read it. */
async function resize(sharp: Sharp, path: string) {
  try {
    const meta = await sharp(path, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    const specs = [THUMBNAIL, ...BREAKPOINTS].filter((f) => width > f.width || height > f.height);
    const outputs = [];
    for (const spec of specs) {
      const { data, info } = await sharp(path, { limitInputPixels: MAX_INPUT_PIXELS })
        .resize(spec.width, spec.height, { fit: 'inside' })
        .toBuffer({ resolveWithObject: true });
      outputs.push({ spec, data, info });
    }
    return { width, height, outputs };
  } catch {
    return null;
  }
}
