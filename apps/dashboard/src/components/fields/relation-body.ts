// The Strapi v5 write of a relation attribute, from the items it had when the form was loaded and
// the items it has now. Pure: the content manager's form builds its write body with it.

export interface RelationItem {
  documentId: string;
  label: string;
  status?: 'draft' | 'published' | 'modified';
}

type Position = { start: true } | { end: true } | { after: string };
interface ConnectItem { documentId: string; position: Position }

const sameOrder = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * `undefined` when nothing changed (the caller leaves the key out, so links made meanwhile by
 * someone else survive). To-one: `{set: [item]}` or `{set: []}`. To-many: `disconnect` the removed
 * items and `connect` the others with a position. The API keeps a connected item that is already
 * linked where it is when its position is `end`, so moves are written with anchors: when the kept
 * items are still in their stored order only the new ones are placed (each after the item before
 * it, or first, or at the end); otherwise every item is placed, the first at the start and each
 * next one after the previous, which gives exactly the form's order.
 */
export function relationBody(initial: RelationItem[], current: RelationItem[], multiple: boolean): unknown {
  const before = unique(initial.map((i) => i.documentId));
  const now = unique(current.map((i) => i.documentId));
  if (sameOrder(before, now)) return undefined;
  if (!multiple) return { set: now.slice(-1).map((documentId) => ({ documentId })) };

  const removed = before.filter((id) => !now.includes(id));
  const keptBefore = before.filter((id) => now.includes(id));
  const keptNow = now.filter((id) => before.includes(id));
  const placeAll = !sameOrder(keptBefore, keptNow);
  // Items after the last kept one are appended: `end` reads better than a chain of anchors.
  const lastKept = Math.max(-1, ...keptNow.map((id) => now.indexOf(id)));
  const connect: ConnectItem[] = [];
  now.forEach((documentId, i) => {
    if (!placeAll && before.includes(documentId)) return;
    const position: Position = placeAll ? (i === 0 ? { start: true } : { after: now[i - 1]! })
      : i > lastKept ? { end: true } : i === 0 ? { start: true } : { after: now[i - 1]! };
    connect.push({ documentId, position });
  });
  return {
    ...(removed.length > 0 ? { disconnect: removed.map((documentId) => ({ documentId })) } : {}),
    ...(connect.length > 0 ? { connect } : {}),
  };
}

/** The first occurrence of each id (a list never links a document twice). */
function unique(ids: string[]): string[] {
  return ids.filter((id, i) => ids.indexOf(id) === i);
}
