// A project's storage quota (its plan's `storageBytes`, or the operator's cap): an upload that
// would take the project's files over it is refused whole, before anything is recorded.
import { PayloadTooLargeError } from '@cms/errors';

export function storageQuotaError(usedBytes: number, quotaBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `This upload would take the project's files over its storage quota of ${quotaBytes} bytes (${usedBytes} bytes are used)`,
    { storageQuotaBytes: quotaBytes, usedBytes },
  );
}

/** Throw when `addingBytes` more would pass `quotaBytes`. */
export function assertWithinQuota(usedBytes: number, addingBytes: number, quotaBytes: number): void {
  if (usedBytes + addingBytes > quotaBytes) throw storageQuotaError(usedBytes, quotaBytes);
}
