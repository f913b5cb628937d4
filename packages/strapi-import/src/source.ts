// What an import reads, whichever Strapi it comes from (an export archive or a running Strapi's
// REST API): one internal stream of records, so the importer has one code path.
import type { Readable } from 'node:stream';

/** A document version as the platform's import API takes it; media hold file documentIds. */
export interface VersionRecord {
  uid: string;
  documentId: string;
  /** null on non-localized types */
  locale: string | null;
  status: 'draft' | 'published';
  /** Write body without relations; media attributes hold the files' documentIds (see document-data.ts). */
  data: Record<string, unknown>;
  createdAt: string | null;
  updatedAt: string | null;
  publishedAt: string | null;
}

/** A relation's target document version, as the import API takes it. */
export interface LinkedTarget {
  documentId: string;
  locale: string | null;
  /**
   * The link's place (from 1) in the target's inverse side (its `mappedBy` list, e.g. a chef's
   * `apprentices`), where the source gives that order; without it the link goes last there.
   */
  inversePosition?: number;
}

/** The owner-side relations of one version, targets in order. */
export interface RelationRecord {
  uid: string;
  documentId: string;
  locale: string | null;
  status: 'draft' | 'published';
  relations: Record<string, LinkedTarget[]>;
}

export interface FileRecord {
  documentId: string;
  name: string;
  mime: string;
  alternativeText: string | null;
  caption: string | null;
  /** When the source's file was uploaded and last changed (ISO), kept by the import when known. */
  createdAt: string | null;
  updatedAt: string | null;
  /** The bytes; read to the end (or resumed) before the next record. */
  body: Readable;
}

export interface RoleRecord {
  type: string;
  name: string;
  description: string | null;
}

export interface UserRecord {
  documentId: string | null;
  username: string;
  email: string;
  /** The stored bcrypt hash; null when the source does not give it (REST). */
  password: string | null;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  role: string;
}

/** Something the source found but will not import, and why. */
export interface Skipped {
  what: string;
  reason: string;
}

export interface ImportSource {
  /** Locale codes found, and the default one when the source knows it. */
  locales(): Promise<{ codes: string[]; defaultLocale: string | null }>;
  roles(): Promise<RoleRecord[]>;
  users(): AsyncIterable<UserRecord>;
  files(): AsyncIterable<FileRecord>;
  versions(): AsyncIterable<VersionRecord>;
  /** After `versions()` has run to its end. */
  relations(): AsyncIterable<RelationRecord>;
  /**
   * After `versions()`: the versions whose components hold relations, whole again with those
   * relations (sent once every target exists; the first pass leaves them out).
   */
  componentRelationVersions(): AsyncIterable<VersionRecord & { links: number }>;
  /** What each stage found but left out (filled while the stages run). */
  readonly skipped: Skipped[];
  /**
   * What the stages found, imported or not (filled while they run): document versions as
   * `type\0locale\0status`, users as `users\0\0`, files as `files\0\0` → count.
   */
  readonly found: Map<string, number>;
  /** How many items each stage will read, where the source knows in advance (the progress bars' size). */
  totals(): Promise<StageTotals>;
}

export interface StageTotals {
  users: number | null;
  files: number | null;
  documents: number | null;
  relations: number | null;
}

/** Count `n` items found under `type`, `locale`, `status` in a source's `found`. */
export function addFound(found: Map<string, number>, type: string, locale: string | null = null, status: string | null = null, n = 1): void {
  const key = `${type}\0${locale ?? ''}\0${status ?? ''}`;
  found.set(key, (found.get(key) ?? 0) + n);
}
