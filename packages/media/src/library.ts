// The media library of every project: uploads streamed into storage under `{projectId}/`, one
// row per file, image formats made by jobs, and deletes that remove the stored objects too.
// HTTP parsing, permissions and response shapes belong to the callers (REST and GraphQL).
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sqlState, type Db } from '@cms/db';
import type { Logger } from '@cms/telemetry';
import type { DatabasePool } from 'slonik';
import { baseNameOf, displayName, extensionOf, fileHash, kilobytes } from './file-names.ts';
import {
  allFileRows, deleteFileRow, fileInSchemas, findFileRow, insertFile, recordProcessing, replaceFileContent, storedBytes, updateFileInfo,
  type FileInfo, type FileRow,
} from './file-rows.ts';
import { deleteFolderTree, folderPathOf, setFilesFolder } from './folder-rows.ts';
import { formatFileName, FORMAT_NAMES, isResizableImage, makeImageFormats } from './image-formats.ts';
import type { ImageJob, ImageJobProcessor, JobHandle, MediaJobQueue } from './jobs.ts';
import { sniffMime } from './mime.ts';
import { assertWithinQuota, type StorageQuota } from './quota.ts';
import type { MediaStorage, StoredObject } from './storage.ts';

export interface MediaLibraryOptions {
  storage: MediaStorage;
  jobs: MediaJobQueue;
  /** Local disk without MEDIA_PUBLIC_URL: URLs are `/uploads/{file}`, served by the gateway under each project. */
  relativeUrls: boolean;
  /** How long an upload answer waits for its images' formats before answering with what is ready. */
  processingWaitMs: number;
  logger: Logger;
  /** Told after processing recorded a file's formats (the answers that show the file changed). */
  onProcessed?: (projectId: number) => Promise<void>;
  /**
   * The schemas of the other projects whose files may be this project's stored objects (its
   * environments: their file rows point at the parent's objects until they store their own),
   * read through `db`: the caller's connection (its transaction) on the project's cluster.
   * An object one of them still names is not deleted with this project's file.
   */
  sharingSchemas?: (db: Db, projectId: number) => Promise<string[]>;
}

export interface UploadPart {
  filename: string;
  mimetype: string;
  stream: Readable;
}

/** An upload written to storage and not yet recorded. */
export interface StoredUpload {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  bytes: number;
  key: string;
}

/** Where a project's files live. */
export interface ProjectFiles {
  projectId: number;
  schema: string;
}

const UNDEFINED_TABLE_OR_SCHEMA = new Set(['42P01', '3F000']);

export class MediaLibrary {
  private readonly storage: MediaStorage;

  constructor(private readonly options: MediaLibraryOptions) {
    this.storage = options.storage;
  }

  get provider(): string {
    return this.storage.provider;
  }

  private prefixOf(projectId: number): string {
    return `${projectId}/`;
  }

  /** The storage key of one of a project's files. */
  keyOf(projectId: number, fileName: string): string {
    return `${this.prefixOf(projectId)}${fileName}`;
  }

  urlOf(projectId: number, fileName: string): string {
    return this.options.relativeUrls ? `/uploads/${fileName}` : this.storage.url(this.keyOf(projectId, fileName));
  }

  /** A stored object of a project, for the gateway to serve; null when there is none. */
  open(projectId: number, fileName: string): Promise<NodeJS.ReadableStream | null> {
    return this.storage.get(this.keyOf(projectId, fileName));
  }

  /** A stored object of a project with its length (an export puts it in an archive); null when there is none. */
  read(projectId: number, fileName: string): Promise<StoredObject | null> {
    return this.storage.read(this.keyOf(projectId, fileName));
  }

  /**
   * The key of a project's archive (an export or a backup). Archives are kept apart from the
   * project's media (`archives/{projectId}/`, never under the `{projectId}/` prefix that
   * `/uploads/…` serves) and named by the caller with an unguessable part.
   */
  archiveKey(projectId: number, name: string): string {
    return `archives/${projectId}/${name}`;
  }

  /** Stream an archive into storage (never buffered whole: S3 gets it in parts). */
  putArchive(key: string, body: NodeJS.ReadableStream): Promise<{ size: number }> {
    return this.storage.put(key, body, { contentType: 'application/gzip' });
  }

  readArchive(key: string): Promise<StoredObject | null> {
    return this.storage.read(key);
  }

  deleteArchive(key: string): Promise<void> {
    return this.storage.delete(key);
  }

  /**
   * Stream one uploaded part into storage after checking its type; null for a part without any
   * bytes (nothing is stored). With `replacing`, the part is staged under a key of its own and
   * only copied over the file's content by `replace`, so a request refused after this point
   * leaves the file as it was. A stream that fails (size limit, client gone) stores nothing.
   */
  async store(projectId: number, part: UploadPart, replacing?: FileRow): Promise<StoredUpload | null> {
    const name = displayName(part.filename);
    const sniffed = await sniffMime(part.stream, part.mimetype, name);
    if (sniffed.empty) return null;
    const ext = extensionOf(name) || sniffed.detectedExt;
    const hash = replacing?.hash ?? fileHash(baseNameOf(name, ext));
    const fileName = replacing ? `${hash}_replacing_${randomBytes(8).toString('hex')}${ext}` : `${hash}${ext}`;
    const key = this.keyOf(projectId, fileName);
    const { size } = await this.storage.put(key, sniffed.stream, { contentType: sniffed.mime });
    return { name, hash, ext, mime: sniffed.mime, bytes: size, key };
  }

