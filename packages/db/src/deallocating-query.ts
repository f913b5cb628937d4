// A named statement that first deallocates the prepared statements retired on its session
// (prepared-names.ts), in the same write and round trip: one extended-protocol Close message per
// retired name, then the statement's own Parse/Bind/Execute/Sync. Postgres handles them in order,
// a Close of a name it does not have is no error, and pg ignores the CloseComplete answers (it
// sends Close itself when a bind fails). pg records every name it parsed on a connection
// (`connection.parsedStatements`, which decides whether it sends Parse again): the retired names
// leave that record here too, where pg hands the query its connection.
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
}

type Callback = (err: Error | null, result?: pg.QueryResult) => void;

// pg's Query as used here (@types/pg types `submit` as a property, which `super` cannot reach).
const PgQuery = pg.Query as unknown as new (config: pg.QueryConfig) => {
  callback: Callback;
  submit(connection: PgConnection): Error | null;
};

export class DeallocatingQuery extends PgQuery implements PromiseLike<pg.QueryResult> {
  private readonly result: Promise<pg.QueryResult>;

  constructor(config: pg.QueryConfig & { name: string }, private readonly retired: readonly string[]) {
    super(config);
    this.result = new Promise((resolve, reject) => {
      this.callback = (err, res) => (err ? reject(err) : resolve(res!));
    });
  }

  override submit(connection: PgConnection): Error | null {
    // One write for the Close messages and the statement's own (pg corks around its part only).
    connection.stream.cork?.();
    try {
      for (const name of this.retired) {
        connection.close({ type: 'S', name });
        delete connection.parsedStatements[name];
      }
      return super.submit(connection);
    } finally {
      connection.stream.uncork?.();
    }
  }

  then<A = pg.QueryResult, B = never>(
    onFulfilled?: ((result: pg.QueryResult) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.result.then(onFulfilled, onRejected);
  }
}
