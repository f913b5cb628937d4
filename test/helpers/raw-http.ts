// Raw HTTP/1.1 over one TCP connection, for what fetch cannot send: malformed request lines and
// headers, and several requests on one keep-alive connection with bodies of any size.
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
  const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (payload.length > 0 || method === 'POST' || method === 'PUT') head.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}