  /** Delete stored uploads that will not be recorded (a later part or the transaction failed). */
  async discard(uploads: readonly StoredUpload[]): Promise<void> {
    await Promise.all(uploads.map((u) => this.storage.delete(u.key).catch((err) => this.options.logger.error({ err, key: u.key }, 'could not delete media object'))));
  }

  /**
   * Record stored uploads as files in one transaction (with `link`, e.g. attaching them to an
   * entry, inside it), then make their formats. On failure the stored objects are deleted, so
   * nothing is half-written. Resolves with the new file ids in upload order.
   */
  async create(
    pool: DatabasePool, project: ProjectFiles, uploads: readonly StoredUpload[], infos: readonly FileInfo[],
    link?: (tx: Db, fileIds: string[]) => Promise<void>, quota?: StorageQuota,
  ): Promise<string[]> {
    let rows: FileRow[];
    try {
      rows = await pool.transaction(async (tx) => {
        if (quota !== undefined) {
          const adding = uploads.reduce((sum, u) => sum + u.bytes, 0);
          assertWithinQuota(await storedBytes(tx, project.schema, true), adding, quota);
        }
        const inserted: FileRow[] = [];
        for (const [i, upload] of uploads.entries()) {
          const info = infos[i] ?? {};
          inserted.push(await insertFile(tx, project.schema, {
            name: info.name ?? upload.name,
            alternativeText: info.alternativeText ?? null,
            caption: info.caption ?? null,
            focalPoint: info.focalPoint ?? null,
            hash: upload.hash,
            ext: upload.ext,
            mime: upload.mime,
            size: kilobytes(upload.bytes),
            url: this.urlOf(project.projectId, `${upload.hash}${upload.ext}`),
            provider: this.storage.provider,
          }));
          if (info.folder !== undefined) {
            await setFilesFolder(tx, project.schema, [inserted.at(-1)!.id], info.folder, uploads.length > 1 ? ['fileInfo', String(i), 'folder'] : ['fileInfo', 'folder']);
          }
        }
        if (link) await link(tx, inserted.map((r) => r.id));
        return inserted;
      });
    } catch (err) {
      await this.discard(uploads);
      throw err;
    }
    await this.process(project, rows.map((row, i) => ({ row, upload: uploads[i]!, name: infos[i]?.name ?? uploads[i]!.name })));
    return rows.map((r) => r.id);
  }

  /**
   * Replace a file's content with an upload staged by `store(…, before)`, keeping its id and
   * hash. Null when the file no longer exists.
   */
  async replace(db: Db, project: ProjectFiles, before: FileRow, upload: StoredUpload, info: FileInfo): Promise<string | null> {
    // Content an environment still shows is never overwritten: the new one gets a hash of its own.
    const shared = await this.sharedElsewhere(db, project.projectId, before.hash, before.ext);
    const hash = shared ? `${before.hash}_${randomBytes(4).toString('hex')}` : before.hash;
    const fileName = `${hash}${upload.ext}`;
    let row: FileRow | null;
    try {
      if (!(await findFileRow(db, project.schema, before.id))) return null;
      // An unknown folder is refused before the content changes.
      if (info.folder) await folderPathOf(db, project.schema, info.folder, ['fileInfo', 'folder']);
      // The copy replaces the object in one step (rename on disk, one PUT on S3).
      const staged = await this.storage.get(upload.key);
      if (!staged) throw new Error(`staged upload ${upload.key} disappeared`);
      await this.storage.put(this.keyOf(project.projectId, fileName), staged, { contentType: upload.mime });
      row = await replaceFileContent(db, project.schema, before.id, {
        name: info.name ?? upload.name, hash, ext: upload.ext, mime: upload.mime, size: kilobytes(upload.bytes),
        url: this.urlOf(project.projectId, fileName), provider: this.storage.provider,
      }, before.hash);
      if (row && hasInfo(info)) await updateFileInfo(db, project.schema, row.id, info);
    } finally {
      await this.discard([upload]);
    }
    if (!row) return null;
    // The old formats (and the old original, under another extension) are stale now.
    if (!shared) await this.deleteObjects(project.projectId, before.hash, before.ext, upload.ext !== before.ext);
    await this.process(project, [{ row, upload, name: info.name ?? upload.name }]);
    return row.id;
  }

  /** Bytes the project's files take now. */
  storedBytes(db: Db, schema: string): Promise<number> {
    return storedBytes(db, schema);
  }

  findRow(db: Db, schema: string, id: string): Promise<FileRow | null> {
    return findFileRow(db, schema, id);
  }

