// `Surrogate-Key` values: `p:{projectId}` for every answer, `t:{uid}` for each content type the
// answer reads, `d:{documentId}` for each document in it, populated ones included. A change
// purges `t:{its type} d:{its document}` (a new or changed document may enter any list of its
// type); a model, permission or settings change purges `p:{projectId}`.

// Fastly reads at most 16 KB of keys; CloudFront ignores them. Past this, the document keys are
// left out: the type keys (populated types included) still cover every document of the answer.
const MAX_HEADER = 8_000;
const DOCUMENT_ID = /"documentId":"([^"\\]{1,64})"/g;

export const projectKey = (projectId: number): string => `p:${projectId}`;
export const typeKey = (uid: string): string => `t:${uid}`;
export const documentKey = (documentId: string): string => `d:${documentId}`;

/** The keys of an answer whose JSON text is `json`, reading the types `uids`. */
export function surrogateKeysOf(projectId: number, uids: Iterable<string>, json: string): string {
  const keys = new Set<string>([projectKey(projectId)]);
  for (const uid of uids) keys.add(typeKey(uid));
  let header = [...keys].join(' ');
  for (const match of json.matchAll(DOCUMENT_ID)) {
    const key = documentKey(match[1]!);
    if (keys.has(key)) continue;
    if (header.length + key.length + 1 > MAX_HEADER) break;
    keys.add(key);
    header += ` ${key}`;
  }
  return header;
}

/** The keys a change of these documents purges. */
export function changeKeys(changes: Iterable<{ uid: string; documentId: string }>): string[] {
  const keys = new Set<string>();
  for (const c of changes) {
    keys.add(typeKey(c.uid));
    keys.add(documentKey(c.documentId));
  }
  return [...keys];
}
