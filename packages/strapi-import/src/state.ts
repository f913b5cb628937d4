// What an import has done so far, so a run after an interruption goes on from there: the project
// it writes to, the batches each stage completed and the ids of the files stored. The caller
// keeps it (the CLI in a file per source and target, a server run in memory); batches sent again
// anyway are harmless, as every write of an import is idempotent.

export type BatchStage = 'users' | 'documents' | 'relations' | 'componentRelations';

export interface ImportState {
  /** The project the import writes to (null: not chosen yet, a new one is created). */
  project: string | null;
  batchSize: number;
  /** Batches completed per stage, in the source's order. */
  done: Partial<Record<BatchStage, number>>;
  /** Source file documentId → this project's file id. */
  fileIds: Record<string, number>;
}

/** The state and where it is kept: saved after every batch and file, removed once the import completes. */
export interface ImportStateStore {
  state: ImportState;
  save(): Promise<void>;
  remove(): Promise<void>;
}

/** A state kept for one run only (nothing to resume from). */
export function memoryState(project: string | null, batchSize: number): ImportStateStore {
  return {
    state: { project, batchSize, done: {}, fileIds: {} },
    save: async () => {},
    remove: async () => {},
  };
}
