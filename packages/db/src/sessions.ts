// The pool's Postgres connections ("sessions") with what the fair share needs to know of each: its
// backend pid, to cancel the statement it runs when that statement's client goes away, and its
// current `statement_timeout`, so that a project's statements run under its plan's timeout.
//
// Why a session setting, tracked per connection: the timeout must bound every statement (reads
// outside transactions included) at no cost on the hot path. `SET LOCAL` needs a transaction (two
// more round trips per read); pg's `query_timeout` only stops waiting on the client side and
// leaves the statement running. A session keeps its `statement_timeout` between statements, and the
// pool never resets sessions (database.ts), so `SET statement_timeout` is sent only when the
// statement about to run wants another value than the connection's last one: a connection serving
// one plan's requests pays once, on its first statement (together with reading its pid). Never
// inside a transaction, where a rollback would undo it; a transaction gets its value at its start.
//
// Recycled: a backend keeps the catalog entries of every relation it has touched, and every project
// has its own schema's tables, so a long-lived connection's memory grows with the projects it has
// served (slonik has no maximum age or uses). A session older than `maxAgeMs` or that has run
// `maxUses` statements is closed when it is next released — after its caller's last statement, so
// never inside a transaction — instead of going back to the pool, which opens a fresh one when it
// needs one (a client waiting for a connection gets it). Idle sessions close after the pool's idle
// timeout anyway.
//
// Project affinity: a request's single-statement read takes, of the idle connections, the one its
// project ranks first (takeIdle), so with thousands of projects each backend serves a few of them,
// not all: a backend's first statement on a schema reads that schema's catalog entries (several
// ms), and the project's statements stay prepared on the connections it uses (each keeps a
// bounded number). The ranking is rendezvous hashing of (project, session): a project's order of
// preference over the open sessions stays the same while sessions come and go — one opened takes
// about 1/n of the projects, one retired gives away only its own — where a position in the list of
// open sessions would move every project's home whenever their number changes.
import pg from 'pg';
import { createPgDriverFactory } from '@slonik/pg-driver';
import type { DriverClient, DriverFactory, DriverQueryResult } from 'slonik';
import { ClientClosedRequestError, sqlStateOf } from '@cms/errors';
import { BatchedStatement } from './batched-statement.ts';
import { markedLast, transactionStart } from './last-statement.ts';
import { PreparedNames, replanned, staleStatement } from './prepared-names.ts';
import { currentScope, type DbScope, type ScopeOwner } from './request-scope.ts';

interface Session {
  /** Backend pid (0 until the session's first statement reads it). */
  pid: number;
  /** The session's `statement_timeout`, ms. */
  timeoutMs: number;
  inTransaction: boolean;
  /** Its transaction's START (and settings) still to be sent, with the transaction's first statement; null: sent. */
  beginPending: readonly string[] | null;
  /** Its transaction has savepoints (a nested slonik transaction): it never commits early. */
  savepoints: boolean;
  /** Its transaction was committed with its last statement: slonik's COMMIT has nothing left to do. */
  committed: boolean;
  /** The request whose statement runs on it now. */
  running: DbScope | null;
  /** A cancel sent for its statement: the session's next statement waits until it has landed. */
  cancelling: Promise<void> | null;
  /** Its named prepared statements (prepared-names.ts). */
  prepared: PreparedNames;
  /** The connection as the pool holds it (statements through `run`, recycling release). */
  client?: DriverClient;
  /** Statements run on it. */
  uses: number;
  /** Its identity in projects' rankings (takeIdle). */
  seed: number;
  /** When it is closed at its next release (Date.now() ms). */
  retireAt: number;
}

export interface SessionLimits {
  /** A session is closed at its first release past this age, ms. */
  maxAgeMs: number;
  /** … or once it has run this many statements. */
  maxUses: number;
  /** Named prepared statements per session (prepared-names.ts). */
  maxPrepared: number;
  /**
   * `max_parallel_workers_per_gather` of every session. 0 keeps each statement on one core: a
   * project's share of the pool is then also its share of the CPU.
   */
  parallelWorkersPerQuery: number;
}

