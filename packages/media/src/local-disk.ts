// Local-disk driver: one file per object under `rootDir` (embedded mode; the gateway serves them
// under `/uploads`). Writes go to a temp file that is fsynced and renamed into place, so a failed
// or crashed write never leaves a partial object and an overwrite keeps the old file until then.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, open, readdir, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, assertValidPrefix, joinUrl } from './keys.ts';
import type { MediaStorage, PutOptions, StoredObject } from './storage.ts';
import { ByteCounter, checkContentLength, toReadable } from './streams.ts';

// `~` is not a key character, so no key can ever name a temp file (and listings can skip them).
const TEMP_MARK = '~';

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException)?.code ?? '');

export class LocalDiskStorage implements MediaStorage {
  readonly provider = 'local';
  readonly rootDir: string;

  constructor(rootDir: string, readonly publicBaseUrl: string) {
    this.rootDir = resolve(rootDir);
  }

  async put(key: string, body: NodeJS.ReadableStream | Buffer, opts: PutOptions): Promise<{ size: number }> {
    const path = this.pathOf(key);
    checkContentLength(opts.contentLength);
    await mkdir(dirname(path), { recursive: true });
    const temp = join(dirname(path), `.${TEMP_MARK}${randomUUID()}`); // short: the key's own name may be long
    const counter = new ByteCounter(opts.contentLength);
    const out = createWriteStream(temp, { flags: 'wx' });
    try {
      await pipeline(toReadable(body), counter, out);
      await syncFile(temp); // the data must be on disk before the rename makes it visible
      await rename(temp, path);
    } catch (err) {
      // A source that fails early rejects the pipeline while the file may still be opening: wait
      // for the stream to close, or the temp file would be created after its removal.
      if (!out.closed) await once(out, 'close').catch(() => {});
      await unlink(temp).catch(() => {});
      throw err;
    }
    return { size: counter.bytes };
  }

  async get(key: string): Promise<NodeJS.ReadableStream | null> {
    return (await this.read(key))?.body ?? null;
  }

  async read(key: string): Promise<StoredObject | null> {
    let file: FileHandle;
    try {
      file = await open(this.pathOf(key), 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    // A key can name a directory (`1` when `1/x` exists); that is not an object.
    const stats = await file.stat();
    if (!stats.isFile()) {
      await file.close();
      return null;
    }
    return { body: file.createReadStream(), size: stats.size };
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'EISDIR') return;
      throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    return removeTree(this.within(join(this.rootDir, prefix)));
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  url(key: string): string {
    assertValidKey(key);
    return joinUrl(this.publicBaseUrl, key);
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return this.within(join(this.rootDir, key));
  }

  // Key validation already rules out traversal; this is the second lock on the same door.
  private within(path: string): string {
    const root = this.rootDir.endsWith(sep) ? this.rootDir : this.rootDir + sep;
    if (!path.startsWith(root)) throw new Error(`Media path escapes the storage root: ${path}`);
    return path;
  }
}

// fsync flushes the file, whichever descriptor asks. (A FileHandle's own write stream cannot be
// used here: with autoClose off it keeps a reference that makes close() wait forever.)
async function syncFile(path: string): Promise<void> {
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Delete a directory tree (without following symlinks); resolves with how many objects it held. */
async function removeTree(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return 0;
    throw err;
  }
  let removed = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      removed += await removeTree(path);
      continue;
    }
    try {
      await unlink(path);
      // Leftover temp files are cleaned up too, but they were never objects.
      if (!entry.name.includes(TEMP_MARK)) removed++;
    } catch (err) {
      if (!isMissing(err)) throw err; // deleted concurrently: not ours to count
    }
  }
  try {
    await rmdir(dir);
  } catch (err) {
    // A write that landed meanwhile keeps its directory: deletePrefix is a point-in-time sweep.
    if (!isMissing(err) && (err as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw err;
  }
  return removed;
}
