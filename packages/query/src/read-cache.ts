// The compiled reads of every project, in one bounded LRU shared by all of them. REST content
// reads, media files, end users and GraphQL's root fields all read through it.
//
// Two tiers, one policy (one LRU, one bound):
// - by shape: the key is the request's query with its values replaced by their class
//   (query-shape.ts), so requests that differ only in filter values, `_q` terms, page numbers,
//   documentIds or locales share one plan and its rendered SQL; each request's own values are cast
//   by the slots planning recorded and bound when the statement runs;
// - by exact text (the REST query string, a GraphQL field with its variables): a repeat of the
//   same request skips even parsing, as a plain string lookup did before shapes were shared.
// Every key starts with the project id and model version: a read of one project is never run
// for another. A model change drops the project's entries (`dropProject`).
import { LRUCache } from 'lru-cache';
import { ReadStatements, type CompiledRead } from './compiled-read.ts';
import { Binder, castValues, type Slot } from './plan-values.ts';
import type { QueryShape } from './query-shape.ts';
import type { QueryPlan } from './query-plan.ts';

export interface ReadRequest<T> {
  /**
   * Everything besides the query the SQL depends on: the caller's permission key (`Access.key`),
   * the kind of read, the limits, the default locale…
   */
  context: string;
  /** The request's own text; absent: no exact tier (the query is built by the server). */
  exact?: string;
  /** Parses the request into its shape (a malformed request fails here, as it always did). */
  shape(): QueryShape<T>;
  /** Plans a shape seen for the first time, from its template; values are read through `binder`. */
  plan(template: T, binder: Binder): QueryPlan;
}

type Entry =
  | { projectId: number; kind: 'shape'; statements: ReadStatements; slots: readonly Slot[] }
  | { projectId: number; kind: 'read'; read: CompiledRead };

export class ReadCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Keys per project, so a model change drops them without scanning the others'. */
  private readonly keysOf = new Map<number, Set<string>>();

  constructor(max: number) {
    this.entries = new LRUCache<string, Entry>({ max, dispose: (entry, key) => this.forget(entry.projectId, key) });
  }

  /** The reads of one project's model version. */
  project(projectId: number, modelVersion: number): ProjectReads {
    return new ProjectReads(this, projectId, `${projectId}@${modelVersion}\n`);
  }

  /** Forget every read of a project (its model changed). */
  dropProject(projectId: number): void {
    const keys = this.keysOf.get(projectId);
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
    this.keysOf.delete(projectId);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Compiled shapes and exact-text reads held for a project (metrics, tests). */
  countOf(projectId: number): { shapes: number; reads: number } {
    const counts = { shapes: 0, reads: 0 };
    for (const key of this.keysOf.get(projectId) ?? []) {
      const entry = this.entries.peek(key);
      if (entry?.kind === 'shape') counts.shapes++;
      else if (entry) counts.reads++;
    }
    return counts;
  }

  /** Every key held (tests: each starts with its project's id). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** @internal ProjectReads' exact-text lookup, under the project's key prefix. */
  cached<T>(prefix: string, request: ReadRequest<T>): CompiledRead | undefined {
    if (request.exact === undefined) return undefined;
    const hit = this.entries.get(`${prefix}${request.context}\n=${request.exact}`);
    return hit?.kind === 'read' ? hit.read : undefined;
  }

  /** @internal ProjectReads' shape lookup (planning a new shape), keeping the read under its exact text. */
  compile<T>(projectId: number, prefix: string, request: ReadRequest<T>): CompiledRead {
    const base = `${prefix}${request.context}\n`;
    const shape = request.shape();
    const shapeKey = `${base}~${shape.key}`;
    const compiled = this.entries.get(shapeKey);
    let read: CompiledRead;
    if (compiled?.kind === 'shape') {
      read = compiled.statements.bind(castValues(compiled.slots, shape.values));
    } else {
      const binder = new Binder(shape.values);
      const plan = request.plan(shape.template, binder);
      const statements = new ReadStatements(plan);
      this.set(shapeKey, { projectId, kind: 'shape', statements, slots: binder.slots });
      read = statements.bind(plan.values);
    }
    if (request.exact !== undefined) this.set(`${base}=${request.exact}`, { projectId, kind: 'read', read });
    return read;
  }

  private set(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    let keys = this.keysOf.get(entry.projectId);
    if (!keys) this.keysOf.set(entry.projectId, (keys = new Set()));
    keys.add(key);
  }

  private forget(projectId: number, key: string): void {
    const keys = this.keysOf.get(projectId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.keysOf.delete(projectId);
  }
}

/** One project's model version's view of the read cache (`ProjectRuntime.reads`). */
export class ProjectReads {
  constructor(private readonly cache: ReadCache, readonly projectId: number, private readonly prefix: string) {}

  /** The compiled read of a request: from the cache, else parsed, planned and kept. */
  read<T>(request: ReadRequest<T>): CompiledRead {
    return this.cached(request) ?? this.compile(request);
  }

  /** The read kept for the request's exact text, if any (no parsing). */
  cached<T>(request: ReadRequest<T>): CompiledRead | undefined {
    return this.cache.cached(this.prefix, request);
  }

  /** The request parsed: its shape's read with its values bound (planned if the shape is new), then kept. */
  compile<T>(request: ReadRequest<T>): CompiledRead {
    return this.cache.compile(this.projectId, this.prefix, request);
  }
}