  /** Change a file's metadata; false when there is no such file. */
  updateInfo(db: Db, schema: string, id: string, info: FileInfo): Promise<boolean> {
    return updateFileInfo(db, schema, id, info);
  }

  /** Delete a file's row (its links go with it) and then its stored objects. */
  async remove(db: Db, project: ProjectFiles, id: string): Promise<FileRow | null> {
    const row = await deleteFileRow(db, project.schema, id);
    if (row && !(await this.sharedElsewhere(db, project.projectId, row.hash, row.ext))) await this.deleteObjects(project.projectId, row.hash, row.ext, true);
    return row;
  }

  /** Whether another project's file rows (an environment's) still name this stored content. */
  private async sharedElsewhere(db: Db, projectId: number, hash: string, ext: string): Promise<boolean> {
    const schemas = await this.options.sharingSchemas?.(db, projectId) ?? [];
    if (schemas.length === 0) return false;
    return fileInSchemas(db, schemas, hash, ext);
  }

  /**
   * Delete a folder, its sub-folders and every file in them (as Strapi does) in one transaction,
   * then the files' stored objects. Resolves with how many files went.
   */
  async removeFolder(pool: DatabasePool, project: ProjectFiles, folderId: string): Promise<number> {
    const files = await pool.transaction((tx) => deleteFolderTree(tx, project.schema, folderId));
    for (const file of files) {
      if (!(await this.sharedElsewhere(pool, project.projectId, file.hash, file.ext))) await this.deleteObjects(project.projectId, file.hash, file.ext, true);
    }
    return files.length;
  }

  /**
   * The stored objects of every file of `schema` (kept under `projectId`'s prefix), e.g. a
   * project's previous files once a restore in place has replaced its schema. Resolves with how
   * many files' objects went.
   */
  async removeSchemaFiles(db: Db, schema: string, projectId: number): Promise<number> {
    let n = 0;
    for await (const file of allFileRows(db, schema)) {
      // An environment's rows may still name the object (a restore in place of its parent).
      if (await this.sharedElsewhere(db, projectId, file.hash, file.ext)) continue;
      await this.deleteObjects(projectId, file.hash, file.ext, true);
      n++;
    }
    return n;
  }

  /** Every object of a deleted project, its archives included. */
  async removeProject(projectId: number): Promise<number> {
    const [media, archives] = await Promise.all([
      this.storage.deletePrefix(this.prefixOf(projectId)), this.storage.deletePrefix(`archives/${projectId}/`),
    ]);
    return media + archives;
  }

  /** Formats are named after hash and extension, so all possible ones are deleted, made or not. */
  private async deleteObjects(projectId: number, hash: string, ext: string, original: boolean): Promise<void> {
    const names = FORMAT_NAMES.map((f) => formatFileName(f, hash, ext));
    if (original) names.push(`${hash}${ext}`);
    await Promise.all(names.map((n) => this.storage.delete(this.keyOf(projectId, n)).catch((err) =>
      this.options.logger.error({ err, projectId, file: n }, 'could not delete media object'))));
  }

  /** Queue the images' format jobs and wait for them, up to the configured time. */
  private async process(project: ProjectFiles, files: Array<{ row: FileRow; upload: StoredUpload; name: string }>): Promise<void> {
    const handles: JobHandle[] = [];
    for (const { row, upload, name } of files) {
      if (!isResizableImage(upload.mime)) continue;
      handles.push(await this.options.jobs.add({
        projectId: project.projectId, schema: project.schema, fileId: row.id, name,
        hash: row.hash, ext: row.ext, mime: upload.mime, size: row.size,
      }));
    }
    if (handles.length === 0) return;
    const deadline = Date.now() + this.options.processingWaitMs;
    await Promise.all(handles.map((h) => h.finished(Math.max(0, deadline - Date.now()))));
  }

  /** The job processor, for whichever queue runs the jobs, reading and writing through `db`. */
  processor(db: Db): ImageJobProcessor {
    return async (job: ImageJob) => {
      const prefix = this.prefixOf(job.projectId);
      const source = { key: `${prefix}${job.hash}${job.ext}`, name: job.name, hash: job.hash, ext: job.ext, mime: job.mime };
      const result = await makeImageFormats(this.storage, source, prefix, (f) => this.urlOf(job.projectId, f));
      if (!result) return; // the original is gone: deleted, or replaced under another extension
      try {
        if (await recordProcessing(db, job.schema, job.fileId, job, result)) {
          await this.options.onProcessed?.(job.projectId);
          return;
        }
        // Replaced since: the replacing job makes its own formats. Deleted since: drop ours.
        if (await findFileRow(db, job.schema, job.fileId)) return;
      } catch (err) {
        // The project was deleted while the job ran.
        if (!UNDEFINED_TABLE_OR_SCHEMA.has(sqlState(err) ?? '')) throw err;
      }
      await this.deleteObjects(job.projectId, job.hash, job.ext, false);
    };
  }
}

function hasInfo(info: FileInfo): boolean {
  return Object.values(info).some((v) => v !== undefined);
}
