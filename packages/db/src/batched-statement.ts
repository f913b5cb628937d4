// One statement with what a session sends around it in the same write and the same round trip
// (one Sync, so one ReadyForQuery, which is where pg ends a query):
// - the Close messages of the session's retired prepared names (prepared-names.ts). Postgres
//   handles them in order, a Close of a name it does not have is no error, and pg ignores the
//   CloseComplete answers (it sends Close itself when a bind fails). pg records every name it
//   parsed on a connection (`connection.parsedStatements`, which decides whether it sends Parse
//   again): the retired names leave that record here too;
// - `START TRANSACTION` (and the transaction's settings) before it, when the statement is its
//   transaction's first (sessions.ts defers a transaction's start to its first statement);
// - `COMMIT` after it, when the caller marked it as its transaction's last (`lastInTransaction`).
// Between two Syncs Postgres runs the messages in order and, after an error, skips the rest: a
// failed statement leaves its transaction failed (never committed), as when each ran alone. A
// COMMIT that fails (a deferred check) fails the statement. The control statements' own
// completions are not part of the statement's result. (pg credits START's ParseComplete to the
// statement's name: when the statement's own Parse then fails, pg records a name Postgres does not
// have. Such a failure retires the name (sessions.ts: class 42, or 26000 at its next use), so it
// is never bound again.)
//
// It goes through slonik's pg driver in place of the query text, like a query config: pg runs an
// object with `submit` as a custom query (as pg-cursor does) and returns that object instead of a
// promise; the driver awaits it, so it is thenable.
import pg from 'pg';

/** What this module uses of pg's connection (pg/lib/connection.js). */
interface PgConnection {
  stream: { cork?(): void; uncork?(): void };
  parsedStatements: Record<string, string>;
  close(msg: { type: 'S'; name: string }): void;
  parse(msg: { text: string }): void;
  bind(msg: object): void;
  execute(msg: object): void;
  sync(): void;
}

type Callback = (err: Error | null, result?: pg.QueryResult) => void;

// pg's Query as used here (@types/pg types `submit` as a property, which `super` cannot reach).
const PgQuery = pg.Query as unknown as new (config: pg.QueryConfig) => {
  name?: string;
  rows?: number;
  portal: string;
  callback: Callback;
  submit(connection: PgConnection): Error | null;
  handleCommandComplete(msg: unknown, connection: PgConnection): void;
  _getRows(connection: PgConnection, rows?: number): void;
};

export interface Around {
  /** Prepared names to deallocate first. */
  retired: readonly string[];
  /** Start the transaction the statement is the first of: `START TRANSACTION` and what follows it (none: it is not the first). */
  begin: readonly string[];
  /** Commit the transaction the statement is the last of. */
  commit: boolean;
}

export class BatchedStatement extends PgQuery implements PromiseLike<pg.QueryResult> {
  private readonly result: Promise<pg.QueryResult>;
  /** Control statements' completions still to come before the statement's own (`begin`'s). */
  private leading: number;
  /** The statement's own completion was seen: the next one is COMMIT's. */
  private completed = false;

  constructor(config: pg.QueryConfig, private readonly around: Around) {
    // Always the extended protocol (pg sends a statement without values as a simple Query, which
    // has a Sync of its own and no place for the messages around it).
    super({ ...config, queryMode: 'extended' } as pg.QueryConfig);
    this.leading = around.begin.length;
    this.result = new Promise((resolve, reject) => {
      this.callback = (err, res) => (err ? reject(err) : resolve(res!));
    });
  }

  override submit(connection: PgConnection): Error | null {
    // One write for everything (pg corks around a statement's own messages only).
    connection.stream.cork?.();
    try {
      for (const name of this.around.retired) {
        connection.close({ type: 'S', name });
        delete connection.parsedStatements[name];
      }
      for (const text of this.around.begin) unnamed(connection, text);
      return super.submit(connection);
    } finally {
      connection.stream.uncork?.();
    }
  }

  /** pg's last step of a statement (Execute, then Sync): COMMIT goes between the two. */
  override _getRows(connection: PgConnection, rows?: number): void {
    if (!this.around.commit || rows) return super._getRows(connection, rows);
    connection.execute({ portal: this.portal });
    unnamed(connection, 'COMMIT');
    connection.sync();
  }

  override handleCommandComplete(msg: unknown, connection: PgConnection): void {
    if (this.leading > 0) {
      this.leading--;
      return;
    }
    if (this.completed) return; // COMMIT's
    this.completed = true;
    super.handleCommandComplete(msg, connection);
  }

  then<A = pg.QueryResult, B = never>(
    onFulfilled?: ((result: pg.QueryResult) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.result.then(onFulfilled, onRejected);
  }
}

/** A statement without parameters or rows, through the unnamed statement and portal (no Describe, no Sync). */
function unnamed(connection: PgConnection, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}
