// Reading a `strapi export` archive (Strapi's data-transfer format): a tar, optionally gzipped,
// holding `metadata.json`, `schemas/`, `entities/`, `links/`, `configuration/` (JSONL, one item a
// line) and `assets/uploads/` + `assets/metadata/`. Everything is streamed: an entry is read while
// it passes, so a 1 GB export never needs 1 GB of memory. An encrypted archive (`.enc`, or
// anything that is neither gzip nor tar) is refused before reading.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { ImportError } from './errors.ts';

/** Kinds of JSONL streams in an export. */
export type JsonlStage = 'entities' | 'links' | 'configuration' | 'schemas';

export interface ArchiveVisitor {
  /** One parsed line of `entities`, `links`, `configuration` or `schemas`. */
  line?(stage: JsonlStage, item: Record<string, unknown>): Promise<void> | void;
  /**
   * A file under `assets/uploads/` (its name is the file's `hash + ext`). The visitor must read
   * `body` to its end (or call `body.resume()`) before resolving.
   */
  asset?(fileName: string, body: Readable, size: number): Promise<void>;
  /** `metadata.json` (`{createdAt, strapi: {version}}`). */
  metadata?(json: Record<string, unknown>): void;
}

const GZIP = [0x1f, 0x8b];

export const ENCRYPTED_MESSAGE = (path: string) =>
  `${path} is not a readable strapi export archive: it is encrypted or not a .tar/.tar.gz. ` +
  'Export again without encryption: `strapi export --no-encrypt -f my-export` (then pass my-export.tar.gz).';

/** gzip, plain tar, or a refusal (encrypted, or something else). */
export async function archiveKind(path: string): Promise<'gzip' | 'tar'> {
  if (/\.enc$/i.test(path)) throw new ImportError(ENCRYPTED_MESSAGE(path));
  const handle = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new ImportError(`Cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    if (bytesRead >= 2 && head[0] === GZIP[0] && head[1] === GZIP[1]) return 'gzip';
    if (bytesRead === 512 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  } finally {
    await handle.close();
  }
  throw new ImportError(ENCRYPTED_MESSAGE(path));
}

const STAGES = new Set<JsonlStage>(['entities', 'links', 'configuration', 'schemas']);

/** The part of the archive an entry belongs to. */
type Part = JsonlStage | 'assets' | 'metadata' | 'other';

function partOf(name: string): Part {
  const top = name.split('/')[0]!;
  if (STAGES.has(top as JsonlStage)) return top as JsonlStage;
  if (top === 'assets') return 'assets';
  return name === 'metadata.json' ? 'metadata' : 'other';
}

/**
 * Stream the archive once, handing each JSONL line and asset to `visitor`. With `only`, the
 * read ends once every part named there has been passed: `strapi export` writes its parts one
 * after the other (schemas, entities, assets, links, configuration), so a read of the entities
 * does not unpack the assets behind them.
 */
export async function readArchive(path: string, visitor: ArchiveVisitor, only?: ReadonlyArray<JsonlStage | 'assets'>): Promise<void> {
  const kind = await archiveKind(path);
  const file = createReadStream(path);
  const tar = extract();
  // 64 KB pieces (zlib's default is 16 KB): a quarter of the chunks to pass on and upload.
  const input = kind === 'gzip' ? file.pipe(createGunzip({ chunkSize: 64 * 1024 })) : file;
  input.on('error', (err: Error) => tar.destroy(new ImportError(`${path} is damaged: ${err.message}`)));
  input.pipe(tar);
  const wanted = new Set<Part>(only ?? []);
  const passed = new Set<Part>();
  let previous: Part | null = null;
  try {
    for await (const entry of tar) {
      const name = entry.header.name.replace(/^\.\//, '');
      const part = partOf(name);
      if (previous !== null && previous !== part && wanted.has(previous)) passed.add(previous);
      previous = part;
      if (only && [...wanted].every((p) => passed.has(p))) {
        entry.resume();
        break;
      }
      if (entry.header.type === 'file' && STAGES.has(part as JsonlStage) && name.endsWith('.jsonl') && visitor.line) {
        const lines = createInterface({ input: entry as unknown as Readable, crlfDelay: Infinity });
        for await (const line of lines) {
          if (!line.trim()) continue;
          let item: unknown;
          try {
            item = JSON.parse(line);
          } catch {
            throw new ImportError(`${path}: ${name} holds a line that is not JSON`);
          }
          if (typeof item === 'object' && item !== null) await visitor.line(part as JsonlStage, item as Record<string, unknown>);
        }
      } else if (part === 'metadata' && visitor.metadata) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        try {
          visitor.metadata(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        } catch {
          throw new ImportError(`${path}: metadata.json is not JSON`);
        }
      } else if (entry.header.type === 'file' && name.startsWith('assets/uploads/') && visitor.asset) {
        // A Node stream, as the type says (tar-stream's entries are streamx ones, whose async
        // iterator sees nothing once a 'data' listener has taken the bytes).
        await visitor.asset(name.slice('assets/uploads/'.length), Readable.from(entry, { objectMode: false }), entry.header.size ?? 0);
      }
      // Whatever the visitor left unread is skipped, so the next entry can start.
      entry.resume();
    }
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError(`${path} is not a readable strapi export archive (${(err as Error).message}). ${ENCRYPTED_MESSAGE(path)}`);
  } finally {
    // Ended early (or failed): stop unpacking the rest.
    tar.destroy();
    input.destroy();
    file.destroy();
  }
}
