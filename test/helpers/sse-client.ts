// A Server-Sent Events client for tests: one HTTP request, events parsed as they arrive (id,
// event, data as JSON, comments counted), and waits on what has arrived.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

export interface SseClient {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The body of a refused stream (not 200). */
  readonly body: string;
  readonly events: SseEvent[];
  /** `: …` comment lines seen (pings). */
  readonly comments: number;
  /** Resolves when `count` events have arrived (rejects past `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Stop reading (the socket's buffers fill: a slow consumer). */
  pause(): void;
  readonly closed: boolean;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    let comments = 0;
    let closed = false;
    let buffer = '';
    let body = '';
    const waiters = new Set<() => void>();
    const req: ClientRequest = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) {
          body += chunk;
          return;
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | null = null;
          let event = 'message';
          const data: string[] = [];
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments++;
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('event: ')) (event = line.slice(7)), (isEvent = true);
            else if (line.startsWith('data: ')) (data.push(line.slice(6)), (isEvent = true));
          }
          if (isEvent) events.push({ id, event, data: data.length ? JSON.parse(data.join('\n')) : null });
        }
        for (const w of waiters) w();
      });
      const end = () => {
        closed = true;
        for (const w of waiters) w();
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
      const client: SseClient = {
        get status() {
          return res.statusCode ?? 0;
        },
        headers: res.headers,
        get body() {
          return body;
        },
        events,
        get comments() {
          return comments;
        },
        get closed() {
          return closed;
        },
        waitFor(count, timeoutMs = 10_000) {
          return new Promise((ok, fail) => {
            const check = () => {
              if (events.length >= count) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(events.slice(0, count));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`${events.length} of ${count} events after ${timeoutMs} ms: ${JSON.stringify(events.map((e) => `${e.id} ${e.event}`))}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        pause() {
          res.pause();
        },
        close() {
          closed = true;
          req.destroy();
        },
      };
      if (res.statusCode !== 200) res.on('end', () => resolve(client));
      else resolve(client);
    });
    req.on('error', reject);
    req.end();
  });
}
