// How much a project may upload: the largest file and the bytes all its files may take, each the
// plan's limit or the operator's cap, whichever is lower. The content API's upload routes
// (tenant/) and the management API's imports (management/) both keep to them.
import { effectivePlan, planLimits } from '@cms/billing';
import { storageQuotaError, type StorageQuota } from '@cms/media';
import type { TenantEntry } from '@cms/tenancy';
import type { Platform } from './platform.ts';

/** Files larger than this are refused; `plan` when the limit is the project's plan's. */
export interface FileSizeLimit {
  bytes: number;
  plan?: string;
}

/** The largest file the project may upload: its plan's, or the operator's cap when lower. */
export function maxUploadBytes(platform: Platform, tenant: TenantEntry): FileSizeLimit {
  const plan = effectivePlan(tenant.project);
  const planBytes = planLimits(plan).maxUploadBytes;
  const cap = platform.config.media.maxUploadBytes;
  return cap !== undefined && cap < planBytes ? { bytes: cap } : { bytes: planBytes, plan };
}

/** Bytes the project's files may take: the plan's quota when plan limits are on, the operator's cap. */
export function storageQuota(platform: Platform, tenant: TenantEntry): StorageQuota | undefined {
  const cap = platform.config.media.storageQuotaBytes;
  if (!platform.config.limits.plans) return cap === undefined ? undefined : { bytes: cap };
  const plan = effectivePlan(tenant.project);
  const planBytes = planLimits(plan).storageBytes;
  return cap !== undefined && cap < planBytes ? { bytes: cap } : { bytes: planBytes, plan };
}

/**
 * A project already at its quota is refused before any byte is stored (reads and deletes keep
 * working). Returns the bytes its files take (0 without a quota).
 */
export async function checkQuota(platform: Platform, schema: string, quota: StorageQuota | undefined): Promise<number> {
  if (quota === undefined) return 0;
  const used = await platform.media.storedBytes(platform.db.tenantPool, schema);
  if (used >= quota.bytes) throw storageQuotaError(used, quota);
  return used;
}
