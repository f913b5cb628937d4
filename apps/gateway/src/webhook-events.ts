// The webhook events of content, media and release writes, written to the outbox inside the
// write's own transaction (@cms/webhooks), and the document events of the live stream's log (@cms/live). Payloads are Strapi 5's: `entry` is the version written
// as the content API returns it (no populate), `media` the file as the upload API returns it,
// `release` the release as the management API returns it.
import { insertAuditEntry } from '@cms/audit';
import type { Db } from '@cms/db';
import type { DocumentStore } from '@cms/documents';
import { planQuery, runFindOne, UPLOAD_FILE_UID, USERS_UID } from '@cms/query';
import type { ProjectRuntime } from '@cms/tenancy';
import { liveEventsStatement } from '@cms/live';
import { entryPayload, mediaPayload, releasePayload, type MediaEvent, type ReleasePublishEvent } from '@cms/webhooks';
import type { Platform } from './platform.ts';
import { noteDocumentChange, noteProjectChange, noteUnsequencedEvents, positionedLiveEvents } from './change-notes.ts';
import { pluginRowsJson, REST_LIMITS } from './tenant/rest-targets.ts';
import type { AuditWho } from './audit/audit-context.ts';

interface ProjectRef {
  id: number;
  defaultLocale: string;
}

/** The `emit` hook of a project's DocumentStore; `who` made the change (the audit log's actor). */
export function documentEvents(platform: Platform, project: ProjectRef, runtime: ProjectRuntime, who: AuditWho): NonNullable<DocumentStore['emit']> {
  return async (tx, evs, committing) => {
    const { actor, ip, userAgent } = who();
    // The audit log's entries of the change, in its transaction (nothing recorded for a
    // rolled-back write), carried with the live log's rows by the write's last statement (with
    // its history versions and its answer's read: one round trip for all of them).
    const audited = platform.audit.carried(project.id, evs.map((ev) => ({
      action: ev.event, actor, ip, userAgent,
      payload: { uid: ev.uid, documentId: ev.documentId, locale: ev.locale, status: ev.status, ...(ev.fields ? { fields: ev.fields } : {}) },
    })));
    // As Strapi: no webhooks for end users (their data would leave the platform), nor live events.
    const streamed = evs.filter((ev) => ev.uid !== USERS_UID);
    for (const ev of evs) noteDocumentChange(ev.uid, ev.documentId);
    for (const ev of streamed) {
      await platform.webhooks.emit(tx, project.id, ev.event, async () => {
        const type = runtime.model.contentTypes[ev.uid];
        if (!type) return null;
        const read = (locale: string) => runFindOne(tx, planQuery({ sort: [] }, {
          model: runtime.model, physical: runtime.physical, uid: ev.uid, schema: runtime.schemaName,
          locale, status: ev.status, canFind: () => false, ...REST_LIMITS,
        }), ev.documentId);
        const json = (await read(ev.locale ?? project.defaultLocale)) ?? (type.localized ? await read('*') : null);
        return entryPayload(ev.event, type.singularName, ev.uid, json === null ? { documentId: ev.documentId } : JSON.parse(json));
      });
    }
    // The live stream's log, in the write's transaction: positioned there when the statement
    // carrying it commits the write (handed to the request, published before its answer), else
    // after the commit (live/live-hub.ts).
    const positioned = committing ? positionedLiveEvents() : undefined;
    if (!positioned && streamed.length > 0) noteUnsequencedEvents();
    const live = liveEventsStatement(runtime.schemaName, streamed, positioned);
    return live ? [live, audited] : [audited];
  };
}

/** The `emitRelease` hook of a release's publish (@cms/releases): `releases.publish`, in its transaction. */
export function releaseEvents(platform: Platform, project: { id: number }): (tx: Db, event: ReleasePublishEvent) => Promise<void> {
  return (tx, ev) => platform.webhooks.emit(tx, project.id, 'releases.publish', async () => releasePayload(ev));
}

/** Everything may be read: the payload is the file as stored, not as some caller may see it. */
const EVERYTHING = { key: 'webhooks', can: () => true };

/** Write the media events of `fileIds` (read in `tx`, or the `files` given, for a delete) in transaction `tx`. */
export async function emitMediaEvents(
  platform: Platform, tx: Db, projectId: number, runtime: ProjectRuntime, event: MediaEvent, fileIds: readonly string[], who: AuditWho,
  files?: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  if (fileIds.length === 0) return;
  noteProjectChange();
  const { actor, ip, userAgent } = who();
  await insertAuditEntry(tx, { projectId, accountId: null }, { action: event, actor, ip, userAgent, payload: { fileIds: fileIds.slice(0, 50) } });
  let read = files;
  for (let i = 0; i < fileIds.length; i++) {
    await platform.webhooks.emit(tx, projectId, event, async () => {
      read ??= await filesJson(tx, runtime, fileIds);
      const file = read.find((f) => String(f.id) === String(fileIds[i]));
      return file ? mediaPayload(event, file) : null;
    });
  }
}

/** Files by id as the upload API returns them. */
export async function filesJson(db: Db, runtime: ProjectRuntime, fileIds: readonly string[]): Promise<Array<Record<string, unknown>>> {
  const files = JSON.parse(await pluginRowsJson(db, runtime, EVERYTHING, UPLOAD_FILE_UID, fileIds)) as Array<Record<string, unknown>>;
  return files.map((f) => ({ ...f, isUrlSigned: false }));
}
