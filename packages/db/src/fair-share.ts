// Per-project concurrency on the shared pool. A project holds at most `limit` of its connections
// at once; its further statements wait in the project's own FIFO while other projects' go straight
// to the pool, so one project's slow queries take at most its share. Under the limit a statement
// costs a counter check (no allocation, no promise); only a waiting statement allocates its
// place in the queue. Waiting is bounded: past `queueTimeoutMs` it is refused with 503 — except
// for a request that has committed a write, whose answer (the written document read back) must
// reach its client: a 503 there would tell it to send the write again. It waits its turn.
import { ClientClosedRequestError, ProjectBusyError } from '@cms/errors';

/** What the share needs of a request's scope (request-scope.ts's DbScope). */
export interface ShareRequest {
  readonly share: ProjectShare;
  /** Transactions of the request holding a connection right now. */
  readonly pinned: number;
  /** A transaction of the request committed: it waits without a deadline. */
  readonly committed: boolean;
}

interface Waiter {
  scope: ShareRequest;
  resolve: () => void;
  reject: (err: Error) => void;
  /** Its refusal past the queue timeout (none for a request that has committed a write). */
  timer: NodeJS.Timeout | null;
  next: Waiter | null;
  /** Granted, timed out or abandoned: skipped when the queue is served (removed lazily). */
  settled: boolean;
}

/** One project's connections in use and statements waiting for one. */
export class ProjectShare {
  /**
   * What its single-statement reads rank the idle connections by (sessions.ts takeIdle): the
   * project's id, so each project keeps to a few connections of the pool.
   */
  constructor(readonly home = 0) {}
  held = 0;
  waiting = 0;
  head: Waiter | null = null;
  tail: Waiter | null = null;
  /** Sweeps that found it idle in a row (two: forgotten). */
  idleSweeps = 0;
}

// Idle projects are forgotten after two sweeps without use.
const SWEEP_MS = 60_000;

export class FairShare {
  private readonly projects = new Map<number, ProjectShare>();
  private readonly sweeper: NodeJS.Timeout;

  /** `limit`: connections one project may hold at once; `queueTimeoutMs`: longest wait for one. */
  constructor(readonly limit: number, readonly queueTimeoutMs: number) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** The share of project `id` (made on its first request). */
  project(id: number): ProjectShare {
    let share = this.projects.get(id);
    if (share === undefined) this.projects.set(id, (share = new ProjectShare(id)));
    share.idleSweeps = 0;
    return share;
  }

  /**
   * Take one of the project's connections for a statement (or a transaction) of `scope`: null when
   * granted at once, else a promise that resolves when granted or rejects with 503 / 499.
   */
  acquire(scope: ShareRequest): Promise<void> | null {
    const share = scope.share;
    // Inside one of its transactions a request never waits for its own project: it would hold the
    // transaction's connection while waiting for itself (a deadlock at a limit of one).
    if (share.held < this.limit || scope.pinned > 0) {
      share.held++;
      return null;
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { scope, resolve, reject, timer: null, next: null, settled: false };
      if (!scope.committed) waiter.timer = setTimeout(() => this.expire(share, waiter), this.queueTimeoutMs);
      if (share.tail) share.tail.next = waiter;
      else share.head = waiter;
      share.tail = waiter;
      share.waiting++;
    });
  }

  /** Give a connection back: to the project's next waiting statement, else to the pool. */
  release(share: ProjectShare): void {
    for (let waiter = share.head; waiter !== null; waiter = share.head) {
      share.head = waiter.next;
      if (share.head === null) share.tail = null;
      if (waiter.settled) continue;
      // Handed over: `held` stays as it is.
      this.settle(share, waiter);
      waiter.resolve();
      return;
    }
    share.held--;
  }

  /** Refuse the waiting statements of a request whose client went away. */
  abandon(scope: ShareRequest): void {
    const share = scope.share;
    for (let waiter = share.head; waiter !== null; waiter = waiter.next) {
      if (waiter.settled || waiter.scope !== scope) continue;
      this.settle(share, waiter);
      waiter.reject(new ClientClosedRequestError());
    }
  }

  /** Connections held and statements waiting, for one project (tests, metrics). */
  usage(id: number): { held: number; waiting: number } {
    const share = this.projects.get(id);
    return { held: share?.held ?? 0, waiting: share?.waiting ?? 0 };
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private expire(share: ProjectShare, waiter: Waiter): void {
    if (waiter.settled) return;
    this.settle(share, waiter);
    waiter.reject(new ProjectBusyError(1));
  }

  private settle(share: ProjectShare, waiter: Waiter): void {
    waiter.settled = true;
    if (waiter.timer !== null) clearTimeout(waiter.timer);
    share.waiting--;
  }

  private sweep(): void {
    for (const [id, share] of this.projects) {
      if (share.held > 0 || share.waiting > 0) share.idleSweeps = 0;
      else if (++share.idleSweeps >= 2) this.projects.delete(id);
    }
  }
}
