// A project's storage quota (its plan's `storageBytes`, or the operator's cap): an upload that
// would take the project's files over it is refused whole, before anything is recorded.
import { PayloadTooLargeError } from '@cms/errors';

export interface StorageQuota {
  bytes: number;
  /** Set when the quota is the project's plan's (rather than the operator's cap): named in the refusal. */
  plan?: string;
}

export function storageQuotaError(usedBytes: number, quota: StorageQuota): PayloadTooLargeError {
  if (quota.plan !== undefined) {
    return new PayloadTooLargeError(
      `This upload would take the project's files over the ${quota.bytes}-byte storage quota of its ${quota.plan} plan (${usedBytes} bytes are used)`,
      { storageQuotaBytes: quota.bytes, usedBytes, limit: 'storageBytes', plan: quota.plan },
    );
  }
  return new PayloadTooLargeError(
    `This upload would take the project's files over its storage quota of ${quota.bytes} bytes (${usedBytes} bytes are used)`,
    { storageQuotaBytes: quota.bytes, usedBytes },
  );
}

/** Throw when `addingBytes` more would pass the quota. */
export function assertWithinQuota(usedBytes: number, addingBytes: number, quota: StorageQuota): void {
  if (usedBytes + addingBytes > quota.bytes) throw storageQuotaError(usedBytes, quota);
}
