// @cms/transfer: a project's archives in Strapi's data-transfer format (`strapi export
// --no-encrypt`): exports and backups, written in the background into the media storage.
export { ArchiveWriter, JsonlWriter, JSONL_FILE_BYTES, type JsonlStage } from './archive.ts';
export { ArchiveStore, HEARTBEAT_TIMEOUT_S, MAX_DAILY_ATTEMPTS, type ArchiveKind, type ArchiveRecord, type ArchiveStatus } from './archive-store.ts';
export { ArchiveRunner, type ArchiveRunnerOptions, type PreparedProject } from './archive-runner.ts';
export { writeProjectArchive, type ArchiveCounts, type ProjectSnapshot, type ExportStage } from './project-archive.ts';
export { strapiSchemas, contentTypeSchema, componentSchema } from './strapi-schemas.ts';
export { strapiPermissions, type ExportedRole, type StrapiPermission } from './strapi-permissions.ts';
export { STRAPI_VERSION } from './strapi-builtin-schemas.ts';
export { RestoreStore, type RestoreRecord, type RestoreTarget } from './restore-store.ts';
