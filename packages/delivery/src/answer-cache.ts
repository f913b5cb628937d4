// Serialized answers of content reads, kept in memory per gateway under a byte budget. An answer
// is reused only for the same project, key (route, query, credential class) and content version,
// and only by a request resolved against the same in-memory project and model objects it was
// computed with (a gateway that has not yet heard of a model or permission change must not file
// what it computed under the new version for the others after it).
//
// Least recently used goes first, by bytes; each project may hold at most its share of the budget
// (by plan), so one busy project evicts its own answers, not everyone's. The recency orders are
// intrusive doubly linked lists (one over every answer, one per project): a hit moves its entry
// in O(1) without touching the maps (a Map's delete and re-insert leaves tombstones that made hits
// of a full cache walk ever longer chains: 99 µs at 20,000 answers).

export interface Answer {
  readonly body: Buffer;
  /** Strong ETag, quoted. */
  readonly etag: string;
  /** The `Surrogate-Key` header's value. */
  readonly surrogateKeys: string;
}

interface Entry {
  readonly projectId: number;
  readonly key: string;
  readonly version: string;
  readonly owners: readonly object[];
  readonly answer: Answer;
  readonly bytes: number;
  // Every answer, least recently used first.
  prev: Entry | null;
  next: Entry | null;
  // The project's answers, least recently used first.
  projectPrev: Entry | null;
  projectNext: Entry | null;
}

interface ProjectEntries {
  bytes: number;
  readonly byKey: Map<string, Entry>;
  oldest: Entry | null;
  newest: Entry | null;
}

export interface AnswerCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

// Map and entry bookkeeping, roughly, on top of the body and the strings.
const ENTRY_OVERHEAD = 320;

export class AnswerCache {
  private readonly projects = new Map<number, ProjectEntries>();
  private oldest: Entry | null = null;
  private newest: Entry | null = null;
  private count = 0;
  private bytes = 0;
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  /** `budgetBytes` 0: nothing is kept. */
  constructor(readonly budgetBytes: number) {}

  get enabled(): boolean {
    return this.budgetBytes > 0;
  }

  /** The answer kept for this key at this version, computed with these same objects; else undefined. */
  get(projectId: number, key: string, version: string, owners: readonly object[]): Answer | undefined {
    const project = this.projects.get(projectId);
    const entry = project?.byKey.get(key);
    if (!entry) {
      this.stats.misses++;
      return undefined;
    }
    if (entry.version !== version || !sameOwners(entry.owners, owners)) {
      // Never valid again (versions only move on): its memory goes now.
      this.remove(entry);
      this.stats.misses++;
      return undefined;
    }
    this.touch(entry, project!);
    this.stats.hits++;
    return entry.answer;
  }

  /**
   * Keep `answer`, computed under `version` (read before the answer was), within the project's
   * `shareBytes`. An answer bigger than the share is not kept.
   */
  set(projectId: number, key: string, version: string, owners: readonly object[], answer: Answer, shareBytes: number): void {
    const bytes = answer.body.length + (key.length + answer.etag.length + answer.surrogateKeys.length) * 2 + ENTRY_OVERHEAD;
    const share = Math.min(shareBytes, this.budgetBytes);
    if (bytes > share) return;
    const existing = this.projects.get(projectId)?.byKey.get(key);
    if (existing) this.remove(existing);
    // Its own answers first, then everyone's least recently used.
    for (let project = this.projects.get(projectId); project && project.bytes + bytes > share; project = this.projects.get(projectId)) {
      this.evict(project.oldest!);
    }
    while (this.bytes + bytes > this.budgetBytes) this.evict(this.oldest!);
    let project = this.projects.get(projectId);
    if (!project) this.projects.set(projectId, (project = { bytes: 0, byKey: new Map(), oldest: null, newest: null }));
    // A small body is a slice of Node's shared 8 KB pool: kept, it would hold the whole slab.
    const body = answer.body.length < 4096 && answer.body.buffer.byteLength > answer.body.length ? copyOut(answer.body) : answer.body;
    const entry: Entry = {
      projectId, key, version, owners, answer: body === answer.body ? answer : { ...answer, body }, bytes,
      prev: null, next: null, projectPrev: null, projectNext: null,
    };
    project.byKey.set(key, entry);
    project.bytes += bytes;
    this.appendGlobal(entry);
    this.appendProject(entry, project);
    this.count++;
    this.bytes += bytes;
  }

  /** Drop a project's answers (its model, settings or permissions changed here; it was deleted). */
  dropProject(projectId: number): void {
    const project = this.projects.get(projectId);
    if (!project) return;
    for (let entry = project.oldest; entry; ) {
      const next = entry.projectNext;
      this.remove(entry);
      entry = next;
    }
  }

  clear(): void {
    this.projects.clear();
    this.oldest = this.newest = null;
    this.count = 0;
    this.bytes = 0;
  }

  snapshot(): AnswerCacheStats {
    return { entries: this.count, bytes: this.bytes, ...this.stats };
  }

  /** The bytes a project's answers take. */
  bytesOf(projectId: number): number {
    return this.projects.get(projectId)?.bytes ?? 0;
  }

  private evict(entry: Entry): void {
    this.remove(entry);
    this.stats.evictions++;
  }

  private remove(entry: Entry): void {
    const project = this.projects.get(entry.projectId);
    if (!project || project.byKey.get(entry.key) !== entry) return;
    project.byKey.delete(entry.key);
    project.bytes -= entry.bytes;
    this.unlinkGlobal(entry);
    this.unlinkProject(entry, project);
    if (project.byKey.size === 0) this.projects.delete(entry.projectId);
    this.count--;
    this.bytes -= entry.bytes;
  }

  /** Most recently used now: to the end of both orders. */
  private touch(entry: Entry, project: ProjectEntries): void {
    if (this.newest !== entry) {
      this.unlinkGlobal(entry);
      this.appendGlobal(entry);
    }
    if (project.newest !== entry) {
      this.unlinkProject(entry, project);
      this.appendProject(entry, project);
    }
  }

  private appendGlobal(entry: Entry): void {
    entry.prev = this.newest;
    entry.next = null;
    if (this.newest) this.newest.next = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlinkGlobal(entry: Entry): void {
    if (entry.prev) entry.prev.next = entry.next;
    else this.oldest = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.newest = entry.prev;
    entry.prev = entry.next = null;
  }

  private appendProject(entry: Entry, project: ProjectEntries): void {
    entry.projectPrev = project.newest;
    entry.projectNext = null;
    if (project.newest) project.newest.projectNext = entry;
    else project.oldest = entry;
    project.newest = entry;
  }

  private unlinkProject(entry: Entry, project: ProjectEntries): void {
    if (entry.projectPrev) entry.projectPrev.projectNext = entry.projectNext;
    else project.oldest = entry.projectNext;
    if (entry.projectNext) entry.projectNext.projectPrev = entry.projectPrev;
    else project.newest = entry.projectPrev;
    entry.projectPrev = entry.projectNext = null;
  }
}

function copyOut(body: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(body.length);
  body.copy(own);
  return own;
}

function sameOwners(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
