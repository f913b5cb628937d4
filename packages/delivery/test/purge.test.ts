// The CDN purge sender against a real local HTTP receiver: batching, de-duplication, chunking,
// both formats, retries, close() and the cap on pending keys.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { CdnPurgeConfig } from '@cms/config';
import type { Logger } from '@cms/telemetry';
import { CdnPurger, chunkKeys, MAX_KEY_BYTES_PER_REQUEST, MAX_KEYS_PER_REQUEST, type CdnPurgerOptions } from '../src/purge.ts';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

interface Line {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

/** A pino-shaped logger keeping what is logged. */
function recordingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (a: unknown, b?: unknown) => {
    if (typeof a === 'string') lines.push({ level, msg: a, fields: {} });
    else lines.push({ level, msg: String(b ?? ''), fields: (a ?? {}) as Record<string, unknown> });
  };
  const logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), fatal: at('fatal') };
  return { logger: logger as unknown as Logger, lines };
}

describe('CdnPurger', () => {
  const received: Received[] = [];
  /** Statuses to answer with, in order (then 200); 0 = never answer. */
  let statuses: number[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const status = statuses.length ? statuses.shift()! : 200;
      if (status === 0) return void hanging.push(res);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: status === 200 ? 'ok' : 'error' }));
    });
  });
  let base = '';
  const purgers: CdnPurger[] = [];

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await Promise.all(purgers.map((p) => p.close()));
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    statuses = [];
  });

  const json = (token?: string): CdnPurgeConfig => ({ url: `${base}/purge`, format: 'json', ...(token ? { token } : {}) });
  const fastly = (token = 'fastly-token'): CdnPurgeConfig => ({ url: `${base}/service/SVC123/purge`, format: 'fastly', token });
  function purger(config: CdnPurgeConfig | undefined, options: CdnPurgerOptions = {}, logger = recordingLogger().logger): CdnPurger {
    const p = new CdnPurger(config, logger, { batchMs: 20, retryDelaysMs: [10, 20, 40], ...options });
    purgers.push(p);
    return p;
  }
  const keysOf = (r: Received) => (JSON.parse(r.body) as { keys: string[] }).keys;

  it('coalesces the keys of close calls into one de-duplicated POST with the json body and the bearer token', async () => {
    const p = purger(json('secret'));
    p.purge(['p:1', 't:api::article.article', 'd:abc']);
    p.purge(['p:1', 't:api::article.article', 'd:def']);
    p.purge([]);
    await until(() => received.length === 1, 'the purge request');
    await sleep(60);
    assert.equal(received.length, 1, 'one request for both calls');
    const [r] = received;
    assert.equal(r!.method, 'POST');
    assert.equal(r!.path, '/purge');
    assert.equal(r!.headers['content-type'], 'application/json');
    assert.equal(r!.headers.authorization, 'Bearer secret');
    assert.deepEqual(keysOf(r!), ['p:1', 't:api::article.article', 'd:abc', 'd:def']);
    await p.close();
  });

  it('sends no authorization without a token, and a later change in a new request', async () => {
    const p = purger(json());
    p.purge(['p:1']);
    await until(() => received.length === 1, 'the first request');
    p.purge(['p:1', 'd:x']);
    await until(() => received.length === 2, 'the second request');
    assert.equal(received[0]!.headers.authorization, undefined);
    assert.deepEqual(keysOf(received[1]!), ['p:1', 'd:x'], 'a key already sent is sent again for a later change');
    await p.close();
  });

  it('splits more than 256 keys into requests of at most 256', async () => {
    const p = purger(json());
    const keys = Array.from({ length: 600 }, (_, i) => `d:doc${i}`);
    p.purge(keys);
    await until(() => received.length === 3, 'three requests');
    const sent = received.map(keysOf);
    assert.deepEqual(sent.map((k) => k.length).sort((a, b) => b - a), [256, 256, 88]);
    assert.deepEqual(sent.flat().sort(), [...keys].sort(), 'every key exactly once');
    await p.close();
  });

  it('chunks by bytes too: no request carries more than ~8 KB of keys', () => {
    const long = Array.from({ length: 200 }, (_, i) => `d:${String(i).padStart(3, '0')}${'x'.repeat(95)}`); // 100 bytes each
    const chunks = chunkKeys(long);
    assert.ok(chunks.length >= 3, String(chunks.length));
    for (const c of chunks) {
      assert.ok(c.join(' ').length <= MAX_KEY_BYTES_PER_REQUEST, String(c.join(' ').length));
      assert.ok(c.length <= MAX_KEYS_PER_REQUEST);
    }
    assert.deepEqual(chunks.flat(), long);
    assert.deepEqual(chunkKeys([]), []);
  });

  it('fastly: POSTs to the service purge URL with the keys in Surrogate-Key and the token in Fastly-Key (hard purge)', async () => {
    const p = purger(fastly());
    p.purge(['p:7', 't:api::page.page', 'd:k1']);
    p.purge(['d:k1', 'd:k2']);
    await until(() => received.length === 1, 'the purge request');
    const [r] = received;
    assert.equal(r!.method, 'POST');
    assert.equal(r!.path, '/service/SVC123/purge');
    assert.equal(r!.headers['surrogate-key'], 'p:7 t:api::page.page d:k1 d:k2');
    assert.equal(r!.headers['fastly-key'], 'fastly-token');
    assert.equal(r!.headers['fastly-soft-purge'], undefined);
    assert.equal(r!.headers.authorization, undefined);
    assert.equal(r!.body, '');
    await p.close();
  });

  it('fastly: long key lists are split under the header size', async () => {
    const p = purger(fastly());
    const keys = Array.from({ length: 300 }, (_, i) => `d:${String(i).padStart(4, '0')}${'y'.repeat(60)}`);
    p.purge(keys);
    await until(() => received.length >= 3, 'the requests');
    await sleep(50);
    const headers = received.map((r) => String(r.headers['surrogate-key']));
    for (const h of headers) assert.ok(h.length <= MAX_KEY_BYTES_PER_REQUEST, String(h.length));
    assert.deepEqual(headers.flatMap((h) => h.split(' ')).sort(), [...keys].sort());
    await p.close();
  });

  it('retries after a 500 and succeeds', async () => {
    const { logger, lines } = recordingLogger();
    statuses = [500];
    const p = purger(json(), {}, logger);
    p.purge(['p:1', 'd:a']);
    await until(() => received.length === 2, 'the retry');
    assert.deepEqual(keysOf(received[0]!), ['p:1', 'd:a']);
    assert.deepEqual(keysOf(received[1]!), ['p:1', 'd:a']);
    await p.close();
    assert.equal(lines.filter((l) => l.level === 'error').length, 0);
  });

  it('retries a network error', async () => {
    let calls = 0;
    const flaky: typeof fetch = (input, init) => (++calls === 1 ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init));
    const p = purger(json(), { fetch: flaky });
    p.purge(['p:1']);
    await until(() => received.length === 1, 'the retried request');
    assert.equal(calls, 2);
    await p.close();
  });

  it('gives up after the last retry and logs an error with the number of keys', async () => {
    const { logger, lines } = recordingLogger();
    statuses = [503, 503, 503, 503, 503];
    const p = purger(json(), {}, logger);
    p.purge(['p:1', 'd:a', 'd:b']);
    await until(() => lines.some((l) => l.level === 'error'), 'the error');
    assert.equal(received.length, 4, 'one attempt and three retries');
    const error = lines.find((l) => l.level === 'error')!;
    assert.equal(error.fields.keys, 3);
    assert.equal(error.fields.attempts, 4);
    assert.match(String(error.fields.error), /HTTP 503/);
    await p.close();
  });

  it('does not retry a refusal (a wrong token or URL)', async () => {
    const { logger, lines } = recordingLogger();
    statuses = [401];
    const p = purger(json('wrong'), {}, logger);
    p.purge(['p:1']);
    await until(() => lines.some((l) => l.level === 'error'), 'the error');
    await sleep(80);
    assert.equal(received.length, 1);
    assert.match(String(lines.find((l) => l.level === 'error')!.fields.error), /HTTP 401/);
    await p.close();
  });

  it('close() sends what is pending before resolving', async () => {
    const p = purger(json(), { batchMs: 60_000 });
    p.purge(['p:1', 'd:a']);
    await sleep(20);
    assert.equal(received.length, 0, 'still gathering keys');
    await p.close();
    assert.equal(received.length, 1);
    assert.deepEqual(keysOf(received[0]!), ['p:1', 'd:a']);
    p.purge(['p:2']);
    await sleep(50);
    assert.equal(received.length, 1, 'nothing is sent after close');
  });

  it('close() waits a bounded time for a CDN that does not answer', async () => {
    const { logger, lines } = recordingLogger();
    statuses = [0];
    const p = purger(json(), { closeTimeoutMs: 150, timeoutMs: 60_000 }, logger);
    p.purge(['p:1']);
    await until(() => received.length === 1, 'the request');
    const start = Date.now();
    await p.close();
    assert.ok(Date.now() - start < 1000, `close took ${Date.now() - start} ms`);
    const error = lines.find((l) => l.level === 'error');
    assert.ok(error, 'the unconfirmed purge is logged');
    assert.equal(error!.fields.keys, 1);
  });

  it('a request that takes too long times out and is retried', async () => {
    statuses = [0];
    const p = purger(json(), { timeoutMs: 100 });
    p.purge(['p:1']);
    await until(() => received.length === 2, 'the retry after the timeout');
    await p.close();
  });

  it('over the cap, leaves out document keys first (their type keys purge the same answers)', async () => {
    const { logger, lines } = recordingLogger();
    const p = purger(json(), { batchMs: 60_000, maxPendingKeys: 5 }, logger);
    p.purge(['p:1', 't:a', 'd:1']);
    p.purge(['t:b', 'd:2', 'd:3']);
    p.purge(['d:4']); // no type key with it: lost
    p.purge(['t:c', 'd:5']);
    await p.close();
    assert.equal(received.length, 1);
    assert.deepEqual(keysOf(received[0]!), ['p:1', 't:a', 't:b', 't:c']);
    assert.ok(lines.some((l) => l.level === 'warn' && /document keys are left out/.test(l.msg)), JSON.stringify(lines));
    const dropped = lines.find((l) => l.level === 'error' && l.fields.dropped !== undefined);
    assert.equal(dropped?.fields.dropped, 1, JSON.stringify(lines));
  });

  it('further over the cap, keeps only project keys and logs the changes that had none as dropped', async () => {
    const { logger, lines } = recordingLogger();
    const p = purger(json(), { batchMs: 60_000, maxPendingKeys: 3 }, logger);
    p.purge(['p:1', 't:a', 'd:1']);
    p.purge(['p:2', 't:b', 'd:2']);
    p.purge(['t:c', 'd:3']);
    p.purge(['p:3']);
    p.purge(['p:4']); // over the cap with project keys alone
    await p.close();
    assert.equal(received.length, 1);
    assert.deepEqual(keysOf(received[0]!), ['p:1', 'p:2', 'p:3']);
    assert.ok(lines.some((l) => l.level === 'error' && /only project keys are kept/.test(l.msg)), JSON.stringify(lines));
    const dropped = lines.find((l) => l.level === 'error' && l.fields.dropped !== undefined);
    assert.equal(dropped?.fields.dropped, 5, JSON.stringify(lines));
  });

  it('keeps every key again in the next batch', async () => {
    const p = purger(json(), { maxPendingKeys: 2 }, recordingLogger().logger);
    p.purge(['t:a', 'd:1', 'd:2']);
    await until(() => received.length === 1, 'the first request');
    assert.deepEqual(keysOf(received[0]!), ['t:a']);
    p.purge(['t:b', 'd:3']);
    await until(() => received.length === 2, 'the second request');
    assert.deepEqual(keysOf(received[1]!), ['t:b', 'd:3']);
    await p.close();
  });

  it('ignores keys a CDN cannot take (spaces, control characters, empty)', async () => {
    const { logger, lines } = recordingLogger();
    const p = purger(json(), {}, logger);
    p.purge(['p:1', 'bad key', '', 'd:\n', 'd:ok']);
    await p.close();
    assert.deepEqual(keysOf(received[0]!), ['p:1', 'd:ok']);
    assert.equal(lines.filter((l) => l.level === 'warn').length, 1, 'warned once');
  });

  it('without a configuration, purge() sends nothing', async () => {
    let calls = 0;
    const spy: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const p = purger(undefined, { fetch: spy, batchMs: 1 });
    assert.equal(p.enabled, false);
    p.purge(['p:1', 'd:a']);
    await sleep(30);
    await p.close();
    assert.equal(calls, 0);
    assert.equal(received.length, 0);
  });

  it('never throws, even for a fetch that throws synchronously', async () => {
    const { logger, lines } = recordingLogger();
    const broken = (() => {
      throw new Error('boom');
    }) as unknown as typeof fetch;
    const p = purger(json(), { fetch: broken, retryDelaysMs: [] }, logger);
    assert.doesNotThrow(() => p.purge(['p:1']));
    assert.doesNotThrow(() => p.purge(null as unknown as string[]));
    await p.close();
    assert.equal(lines.filter((l) => l.level === 'error' && l.fields.keys === 1).length, 1);
  });
});