type Query = DriverClient['query'];

export class Sessions {
  /** The open sessions. */
  private live: Session[] = [];
  /** Sessions opened so far: each one's seed. */
  private opened = 0;
  private cancelClient: Promise<pg.Client> | null = null;
  private closed = false;

  /** `defaultTimeoutMs`: the pool's own `statement_timeout`, for statements outside a request. */
  constructor(
    private readonly owner: ScopeOwner,
    private readonly url: string,
    private readonly defaultTimeoutMs: number,
    private readonly limits: SessionLimits,
    private readonly onCancelError: (err: unknown) => void,
  ) {}

  /** slonik's pg driver, with each connection's statements going through `run` below. */
  driverFactory(): DriverFactory {
    const pgDriver = createPgDriverFactory();
    return async (options) => {
      const driver = await pgDriver(options);
      return {
        createClient: async () => {
          const client = await driver.createClient();
          const session: Session = {
            pid: 0,
            timeoutMs: this.defaultTimeoutMs,
            inTransaction: false,
            beginPending: null,
            savepoints: false,
            committed: false,
            running: null,
            cancelling: null,
            prepared: new PreparedNames(this.limits.maxPrepared),
            uses: 0,
            seed: mix32(++this.opened),
            // Up to 10% earlier: sessions opened together (a start, a burst) do not all close together.
            retireAt: Date.now() + this.limits.maxAgeMs * (1 - Math.random() * 0.1),
          };
          this.live.push(session);
          client.on('destroy', () => (this.live = this.live.filter((s) => s !== session)));
          const { query, release, destroy } = client;
          session.client = {
            ...client,
            query: (sql, values) => this.run(session, query, sql, values),
            // The driver's destroy takes the session out of the pool's count at once (its 'destroy'
            // event) and the pool opens a new connection for a waiting client.
            release: () => (session.uses >= this.limits.maxUses || Date.now() >= session.retireAt ? destroy() : release()),
          };
          return session.client;
        },
      };
    };
  }

  /**
   * An idle connection of the pool, acquired for one statement (lean-statements.ts), or null when
   * none is idle: of the idle ones, the one project `home` ranks highest (its reads keep to the
   * same few connections). Acquired and released as slonik's pool does it (its state shared with
   * the pool): on release, a client waiting in the pool's queue gets it.
   */
  takeIdle(home = 0): DriverClient | null {
    const key = Math.imul(home, 0x9e3779b1);
    let best: DriverClient | null = null;
    let bestRank = -1;
    for (const session of this.live) {
      const client = session.client;
      if (client?.state() !== 'IDLE') continue;
      const rank = mix32(key ^ session.seed);
      if (rank > bestRank) {
        best = client;
        bestRank = rank;
      }
    }
    best?.acquire();
    return best;
  }

