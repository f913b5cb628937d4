// Which of a project's document events a live stream shows, whatever its transport (the SSE
// stream of live-route.ts, GraphQL subscriptions of graphql-socket.ts): its types (those the
// credential may `find`), its locale and its publication status.
import type { LiveEvent } from '@cms/live';
import type { Model } from '@cms/schema';

export interface LiveScope {
  uids: ReadonlySet<string>;
  /** null: every locale */
  locale: string | null;
  status: 'published' | 'draft';
}

export function acceptsOf(model: Model, wanted: LiveScope): (event: LiveEvent) => boolean {
  const hasDrafts = (uid: string) => model.contentTypes[uid]?.draftAndPublish === true;
  return (event) => {
    if (!wanted.uids.has(event.uid)) return false;
    if (wanted.locale !== null && event.locale !== null && event.locale !== wanted.locale) return false;
    // A published stream learns of publications, of documents without drafts changing, and of
    // what leaves the published content; a draft stream of draft changes, deletions, and
    // publications and unpublications (an editor's view of a document's state).
    if (!hasDrafts(event.uid) || event.event === 'entry.delete' || event.event === 'entry.unpublish') return true;
    if (wanted.status === 'published') return event.status === 'published';
    return event.status === 'draft' || event.event === 'entry.publish';
  };
}
