// One delivery attempt: resolve the receiver's host, refuse private addresses (SSRF) unless
// allowed, POST the signed body to the address that was checked (no second lookup), and keep
// the status, the time taken and the start of the answer. Never throws.
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

const EXCERPT_BYTES = 1024;

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface SendOutcome {
  ok: boolean;
  /** The receiver's HTTP status; null when none came (refused, unreachable, timed out). */
  responseStatus: number | null;
  /** Why the attempt failed without a 2xx status; null on success or an HTTP error status. */
  error: string | null;
  durationMs: number;
  /** The first KB of the answer's body (text). */
  responseExcerpt: string | null;
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2002::', 16],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address written in IPv6 form (`::ffff:10.0.0.1`, `::ffff:a00:1`, `::10.0.0.1`), as IPv4. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^::(?:ffff:(?:0:)?)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Loopback, private, link-local, unspecified, multicast, reserved — or an IPv4-mapped form of one. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** The addresses the receiver's host resolves to now; refused when any is private (and that is not allowed). */
async function resolveReceiver(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${bare} does not resolve`);
  if (!allowPrivate) {
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) throw new Error(`Refused: ${bare} resolves to a private or loopback address (${refused.address})`);
  }
  return addresses[0]!;
}

const errorText = (err: unknown): string => {
  const e = err as { code?: string; message?: string };
  return (e.code && !String(e.message).includes(e.code) ? `${e.code}: ${e.message}` : String(e.message ?? err)).slice(0, 500);
};

export async function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  const started = performance.now();
  const done = (o: Omit<SendOutcome, 'durationMs'>): SendOutcome => ({ ...o, durationMs: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return done({ ok: false, responseStatus: null, error: 'Invalid URL', responseExcerpt: null });
  }
  const deadline = AbortSignal.timeout(req.timeoutMs);
  try {
    const target = await Promise.race([
      resolveReceiver(url.hostname, req.allowPrivate),
      new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(new Error(`Timed out after ${req.timeoutMs} ms`)), { once: true })),
    ]);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<{ status: number; excerpt: string }>((resolve, reject) => {
      const outgoing = send(url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
        signal: deadline,
        // Connect to the address checked above: a second lookup could answer differently.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target]);
          else callback(null, target.address, target.family);
        },
      }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < EXCERPT_BYTES) {
            chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
            kept += Math.min(chunk.length, EXCERPT_BYTES - kept);
          }
          // The rest of a long answer is not read.
          if (kept >= EXCERPT_BYTES) {
            resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') });
            res.destroy();
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
    const ok = response.status >= 200 && response.status < 300;
    return done({ ok, responseStatus: response.status, error: null, responseExcerpt: response.excerpt });
  } catch (err) {
    const message = deadline.aborted ? `Timed out after ${req.timeoutMs} ms` : errorText(err);
    return done({ ok: false, responseStatus: null, error: message, responseExcerpt: null });
  }
}