  /** Cancel the statements running for `scope` (its client went away): `pg_cancel_backend` on another connection. */
  cancel(scope: DbScope): void {
    for (const session of this.live) {
      if (session.running !== scope || session.pid === 0 || session.cancelling) continue;
      session.cancelling = this.signal(session.pid).finally(() => (session.cancelling = null));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = await this.cancelClient?.catch(() => null);
    await client?.end().catch(() => {});
  }

  private async run(session: Session, query: Query, sql: string, values?: unknown[]): Promise<DriverQueryResult> {
    const found = currentScope();
    const scope = found?.owner === this.owner ? found : undefined;
    // The end of a transaction with nothing left to send: its START never went (no statement ran),
    // or its COMMIT went with its last statement (which no abort may turn into a failure now).
    if ((sql === 'COMMIT' || sql === 'ROLLBACK') && (session.beginPending || session.committed)) {
      session.inTransaction = session.savepoints = session.committed = false;
      session.beginPending = null;
      return UNSENT;
    }
    // A request whose client left runs nothing more, except the rollback of its transaction.
    if (scope?.aborted && !sql.startsWith('ROLLBACK')) throw new ClientClosedRequestError();
    // A cancel sent for the previous statement must not reach this one.
    if (session.cancelling) await session.cancelling;
    session.uses++;
    const timeoutMs = scope?.statementTimeoutMs ?? this.defaultTimeoutMs;
    if (session.pid === 0) {
      // Set once per session, with its first statement (the pool never resets sessions).
      const first = await query(
        "SELECT pg_backend_pid() AS pid, set_config('statement_timeout', $1, false), set_config('max_parallel_workers_per_gather', $2, false)",
        [String(timeoutMs), String(this.limits.parallelWorkersPerQuery)],
      );
      session.pid = Number(first.rows[0]!.pid);
      session.timeoutMs = timeoutMs;
    } else if (timeoutMs !== session.timeoutMs && !session.inTransaction) {
      await query(`SET statement_timeout = ${Math.trunc(timeoutMs)}`);
      session.timeoutMs = timeoutMs;
    }
    // slonik's own transaction statements (savepoints are nested in them). A transaction's START
    // goes with its first statement, and its COMMIT with its last when the caller marked it
    // (last-statement.ts): a write of two statements is two round trips, not four.
    if (sql === 'START TRANSACTION') {
      session.inTransaction = true;
      session.beginPending = transactionStart();
      return UNSENT;
    }
    if (sql === 'COMMIT' || sql === 'ROLLBACK') {
      session.inTransaction = session.savepoints = false;
    } else if (session.committed) {
      throw new Error('A statement ran after its transaction was committed with its last statement');
    } else if (sql.startsWith('SAVEPOINT ')) {
      session.savepoints = true;
    }
    const begin = session.beginPending ?? NONE;
    const commit = session.inTransaction && !session.savepoints && markedLast();
    session.beginPending = null;
    session.running = scope ?? null;
    const name = session.prepared.nameFor(sql);
    const retired = name === undefined ? NONE : session.prepared.takeRetired();
    const batched = begin.length > 0 || commit || retired.length > 0;
    try {
      const config = batched ? new BatchedStatement({ text: sql, name, values }, { retired, begin, commit }) : name === undefined ? sql : { text: sql, name };
      const result = await query(config as unknown as string, values);
      if (commit) {
        session.inTransaction = false;
        session.committed = true;
      }
      return result;
    } catch (err) {
      const code = sqlStateOf(err);
      if (name === undefined || !staleStatement(code)) throw err;
      session.prepared.forget(sql);
      // A plan gone stale runs once more, unnamed, outside a transaction (inside one, the
      // transaction failed: the request's rerun on a fresh model runs it again).
      if (session.inTransaction || !replanned(code)) throw err;
      return await query(sql, values);
    } finally {
      session.running = null;
    }
  }

  /** One cancel, on a connection of its own: a pool full of the very statements to cancel never delays it. */
  private async signal(pid: number): Promise<void> {
    try {
      const client = await this.canceller();
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch (err) {
      // The statement still ends at its timeout.
      this.onCancelError(err);
    }
  }

  private canceller(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('database closed'));
    this.cancelClient ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, application_name: 'cms-cancel' });
      client.on('error', () => (this.cancelClient = null));
      try {
        await client.connect();
      } catch (err) {
        this.cancelClient = null;
        throw err;
      }
      return client;
    })();
    return this.cancelClient;
  }
}

const NONE: readonly string[] = [];

/** What a transaction statement that was not sent (yet, or at all) answers. */
const UNSENT: Awaited<ReturnType<Query>> = { command: 'SELECT', fields: [], rowCount: 0, rows: [] } as unknown as Awaited<ReturnType<Query>>;

/** murmur3's 32-bit finaliser: every input bit reaches every output bit (an unsigned result). */
function mix32(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
