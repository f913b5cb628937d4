export * from './project-record.ts';
export { createBus, LocalBus, RedisBus, type Bus, type BusHandler } from './bus.ts';
export { ProjectRegistry, INVALIDATION_CHANNEL, type Invalidation, type LocaleRecord, type RolePermissions, type TenantEntry } from './registry.ts';
export { RuntimeCache, type ProjectRuntime } from './runtime-cache.ts';
export { tenantSlugFromHost } from './resolve-host.ts';
export { ModelStore, toRawModel, type ModelVersion, type PushOptions, type PushResult } from './model-store.ts';
export { ProjectService, slugFromName, upgradeProjectSchemas, type CreateProjectInput, type ProjectInitializer } from './projects.ts';
export { LocaleService } from './locales.ts';
export { localeName, normaliseLocaleCode } from './locale-codes.ts';
