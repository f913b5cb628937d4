// A TCP proxy in front of the test Postgres that reads the frontend's side of the wire protocol:
// messages by type (Q simple query, P parse, B bind, E execute, S sync; round trips ≈ S + Q) and
// the statements run. For tests and benches that count what a request sends.
import { createServer, connect, type Socket } from 'node:net';

/** Frontend messages by type through a TCP proxy to Postgres (Q simple query, P parse, B bind, E execute, S sync). */
export class CountingProxy {
  readonly counts = new Map<string, number>();
  /** Statement texts by prepared name (P), and what ran since the last `trace()` (Q and B). */
  private readonly named = new Map<string, string>();
  private ran: string[] = [];
  private readonly sockets = new Set<Socket>();
  port = 0;
  private server = createServer((client) => {
    const upstream = connect(5432, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    let buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          // Startup (or SSLRequest): length-prefixed, no type byte.
          if (buffer.length < 8) break;
          const len = buffer.readInt32BE(0);
          if (buffer.length < len) break;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(len);
          if (code !== 80877103) started = true;
          continue;
        }
        if (buffer.length < 5) break;
        const len = buffer.readInt32BE(1);
        if (buffer.length < len + 1) break;
        const type = String.fromCharCode(buffer[0]!);
        this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
        this.record(type, buffer.subarray(5, len + 1));
        buffer = buffer.subarray(len + 1);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => { client.destroy(); upstream.destroy(); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }

  snapshot(): Record<string, number> { return Object.fromEntries(this.counts); }

  private record(type: string, body: Buffer): void {
    const cstring = (at: number) => { const end = body.indexOf(0, at); return [body.toString('utf8', at, end), end + 1] as const; };
    if (type === 'Q') this.ran.push(`Q ${cstring(0)[0]}`);
    if (type === 'P') { const [name, next] = cstring(0); this.named.set(name, cstring(next)[0]); }
    if (type === 'B') { const [, next] = cstring(0); const name = cstring(next)[0]; this.ran.push(`B ${this.named.get(name) ?? '?'}`); }
  }

  /** The statements sent since the last call. */
  trace(): string[] { const ran = this.ran; this.ran = []; return ran; }

  close(): void {
    for (const s of this.sockets) s.destroy();
    this.server.close();
  }
}

