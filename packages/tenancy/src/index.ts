export * from './project-record.ts';
export { createBus, LocalBus, RedisBus, type Bus, type BusHandler } from './bus.ts';
export { ProjectRegistry, INVALIDATION_CHANNEL, type Invalidation, type LocaleRecord, type RolePermissions, type TenantEntry } from './registry.ts';
export { RuntimeCache, RUNTIME_CACHE_BYTES, runtimeBytes, type ProjectRuntime } from './runtime-cache.ts';
export type { RestRoute } from './rest-routes.ts';
export { tenantSlugFromHost } from './resolve-host.ts';
export { ModelStore, toRawModel, type ModelChange, type ModelVersion, type PushOptions, type PushResult, type PlannedChange } from './model-store.ts';
export { ProjectService, slugFromName, upgradeProjectSchemas, RESTORE_WINDOW_DAYS, type CreateProjectInput, type DeletedProject, type ProjectInitializer } from './projects.ts';
export { SpareSchemas, type SpareSchemaOptions } from './spare-schemas.ts';
export { MemberService, parseProjectRole, INVALID_INVITATION_MESSAGE, INVITATION_LIFETIME_DAYS, LAST_OWNER_MESSAGE, type Invitation, type Member } from './members.ts';
export { LocaleService } from './locales.ts';
export { localeName, normaliseLocaleCode } from './locale-codes.ts';
export { derivedDocumentId, localeDocuments, type LocaleDocument } from './locale-documents.ts';
export {
  ClusterMirror, clusterOf, copyControlRows, listClusters, placeProject, poolOfProjectId, prepareClusters, projectPool, projectTransaction, setClusterState, singleCluster,
  type ClusterPools, type ClusterRow,
} from './clusters.ts';
export { moveProject, type MoveOptions, type MoveReport, type MovePools } from './project-move.ts';
export { EnvironmentService, environmentSchemas, type CopyReport, type EnvironmentRecord, type EnvironmentStatus } from './environments.ts';
