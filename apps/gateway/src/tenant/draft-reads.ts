// Reads of unpublished content through the REST content API: `status=draft` and release previews
// (`?release={id}`). The project's `draftAccess` (docs/preview.md) decides who may; GraphQL asks
// the same of @cms/query through its resolvers (`requireDraftAccess`).
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { mayReadDrafts, releaseIdOf } from '@cms/query';
import { releaseExists } from '@cms/releases';
import type { Platform } from '../platform.ts';
import { previewSettingsOf } from '../preview-settings.ts';
import type { RouteContext } from './rest-targets.ts';

/** Does the request read unpublished content? (Two property reads: published reads pay nothing more.) */
export const isDraftRead = (query: Record<string, unknown>): boolean => query.status === 'draft' || query.release !== undefined;

/**
 * A draft read, after the route's own `find`/`findOne` check: 403 unless the project's rule lets
 * the caller read the type's drafts, 404 for a release the project does not have. Answers whether
 * the read is planned under `draftAccess: "preview"` (it then reaches only what the caller may
 * preview: @cms/query `draftReadFinder`).
 */
export async function admitDraftRead(platform: Pick<Platform, 'db'>, ctx: RouteContext, query: Record<string, unknown>): Promise<boolean> {
  const { draftAccess } = previewSettingsOf(ctx.tenant.project.settings);
  if (!mayReadDrafts(ctx.runtime.model, draftAccess, (uid, action) => ctx.access.can(uid, action), ctx.target.type.uid)) throw new ForbiddenError();
  // Not a string: the query's parser answers 400.
  if (typeof query.release === 'string' && !(await releaseExists(platform.db.tenantPool, ctx.runtime.schemaName, releaseIdOf(query.release)))) {
    throw new NotFoundError('Release not found');
  }
  return draftAccess === 'preview';
}
