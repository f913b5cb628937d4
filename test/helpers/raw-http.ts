// Raw HTTP/1.1 over one TCP connection, for what fetch cannot send: malformed request lines and
// headers, several requests on one keep-alive connection with bodies of any size, and a client
// that reads nothing until it has sent its whole request.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One keep-alive connection; `send` writes a request and reads exactly one response. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private closed = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('error', (err) => {
      this.failure = err;
      this.wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Write `request` (a complete request, head and body) and read one response. */
  async send(request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
    if (!this.closed) this.socket.write(request);
    return this.read(timeoutMs);
  }

  /**
   * Send as a client that reads nothing until its whole request is sent (as many do): the head,
   * then `body` in `chunk`-byte writes (in the chunked transfer coding when `chunked`), then read
   * one response. A connection reset while sending fails it, as it fails such a client.
   */
  async sendThenRead(
    method: string, path: string, headers: Record<string, string>, body: Buffer,
    { chunked = false, chunk = 64 * 1024, timeoutMs = 60_000 } = {},
  ): Promise<RawResponse> {
    this.socket.pause();
    try {
      await this.write(requestHead(method, path, { ...headers, ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(body.length) }) }));
      for (let at = 0; at < body.length; at += chunk) {
        const piece = body.subarray(at, at + chunk);
        await this.write(chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
      }
      if (chunked) await this.write('0\r\n\r\n');
    } finally {
      this.socket.resume();
    }
    return this.read(timeoutMs);
  }

  /** Write `data`, waiting while the socket's buffer is full; fails once the connection has. */
  async write(data: string | Buffer): Promise<void> {
    if (!this.closed && !this.socket.write(data)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.off('drain', done).off('close', done);
          resolve();
        };
        this.socket.on('drain', done).on('close', done);
      });
    }
    if (this.failure || this.closed) throw new Error(`connection failed while sending: ${this.failure?.message ?? 'closed'}`);
  }

  async read(timeoutMs = 10_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parseResponse(this.buffer);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.length);
        return parsed.response;
      }
      if (this.failure) throw new Error(`connection failed before an answer: ${this.failure.message}`);
      if (this.closed) throw new Error(`connection closed before an answer (${this.buffer.length} bytes buffered)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no answer in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function parseResponse(buf: Buffer): { response: RawResponse; length: number } | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyStart = headEnd + 4;
  if (headers['transfer-encoding'] === 'chunked') {
    let at = bodyStart;
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) return { response: { status, headers, body: Buffer.concat(parts).toString('utf8') }, length: lineEnd + 4 };
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buf.length < bodyStart + length) return undefined;
  return { response: { status, headers, body: buf.subarray(bodyStart, bodyStart + length).toString('utf8') }, length: bodyStart + length };
}

/** A request with a body and the right Content-Length. */
export function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body: string | Buffer = ''): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  const length: Record<string, string> = payload.length > 0 || method === 'POST' || method === 'PUT' ? { 'Content-Length': String(payload.length) } : {};
  return Buffer.concat([Buffer.from(requestHead(method, path, { ...headers, ...length }), 'latin1'), payload]);
}

/** A request line and headers, up to the blank line. */
function requestHead(method: string, path: string, headers: Record<string, string>): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n') + '\r\n\r\n';
}
