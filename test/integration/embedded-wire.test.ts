// The embedded database's wire server (packages/db/src/embedded-wire.ts): many pg connections on
// PGlite's one session. Every parameterised query answers its own parameters while others run
// concurrently, a transaction sees only its own work until it commits, and a client that goes away
// mid-transaction or mid-batch leaves nothing behind for the next.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@cms/db';

describe('embedded database: connections share one PGlite session safely', () => {
  let embedded: EmbeddedPostgres;
  let dataDir: string;
  let pool: pg.Pool;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cms-embedded-wire-'));
    embedded = await startEmbeddedPostgres(dataDir);
    pool = new pg.Pool({ connectionString: embedded.url, max: 12 });
    await pool.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
  });
  after(async () => {
    await pool?.end();
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every concurrent parameterised query with its own parameters', async () => {
    // Statements of different shapes (1 and 3 parameters, different types), so a Bind that met
    // another connection's unnamed statement would fail or answer someone else's values. Writes
    // among them: PGlite's writes reach its files between messages, where other clients' arrive.
    await pool.query('CREATE TABLE log (n int NOT NULL)');
    const rounds = Array.from({ length: 600 }, (_, i) => i % 3 === 0
      ? pool.query('INSERT INTO log (n) VALUES ($1) RETURNING n + 1 AS n', [i]).then((r) => assert.equal(r.rows[0].n, i + 1))
      : i % 3 === 1
        ? pool.query('SELECT $1::int + 1 AS n', [i]).then((r) => assert.equal(r.rows[0].n, i + 1))
        : pool.query('SELECT $1::text || $2::text || $3::int AS s', ['a', String(i), i]).then((r) => assert.equal(r.rows[0].s, `a${i}${i}`)));
    const settled = await Promise.allSettled(rounds);
    assert.deepEqual(settled.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason).slice(0, 120)), []);
    assert.equal((await pool.query('SELECT count(*)::int AS n FROM log')).rows[0].n, 200);
  });

  it("holds the session from a client's Parse to its Sync, even when the client pauses between them", async () => {
    // A client that sends Parse and Flush, waits for ParseComplete, then binds: meanwhile another
    // client's whole query must not run on the session (its Parse would replace A's statement).
    const a = await RawSession.open(embedded.url);
    try {
      a.send(message('P', cstring(''), cstring('SELECT $1::int * 10 AS n'), int16(0)), message('H'));
      await a.until('1'); // ParseComplete
      const other = pool.query('SELECT $1::text AS s, $2::text AS t', ['x', 'y']);
      await new Promise((r) => setTimeout(r, 50));
      a.send(message('B', cstring(''), cstring(''), int16(0), int16(1), int32(1), Buffer.from('7'), int16(0)), message('E', cstring(''), int32(0)), message('S'));
      const row = await a.until('D');
      assert.equal(row.subarray(11).toString(), '70'); // DataRow: type, length, 1 column, its length, '70'
      await a.until('Z');
      assert.deepEqual((await other).rows, [{ s: 'x', t: 'y' }]);
    } finally {
      a.close();
    }
  });

  it('keeps a transaction to its connection until it ends', async () => {
    const writer = await pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('INSERT INTO items VALUES ($1, $2)', [1, 'uncommitted']);
      // Another connection's read waits for the session: it sees the row only after COMMIT.
      const read = pool.query('SELECT count(*)::int AS n FROM items');
      await new Promise((r) => setTimeout(r, 100));
      await writer.query('INSERT INTO items VALUES ($1, $2)', [2, 'also']);
      await writer.query('COMMIT');
      assert.equal((await read).rows[0].n, 2);
    } finally {
      writer.release();
    }
  });

  it('rolls back the transaction of a client that goes away, and serves the next one', async () => {
    const gone = new pg.Client({ connectionString: embedded.url });
    gone.on('error', () => undefined); // its own end, below
    await gone.connect();
    await gone.query('BEGIN');
    await gone.query('INSERT INTO items VALUES ($1, $2)', [3, 'never committed']);
    const waiting = pool.query('SELECT array_agg(id ORDER BY id) AS ids FROM items');
    (gone as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    assert.deepEqual((await waiting).rows[0].ids, [1, 2]);
  });

  it('ends a failed batch for the next client (an error inside an extended-protocol batch)', async () => {
    await assert.rejects(pool.query('SELECT $1::int AS n', ['not a number']), /invalid input syntax/);
    const results = await Promise.all([1, 2, 3].map((n) => pool.query('SELECT $1::int * 2 AS n', [n])));
    assert.deepEqual(results.map((r) => r.rows[0].n), [2, 4, 6]);
  });
});

/** A bare wire-protocol client: messages written by hand, answers read by type. */
class RawSession {
  private buffer = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiter?.();
    });
  }

  static async open(url: string): Promise<RawSession> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    await new Promise((r) => socket.once('connect', r));
    const session = new RawSession(socket);
    const params = Buffer.concat([cstring('user'), cstring('postgres'), cstring('database'), cstring('postgres'), Buffer.from([0])]);
    socket.write(Buffer.concat([int32(8 + params.length), int32(196608), params]));
    await session.until('Z');
    return session;
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** The next message of this type (the ones before it are skipped; an ErrorResponse fails). */
  async until(type: string): Promise<Buffer> {
    for (;;) {
      while (this.buffer.length >= 5 && this.buffer.length >= 1 + this.buffer.readInt32BE(1)) {
        const length = 1 + this.buffer.readInt32BE(1);
        const found = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (String.fromCharCode(found[0]!) === type) return found;
        if (found[0] === 0x45) throw new Error(`ErrorResponse: ${found.subarray(5).toString()}`);
      }
      await new Promise<void>((r) => (this.waiter = r));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(4 + body.length), body]);
}
function cstring(text: string): Buffer {
  return Buffer.from(`${text}\0`);
}
function int16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}
function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}
