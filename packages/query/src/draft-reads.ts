// Who may read unpublished content. A project's `draftAccess` setting: `find` (Strapi's rule:
// whoever may find a type reads its drafts) or `preview` (drafts only with the type's `preview`
// action). A draft read is `status=draft` on a type with draft & publish, or a release preview.
import type { Model } from '@cms/schema';

export type DraftAccess = 'find' | 'preview';

const hasDrafts = (model: Model, uid: string): boolean => Object.hasOwn(model.contentTypes, uid) && model.contentTypes[uid]!.draftAndPublish;

/**
 * The `canFind` of a draft read under `preview`: relations to draft & publish types the caller may
 * not preview are as unfindable as types it may not find (left out of populate, refused in
 * filters and sorts), so their drafts never show through another type's read.
 */
export function draftReadFinder(model: Model, can: (uid: string, action: string) => boolean): (uid: string) => boolean {
  return (uid) => can(uid, 'find') && (!hasDrafts(model, uid) || can(uid, 'preview'));
}

/**
 * May the caller read unpublished content of `uid` (its `find` or `findOne` already granted)?
 * Under `find`, yes; under `preview`, with the type's `preview` action only. Types without draft
 * & publish have no drafts: a draft status reads their rows as any read does.
 */
export function mayReadDrafts(model: Model, draftAccess: DraftAccess, can: (uid: string, action: string) => boolean, uid: string): boolean {
  return draftAccess === 'find' || !hasDrafts(model, uid) || can(uid, 'preview');
}
