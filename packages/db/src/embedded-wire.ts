// PGlite is ONE Postgres session; the gateway's pools open many connections to it. This server
// lets one connection at a time own that session, from its first message until the session is
// idle again: until a Sync or a simple Query leaves it outside a transaction block. So an
// extended-protocol batch (Parse, Bind, Describe, Execute, Sync) runs whole, and a transaction
// runs whole, before another connection's message reaches the session. `@electric-sql/pglite-socket`
// serialises single messages and pins only inside transactions, so two connections' batches
// interleave there: one binds the other's unnamed statement (wrong parameters, or the wrong
// rows), and a failed message stalls its queue for good (pglite issue #1046).
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Messages after which the client waits for ReadyForQuery: where the session may change hands. */
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);

interface WireMessage {
  bytes: Uint8Array;
  /** The client waits for ReadyForQuery after it: the startup message, Sync, a simple Query. */
  endsBatch: boolean;
}

class WireConnection {
  /** Whole messages received and not yet run. */
  readonly pending: WireMessage[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  closed = false;

  constructor(readonly socket: Socket, private readonly onMessages: () => void, private readonly onClose: (c: WireConnection) => void) {
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  /** Ends the connection; `last` (an ErrorResponse) is sent first. */
  close(last?: Buffer): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.length = 0;
    if (last) this.socket.end(last);
    else this.socket.destroy();
    this.onClose(this);
  }

  /** Splits the stream into messages: untyped (length first) until the startup message, typed after. */
  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let added = false;
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) break;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) break;
        const code = this.buffer.readInt32BE(4);
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) return this.close(); // not supported: the query runs on
        this.started = true;
        this.pending.push({ bytes: new Uint8Array(message), endsBatch: true });
        added = true;
        continue;
      }
      if (this.buffer.length < 5) break;
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) break;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (message[0] === TERMINATE) return this.close();
      this.pending.push({ bytes: new Uint8Array(message), endsBatch: message[0] === SYNC || message[0] === QUERY });
      added = true;
    }
    if (this.buffer.length === 0) this.buffer = Buffer.alloc(0);
    if (added) this.onMessages();
  }
}

export class EmbeddedWireServer {
  private readonly server: Server;
  private readonly connections = new Set<WireConnection>();
  /** The connection the session belongs to, if any; the others' messages wait. */
  private owner: WireConnection | null = null;
  /** Connections with messages waiting for the session, in arrival order. */
  private readonly waiting: WireConnection[] = [];
  private running = false;

  constructor(private readonly db: PGlite, private readonly maxConnections: number) {
    this.server = createServer((socket) => this.accept(socket));
  }

  /** Listens; resolves to the port (a free one for 0). */
  async listen(port: number, host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async stop(): Promise<void> {
    for (const connection of [...this.connections]) connection.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    while (this.running) await new Promise((r) => setTimeout(r, 10));
  }

  private accept(socket: Socket): void {
    if (this.connections.size >= this.maxConnections) {
      socket.end(errorResponse('53300', 'too many connections to the embedded database'));
      return;
    }
    const connection = new WireConnection(socket, () => this.ready(connection), (c) => this.closed(c));
    this.connections.add(connection);
  }

  private ready(connection: WireConnection): void {
    if (connection !== this.owner && !this.waiting.includes(connection)) this.waiting.push(connection);
    void this.run();
  }

  private closed(connection: WireConnection): void {
    this.connections.delete(connection);
    const at = this.waiting.indexOf(connection);
    if (at >= 0) this.waiting.splice(at, 1);
    // The loop hands the session on from a closed owner (now, if it is waiting for the owner).
    if (connection === this.owner) void this.run();
  }

  /**
   * A connection that went away mid-batch or mid-transaction leaves the session as a new one
   * would find it: a Sync ends an extended-protocol batch (and the skipping that follows an error
   * in one), a ROLLBACK the transaction.
   */
  private async reset(): Promise<void> {
    try {
      await this.db.runExclusive(() => this.db.execProtocolRawStream(SYNC_MESSAGE, { onRawData: () => undefined }));
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } catch {
      /* as far as it can be reset */
    }
  }

  /** Runs the owner's messages, handing the session on whenever it is idle between batches. */
  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        if (this.owner?.closed) {
          this.owner = null;
          await this.reset();
        }
        if (!this.owner) {
          const next = this.waiting.shift();
          if (!next) break;
          this.owner = next;
        }
        const owner = this.owner;
        const message = owner.pending.shift();
        if (!message) break; // the owner's next message has not arrived yet: the session waits for it
        try {
          await this.db.runExclusive(() => this.db.execProtocolRawStream(message.bytes, {
            onRawData: (data) => {
              if (!owner.closed && data.length > 0) owner.socket.write(Buffer.from(data));
            },
          }));
        } catch (err) {
          // PGlite answers SQL errors itself; a throw here is the session failing: end this client.
          owner.close(errorResponse('XX000', err instanceof Error ? err.message : String(err)));
          continue;
        }
        if (message.endsBatch && !this.db.isInTransaction()) {
          this.owner = null;
          if (owner.pending.length > 0) this.waiting.push(owner);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/** A FATAL ErrorResponse, for a client refused or ended before PGlite could answer it. */
function errorResponse(code: string, text: string): Buffer {
  const fields = Buffer.concat([
    Buffer.from('SFATAL\0'), Buffer.from('VFATAL\0'), Buffer.from(`C${code}\0`), Buffer.from(`M${text}\0`), Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head[0] = 0x45; // 'E'
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}
