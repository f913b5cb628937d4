// An upload's `ref`/`refId`/`field`: the entry whose media attribute the new files are attached
// to, checked before any file is recorded and linked inside the transaction that records them.
import type { Db } from '@cms/db';
import { positiveId, recordVersionOfRow } from '@cms/documents';
import { ForbiddenError, ValidationError } from '@cms/errors';
import { linkFilesToEntry, type EntryMediaField } from '@cms/media';
import type { UploadContext } from './upload-context.ts';

/** Attaches the recorded files (their ids) to the entry, in transaction `tx`. */
export type LinkFiles = (tx: Db, fileIds: string[]) => Promise<void>;

/** The link the upload's fields ask for; undefined when they name no entry. */
export function linkTarget(ctx: UploadContext, fields: Record<string, string>): LinkFiles | undefined {
  const { ref, refId, field } = fields;
  if (ref === undefined && refId === undefined && field === undefined) return undefined;
  if (ref === undefined || refId === undefined || field === undefined) throw new ValidationError('ref, refId and field must be given together');
  const { model, physical } = ctx.runtime;
  const type = Object.hasOwn(model.contentTypes, ref) ? model.contentTypes[ref] : undefined;
  const attr = type && Object.hasOwn(type.attributes, field) ? type.attributes[field] : undefined;
  const phys = attr ? physical.contentTypes[ref]!.attributes[field] : undefined;
  if (!type || !attr || attr.kind !== 'media' || phys?.kind !== 'media') throw new ValidationError(`${ref}.${field} is not a media field`.slice(0, 300));
  const rowId = positiveId(refId);
  if (!rowId) throw new ValidationError('refId must be the numeric id of an entry');
  // Attaching files changes the entry, which the caller must be allowed to do.
  if (!ctx.access.can(ref, 'update')) throw new ForbiddenError();
  const media: EntryMediaField = {
    table: physical.contentTypes[ref]!.table, linkTable: phys.linkTable, localized: attr.localized, multiple: attr.multiple,
  };
  return async (tx, fileIds) => {
    const linked = await linkFilesToEntry(tx, ctx.project.schema, media, rowId, fileIds);
    if (linked === 0) throw new ValidationError(`No ${ref} entry has id ${rowId}`);
    // The entry changed: its version, in the same transaction.
    await recordVersionOfRow({ tx, schema: ctx.project.schema, model, physical, defaultLocale: ctx.tenant.project.defaultLocale }, ctx.history, ref, rowId);
  };
}
