// A request refused while its body is still arriving (a body over the size limit, a 401 or 404
// answered before the body is read, a file over the upload limit) must not have its connection
// closed under the client still sending: the kernel answers the bytes that keep coming with a
// reset, and a client that reads only once it has sent everything (or whose next write fails
// first) gets a network error instead of the answer. So the rest of the body is read and
// discarded, within `BODY_DRAIN_LIMIT` bytes and `BODY_DRAIN_TIMEOUT_MS`; past either the
// connection is closed.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Config } from '@cms/config';

export type BodyDrain = Config['bodyDrain'];

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by registerErrorHandling: how much of a refused request's body is still read. */
    bodyDrain: BodyDrain;
  }
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/**
 * Called before an error answer: when the request's body is still arriving, read and discard the
 * rest. Returns a promise when the answer must wait for it (the answer closes the connection);
 * otherwise the answer goes out at once — clients that read while they send (undici, curl) stop
 * on it — and the connection, its body read, serves the next request.
 */
export function drainUnreadBody(reply: FastifyReply, bounds: BodyDrain): Promise<void> | undefined {
  const req = reply.request.raw;
  // `complete` is set by Node's HTTP parser once the whole body is in (injected requests have none).
  if (req.complete !== false || req.destroyed || !hasBody(req)) return undefined;
  if (Number(req.headers['content-length']) > bounds.bytes) {
    // It would be cut anyway: answer now and close after the answer.
    reply.header('connection', 'close');
    return undefined;
  }
  // fastify's body parser asks to close after refusing a body; the connection stays open until it has come.
  reply.removeHeader('connection');
  const drained = new Promise<void>((resolve) => {
    let left = bounds.bytes;
    const count = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) stop(true);
    };
    const done = () => stop(false);
    const timer = setTimeout(() => stop(true), bounds.timeoutMs);
    function stop(cut: boolean) {
      clearTimeout(timer);
      req.off('data', count).off('end', done).off('close', done);
      if (cut) {
        reply.request.log.debug('refused request: its body went past BODY_DRAIN_LIMIT or BODY_DRAIN_TIMEOUT_MS, connection closed');
        closeAfterAnswer(reply);
      }
      resolve();
    }
    // A body reader still attached (multipart's parser) lets go; the bytes go nowhere.
    req.unpipe();
    req.on('data', count).once('end', done).once('close', done).resume();
  });
  // A client that asked to close (or HTTP/1.0) has its connection closed by Node right after the
  // answer, unread bytes or not: it gets the answer once its body has come.
  return reply.raw.shouldKeepAlive ? undefined : drained;
}

function closeAfterAnswer(reply: FastifyReply): void {
  const { socket } = reply.request.raw;
  if (reply.raw.writableFinished) socket.destroy();
  else {
    reply.header('connection', 'close');
    reply.raw.once('finish', () => socket.destroy());
  }
}
