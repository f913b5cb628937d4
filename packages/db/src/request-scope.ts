// The database side of one project API request: whose share of the pool its statements count
// against, its plan's statement timeout, and whether its client went away. It travels in
// AsyncLocalStorage, so every statement the request makes on the shared pool — whichever package
// issues it (REST, GraphQL, upload, users, auth) — is scoped without passing a handle down.
import { AsyncLocalStorage } from 'node:async_hooks';
import { CONTROL_CLUSTER } from '@cms/config';
import type { ProjectShare } from './fair-share.ts';

/** What a scope's owner (the Database that made it) does when the request's client goes away. */
export interface ScopeOwner {
  abort(scope: DbScope): void;
}

/** One request's scope: the only object the fair share allocates per request. */
export class DbScope {
  /** Transactions (or explicit connections) of this request holding a connection right now. */
  pinned = 0;
  /** The client went away: running statements were cancelled and new ones are refused. */
  aborted = false;
  /**
   * A transaction of this request committed: its client must learn what was written, so its
   * further statements (the answer read back) wait their turn in the project's queue but are
   * never refused for waiting long (fair-share.ts).
   */
  committed = false;

  /**
   * `cluster`: the Postgres cluster holding the project's schema, whose pool the request's tenant
   * statements go to (routing-pool.ts); set again when the request reruns on a reloaded project.
   */
  constructor(readonly owner: ScopeOwner, readonly share: ProjectShare, readonly statementTimeoutMs: number, public cluster = CONTROL_CLUSTER) {}

  /** The request's client went away: cancel what runs, refuse what waits (once). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.owner.abort(this);
  }
}

const storage = new AsyncLocalStorage<DbScope>();

/** The scope of the request being served, if any (none: control plane, jobs, start-up). */
export function currentScope(): DbScope | undefined {
  return storage.getStore();
}

/** Run `fn` (and everything it starts) in `scope`. */
export function runInScope(scope: DbScope, fn: () => void): void {
  storage.run(scope, fn);
}

/**
 * Run `fn` outside any request's scope: work several requests share (a single-flight load of a
 * project or its model) or that outlives the request (a background job) must neither count against
 * the request that happened to start it nor be cancelled when that request's client goes away.
 */
export function detached<T>(fn: () => T): T {
  return storage.exit(fn);
}
