// What every write step needs to know about the project it writes in.
import type { Db } from '@cms/db';
import type { PhysicalModel } from '@cms/tables';
import type { Model } from '@cms/schema';

export interface WriteContext {
  /** The open transaction every statement of one write runs in. */
  tx: Db;
  /** Postgres schema of the project. */
  schema: string;
  model: Model;
  physical: PhysicalModel;
  /** The project's default locale (relation targets of non-localized sources). */
  defaultLocale: string;
  /**
   * The transaction is the write's own (not a caller's, as a release's): its last statement (the
   * change's events, history and answer) commits it in the same round trip (@cms/db lastInTransaction).
   */
  ownTransaction?: boolean;
}

/** The document version a row belongs to: relation targets default to its locale. */
export interface SourceVersion {
  documentId: string;
  /** null on non-localized types */
  locale: string | null;
}
