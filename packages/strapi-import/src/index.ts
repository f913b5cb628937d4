// Public API of @cms/strapi-import: a Strapi v5 project's content read from a `strapi export`
// archive (or by the caller from anywhere else, as an ImportSource) and imported into a project
// through an ImportTarget — the one import core of `cms import strapi` (over HTTP) and of the
// gateway (in-process). docs/import-strapi.md.
export { ImportError } from './errors.ts';
export { archiveKind } from './archive.ts';
export { ArchiveSource, countFound } from './archive-source.ts';
export { modelFromArchive } from './archive-model.ts';
export {
  attributesOf, bodyOf, hasComponentRelations, ownerRelations, unsupportedAttributes,
  type ComponentRelationsOf, type MediaOf, type RelationTarget,
} from './document-data.ts';
export {
  addFound,
  type FileRecord, type ImportSource, type LinkedTarget, type RelationRecord, type RoleRecord, type Skipped, type StageTotals, type UserRecord, type VersionRecord,
} from './source.ts';
export { ImportReport } from './report.ts';
export { memoryState, type BatchStage, type ImportState, type ImportStateStore } from './state.ts';
export type { FileUpload, ImportTarget, NewProject, TargetProject } from './target.ts';
export { runImport, type ImportOptions, type StageProgress } from './run-import.ts';
