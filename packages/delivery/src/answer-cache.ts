// Serialized answers of content reads, kept in memory per gateway under a byte budget. An answer
// is reused only for the same project, key (route, query, credential class) and content version,
// and only by a request resolved against the same in-memory project and model objects it was
// computed with (a gateway that has not yet heard of a model or permission change must not file
// what it computed under the new version for the others after it).
//
// Least recently used goes first, by bytes; each project may hold at most its share of the budget
// (by plan), so one busy project evicts its own answers, not everyone's.

export interface Answer {
  readonly body: Buffer;
  /** Strong ETag, quoted. */
  readonly etag: string;
  /** The `Surrogate-Key` header's value. */
  readonly surrogateKeys: string;
}

interface Entry {
  readonly projectId: number;
  readonly fullKey: string;
  readonly key: string;
  readonly version: string;
  readonly owners: readonly object[];
  readonly answer: Answer;
  readonly bytes: number;
}

interface ProjectEntries {
  bytes: number;
  /** By key, least recently used first. */
  readonly entries: Map<string, Entry>;
}

export interface AnswerCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

// Map and entry bookkeeping, roughly, on top of the body and the key.
const ENTRY_OVERHEAD = 240;

export class AnswerCache {
  /** Every entry, least recently used first. */
  private readonly lru = new Map<string, Entry>();
  private readonly projects = new Map<number, ProjectEntries>();
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
    const entry = project?.entries.get(key);
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
    // Most recently used: to the end of both orders.
    this.lru.delete(entry.fullKey);
    this.lru.set(entry.fullKey, entry);
    project!.entries.delete(key);
    project!.entries.set(key, entry);
    this.stats.hits++;
    return entry.answer;
  }

  /**
   * Keep `answer`, computed under `version` (read before the answer was), within the project's
   * `shareBytes`. An answer bigger than the share is not kept.
   */
  set(projectId: number, key: string, version: string, owners: readonly object[], answer: Answer, shareBytes: number): void {
    const bytes = answer.body.length + key.length * 2 + ENTRY_OVERHEAD;
    const share = Math.min(shareBytes, this.budgetBytes);
    if (bytes > share) return;
    const existing = this.projects.get(projectId)?.entries.get(key);
    if (existing) this.remove(existing);
    // Its own answers first, then everyone's least recently used.
    let project = this.projects.get(projectId);
    while (project && project.bytes + bytes > share) {
      this.evict(project.entries.values().next().value!);
      project = this.projects.get(projectId);
    }
    while (this.bytes + bytes > this.budgetBytes) this.evict(this.lru.values().next().value!);
    project = this.projects.get(projectId);
    if (!project) this.projects.set(projectId, (project = { bytes: 0, entries: new Map() }));
    const entry: Entry = { projectId, fullKey: `${projectId}\n${key}`, key, version, owners, answer, bytes };
    project.entries.set(key, entry);
    project.bytes += bytes;
    this.lru.set(entry.fullKey, entry);
    this.bytes += bytes;
  }

  /** Drop a project's answers (its model, settings or permissions changed here; it was deleted). */
  dropProject(projectId: number): void {
    const project = this.projects.get(projectId);
    if (!project) return;
    for (const entry of [...project.entries.values()]) this.remove(entry);
  }

  clear(): void {
    this.lru.clear();
    this.projects.clear();
    this.bytes = 0;
  }

  snapshot(): AnswerCacheStats {
    return { entries: this.lru.size, bytes: this.bytes, ...this.stats };
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
    if (!this.lru.delete(entry.fullKey)) return;
    this.bytes -= entry.bytes;
    const project = this.projects.get(entry.projectId)!;
    project.entries.delete(entry.key);
    project.bytes -= entry.bytes;
    if (project.entries.size === 0) this.projects.delete(entry.projectId);
  }
}

function sameOwners(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
