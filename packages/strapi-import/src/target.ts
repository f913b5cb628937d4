// Where an import writes: the platform, reached over its /v1 HTTP routes (the CLI) or in-process
// (the gateway restoring a project). One method per thing the importer does there; each write is
// idempotent (documents are matched by documentId, locale and status, files by documentId, users
// by e-mail), so a batch sent again changes nothing more.
import type { Readable } from 'node:stream';
import type { FilesModel } from '@cms/schema/strapi-files';
import type { RelationRecord, UserRecord, VersionRecord } from './source.ts';

export interface ImportTarget {
  /**
   * The project to import into: the one named `slug` (given by the caller, or created by an
   * earlier run of the same import), else a new one made from `create`; `created` says which.
   */
  project(slug: string | null, create: NewProject): Promise<{ project: TargetProject; created: boolean }>;
}

export interface NewProject {
  name: string;
  /** The source's default locale, when it knows one. */
  defaultLocale: string | null;
}

/** One project of the target and what an import does to it. */
export interface TargetProject {
  readonly slug: string;
  /** The version of the project's current model (a push names it: a change made meanwhile is refused). */
  modelVersion(): Promise<number>;
  /** What pushing `model` would do, without doing it: whether it changes anything, and deletes data. */
  planModel(model: FilesModel, expectedVersion: number): Promise<{ changed: boolean; destructive: boolean }>;
  pushModel(model: FilesModel, expectedVersion: number): Promise<void>;
  localeCodes(): Promise<string[]>;
  addLocale(code: string): Promise<void>;
  /** The types of the project's end-user roles. */
  roleTypes(): Promise<string[]>;
  addRole(role: { type: string; name: string; description?: string }): Promise<void>;
  importUsers(users: UserRecord[]): Promise<void>;
  /** This project's id of the file imported under the source's `documentId`; null when there is none. */
  fileId(documentId: string): Promise<number | null>;
  /** Store one file under the source's documentId (one stored already is kept); its id here. */
  putFile(file: FileUpload): Promise<number>;
  /** Document versions whose media hold this project's file ids. */
  importDocuments(documents: VersionRecord[]): Promise<void>;
  importRelations(relations: RelationRecord[]): Promise<void>;
}

export interface FileUpload {
  documentId: string;
  /** The bytes, read to their end by the target. */
  body: Readable;
  name: string;
  mime: string;
  fileInfo: { alternativeText: string | null; caption: string | null };
  /** The source's upload and last change (ISO), when known. */
  createdAt: string | null;
  updatedAt: string | null;
}
