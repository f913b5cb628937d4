// Writing an archive in Strapi's data-transfer format (what `strapi export --no-encrypt` writes):
// a gzipped tar of `metadata.json`, `schemas/`, `entities/`, `links/`, `configuration/` (JSONL
// files named `{stage}/{stage}_00001.jsonl`, a new file every JSONL_FILE_BYTES) and
// `assets/uploads/` + `assets/metadata/`. Every entry goes through the tar stream with
// backpressure: memory holds at most one JSONL file being filled, whatever the project's size.
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { createGzip, type Gzip } from 'node:zlib';
import { pack as tarPack, type Pack } from 'tar-stream';

/** Strapi starts a new JSONL file at 256 MB; smaller files bound what is held in memory. */
export const JSONL_FILE_BYTES = 4 * 1024 * 1024;
const SLICE = 64 * 1024;

export type JsonlStage = 'schemas' | 'entities' | 'links' | 'configuration';

export class ArchiveWriter {
  private readonly tar: Pack = tarPack();
  /** The gzipped archive, to be read by the caller (a storage upload) while entries are written. */
  readonly output: Gzip = createGzip();
  private readonly mtime = new Date();
  private fail!: (err: Error) => void;
  /** Rejects once the archive is aborted (its reader failed): a write waiting for the reader stops. */
  private readonly failed = new Promise<never>((_, reject) => { this.fail = reject; });

  /** `jsonlFileBytes`: where JSONL files are cut (tests make it small). */
  constructor(readonly jsonlFileBytes = JSONL_FILE_BYTES) {
    this.failed.catch(() => {});
    this.tar.pipe(this.output);
    this.tar.on('error', (err: Error) => this.abort(err));
  }

  /** One entry of known size, written in slices that wait for the reader. */
  async entry(name: string, size: number, body: Readable | NodeJS.ReadableStream | Buffer): Promise<void> {
    let done!: (err?: Error | null) => void;
    const finished = new Promise<void>((resolve, reject) => { done = (err) => (err ? reject(err) : resolve()); });
    const sink = this.tar.entry({ name, size, mtime: this.mtime, mode: 0o644 }, (err) => done(err));
    // A body of another size than announced fails the entry (tar-stream emits it on the sink).
    sink.on('error', (err: Error) => done(err));
    const write = async (chunk: Buffer) => {
      for (let i = 0; i < chunk.length; i += SLICE) {
        if (sink.write(chunk.subarray(i, i + SLICE))) continue;
        const drained = once(sink, 'drain');
        drained.catch(() => {}); // the sink's own failure is reported through `done`
        await Promise.race([drained, finished, this.failed]);
      }
    };
    if (Buffer.isBuffer(body)) await write(body);
    else for await (const chunk of body as AsyncIterable<Buffer>) await write(chunk);
    sink.end(() => {});
    await Promise.race([finished, this.failed]);
  }

  json(name: string, value: unknown): Promise<void> {
    const body = Buffer.from(JSON.stringify(value, null, 2));
    return this.entry(name, body.length, body);
  }

  jsonl(stage: JsonlStage): JsonlWriter {
    return new JsonlWriter(this, stage);
  }

  finish(): void {
    this.tar.finalize();
  }

  abort(err: Error): void {
    this.fail(err);
    this.tar.destroy(err);
    this.output.destroy(err);
  }
}

/** Lines of one stage, cut into files of at most `jsonlFileBytes` (a line is never split). */
export class JsonlWriter {
  private lines: Buffer[] = [];
  private bytes = 0;
  private files = 0;
  count = 0;

  constructor(private readonly archive: ArchiveWriter, private readonly stage: JsonlStage) {}

  /** A line: an object, or JSON text already serialised. */
  async write(line: unknown): Promise<void> {
    const buffer = Buffer.from(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
    if (this.bytes + buffer.length > this.archive.jsonlFileBytes && this.lines.length) await this.flush();
    this.lines.push(buffer);
    this.bytes += buffer.length;
    this.count++;
  }

  /** Writes what is left; a stage without lines still gets its (empty) first file, as Strapi's. */
  async close(): Promise<void> {
    if (this.lines.length || this.files === 0) await this.flush();
  }

  private async flush(): Promise<void> {
    const body = Buffer.concat(this.lines);
    this.lines = [];
    this.bytes = 0;
    this.files++;
    await this.archive.entry(`${this.stage}/${this.stage}_${String(this.files).padStart(5, '0')}.jsonl`, body.length, body);
  }
}
