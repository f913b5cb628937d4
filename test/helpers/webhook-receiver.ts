// A local HTTP receiver for webhook tests: records every request (raw body and headers) and
// answers with whatever `respond` says (status, body, delay).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How the next request is answered (default 200 "ok"). */
  respond: (req: Received, n: number) => { status: number; body?: string; delayMs?: number };
  /** Resolves once `count` requests matching `filter` arrived (rejects after `ms`). */
  waitFor(count: number, filter?: (r: Received) => boolean, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    respond: () => ({ status: 200, body: 'ok' }),
    async waitFor(count, filter = () => true, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const matching = receiver.received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${matching.length}: ${JSON.stringify(receiver.received.map((r) => r.json?.event))}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      const r: Received = { headers: req.headers, body, json, at: Date.now() };
      receiver.received.push(r);
      const answer = receiver.respond(r, receiver.received.length);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain' });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  receiver.port = typeof address === 'object' && address ? address.port : 0;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  return receiver;
}

/**
 * The receiver's check, exactly as docs/management-api.md documents it: split the header into
 * `t` and `v1`, recompute HMAC-SHA256(secret, `${t}.${rawBody}`) in hex, compare in constant
 * time, and refuse a `t` older than 5 minutes (a replay).
 */
export function verifyDocumented(secret: string, header: string | undefined, rawBody: string, toleranceSeconds = 300): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === 32 && timingSafeEqual(given, Buffer.from(expected, 'hex'));
}
