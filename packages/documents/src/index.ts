// @cms/documents: the document service's writes, shared by REST and GraphQL. `parseDocumentData`
// validates a body against the model; `createDocument` / `updateDocument` / `deleteDocument` apply
// it in one transaction with draft & publish, i18n, relations, components and media;
// `unpublishDocument` / `discardDraft` are the dashboard's draft & publish actions; `publishIn` /
// `unpublishIn` run one document's publish or unpublish inside a caller's transaction (a release's),
// and `checkEntries` says which entries could be published now.
export { parseDocumentData, type ParseDataOptions } from './parse-data.ts';
export {
  createDocument, updateDocument, deleteDocument, unpublishDocument, discardDraft,
  type DocumentStore, type DocumentEvent, type WriteRequest, type UpdateRequest, type DeleteRequest, type VersionsRequest, type WriteResult, type TransactionalDb,
} from './writer.ts';
export { publishIn, publishDocument, unpublishIn, writeContext, type VersionStore } from './writer.ts';
export type { WriteContext } from './write-context.ts';
export { checkEntries, validateForPublish, type EntryRef, type EntryCheck, type CheckContext } from './publish-check.ts';
export type { RowWrite, RelationWrite, TargetRef, Position, ConnectItem, ComponentItemWrite, ScalarWrite } from './write-input.ts';
export { writeLocale } from './write-locale.ts';
export {
  HISTORY_ORIGINS, copyHistory, keepsHistory, recordVersionOfRow, recordVersions,
  type HistoryOrigin, type HistoryAuthor, type WriteOrigin, type VersionKey,
} from './history.ts';
export {
  dueHistoryPrunes, markHistoryPruned, pruneHistory,
  type HistoryPruneTarget, type HistoryPruneResult, type HistoryPruneOptions,
} from './history-retention.ts';
export {
  listVersions, findVersion, previousVersion, currentVersionData, parseHistoryListQuery, historyVersionId,
  DEFAULT_HISTORY_PAGE_SIZE, MAX_HISTORY_PAGE_SIZE,
  type HistoryVersion, type HistoryListQuery, type HistoryPage, type VersionStatus, type CurrentDocument,
} from './history-read.ts';
export { diffVersionData, sameJson, type DiffSchema, type HistoryChange, type RawAttribute } from './history-diff.ts';
export { restoreVersion, type RestorableVersion, type RestoreResult, type DroppedReference } from './history-restore.ts';
export { positiveId } from './relation-input.ts';
export {
  importDocumentVersions, importRelations, MAX_IMPORT_ITEMS,
  type ImportedVersion, type ImportedVersionKey, type ImportedRelations, type ImportStore,
} from './import-documents.ts';
export { contentEntities, contentLinks, type ExportContext, type EntityLine, type LinkLine, type LinkEnd } from './export-rows.ts';
