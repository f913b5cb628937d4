// Stack traces of the compiled server (dist/, `make build`) in TypeScript files and lines, with
// the source maps read only when a stack is first formatted.
//
// `node --enable-source-maps` reads and parses every loaded file's source map as the file loads
// (about 40 MB of a fresh gateway's memory), and on the first stack through a file it decodes
// all of that map's mappings (the largest chunk's: 0.4 s and 50 MB of heap). Here a file's map
// is read on the first stack with a frame in it, and kept as its `mappings` text with the state
// at the start of each generated line: a frame decodes only its own line's segments.
//
// Imported first by every entry point. It does nothing when Node already maps stack traces
// (tsx in development and the tests, `node --enable-source-maps`) or outside a build (this module
// not in a .js file); it maps only the frames of files in the directory it was compiled into.
// Code that sets `Error.prepareStackTrace` later replaces it, as it would Node's.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BASE64 = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[c.charCodeAt(0)] = i;

const LINE_FIELDS = 5;

/** Where a generated position came from. Lines and columns count from 0, as in source maps. */
export interface OriginalPosition {
  source: string;
  line: number;
  column: number;
}

/**
 * A source map's mappings, decoded one generated line at a time. Source map v3 (no index maps,
 * which esbuild does not write); `sources` are resolved against the map's own URL.
 */
export class LineSourceMap {
  private readonly sources: string[];
  private readonly mappings: string;
  /**
   * Per generated line, LINE_FIELDS numbers: where its segments start in `mappings`; the source,
   * original line and column of the segments before it (fields are relative across lines); and
   * whether the last segment before it mapped somewhere (1) or not (0).
   */
  private readonly lines: Int32Array;

  constructor(payload: { version?: number; sources?: unknown; sourceRoot?: unknown; mappings?: unknown }, mapUrl: string) {
    if (typeof payload.mappings !== 'string' || !Array.isArray(payload.sources)) throw new Error(`not a source map: ${mapUrl}`);
    const root = typeof payload.sourceRoot === 'string' && payload.sourceRoot !== '' ? `${payload.sourceRoot.replace(/\/?$/, '/')}` : '';
    this.sources = payload.sources.map((s) => {
      const url = new URL(`${root}${String(s)}`, mapUrl);
      return url.protocol === 'file:' ? fileURLToPath(url) : url.href;
    });
    this.mappings = payload.mappings;
    const starts: number[] = [0, 0, 0, 0, 0];
    const state = [0, 0, 0, 0, 0]; // column (per line), source, line, column, name
    const fields = { count: 0 };
    let mapped = 0;
    const text = this.mappings;
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 59 /* ; */) {
        i++;
        state[0] = 0;
        starts.push(i, state[1]!, state[2]!, state[3]!, mapped);
      } else if (c === 44 /* , */) {
        i++;
      } else {
        i = this.segment(i, state, fields);
        mapped = fields.count >= 4 ? 1 : 0;
      }
    }
    // After the last line: lines past the mappings' end take its last segment.
    starts.push(text.length, state[1]!, state[2]!, state[3]!, mapped);
    this.lines = Int32Array.from(starts);
  }

  /**
   * The original position of generated `line`:`column` (0-based): the last segment at or before
   * it, as Node's own lookup (a column before the line's first segment takes the one before the
   * line); null where that segment maps nowhere.
   */
  find(line: number, column: number): OriginalPosition | null {
    if (line < 0) return null;
    const at = Math.min(line * LINE_FIELDS, this.lines.length - LINE_FIELDS);
    const text = this.mappings;
    const state = [0, this.lines[at + 1]!, this.lines[at + 2]!, this.lines[at + 3]!, 0];
    let found: OriginalPosition | null = this.lines[at + 4] === 1 ? { source: this.sources[state[1]!] ?? '', line: state[2]!, column: state[3]! } : null;
    let i = this.lines[at]!;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 59) break;
      if (c === 44) {
        i++;
        continue;
      }
      const fields = { count: 0 };
      i = this.segment(i, state, fields);
      // Segments are in column order: the last one at or before `column` holds.
      if (state[0]! > column) break;
      found = fields.count >= 4 ? { source: this.sources[state[1]!] ?? '', line: state[2]!, column: state[3]! } : null;
    }
    return found;
  }

  /** Decode the segment at `i` into `state` (relative fields added); returns where the next one starts. */
  private segment(i: number, state: number[], fields?: { count: number }): number {
    const text = this.mappings;
    let field = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === 59) break;
      let value = 0;
      let shift = 0;
      for (;;) {
        const digit = BASE64[text.charCodeAt(i++)] ?? -1;
        if (digit < 0) throw new Error('invalid source map mappings');
        value += (digit & 31) * 2 ** shift;
        if ((digit & 32) === 0) break;
        shift += 5;
      }
      const delta = value % 2 === 1 ? -(value - 1) / 2 : value / 2;
      if (field < 5) state[field] = state[field]! + delta;
      field++;
    }
    if (fields) fields.count = field;
    return i;
  }
}

/**
 * Format stack traces with the source maps of the JavaScript files directly in `directory` (a
 * build's output), each read on first use. Returns false, changing nothing, when Node already
 * maps stack traces.
 */
export function mapStackTraces(directory: string): boolean {
  if (process.sourceMapsEnabled) return false;
  const prefix = pathToFileURL(directory.endsWith('/') ? directory : `${directory}/`).href;
  const maps = new Map<string, LineSourceMap | null>();
  const mapOf = (file: string): LineSourceMap | null => {
    let map = maps.get(file);
    if (map === undefined) {
      map = null;
      if (file.startsWith(prefix) && file.endsWith('.js') && !file.slice(prefix.length).includes('/')) {
        try {
          const mapUrl = `${file}.map`;
          map = new LineSourceMap(JSON.parse(readFileSync(fileURLToPath(mapUrl), 'utf8')), mapUrl);
        } catch {
          map = null; // no map (or an unreadable one): the frame stays as it is
        }
      }
      maps.set(file, map);
    }
    return map;
  };
  Error.prepareStackTrace = (error, callSites) => {
    let header: string;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = '<error>';
    }
    const frames = callSites.map((site) => {
      const text = String(site);
      try {
        const file = site.getFileName();
        const line = site.getLineNumber();
        const column = site.getColumnNumber();
        if (!file || line === null || column === null) return text;
        const original = mapOf(file)?.find(line - 1, column - 1);
        if (!original) return text;
        const generated = `${file}:${line}:${column}`;
        const at = text.lastIndexOf(generated);
        if (at < 0) return text;
        return `${text.slice(0, at)}${original.source}:${original.line + 1}:${original.column + 1}${text.slice(at + generated.length)}`;
      } catch {
        return text;
      }
    });
    return frames.length === 0 ? header : `${header}\n    at ${frames.join('\n    at ')}`;
  };
  return true;
}

/** This module's own file, from a stack (its URL in the bundle: `import.meta.url` is rewritten to the source's). */
function ownFile(): string | null {
  const previous = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, callSites) => callSites;
    const sites = new Error().stack as unknown as NodeJS.CallSite[];
    return sites[0]?.getFileName() ?? null;
  } catch {
    return null;
  } finally {
    Error.prepareStackTrace = previous;
  }
}

// In the compiled server this file is part of a bundle in dist/: map the stacks through dist/'s maps.
const own = ownFile();
if (own?.startsWith('file:') && own.endsWith('.js')) mapStackTraces(dirname(fileURLToPath(own)));
