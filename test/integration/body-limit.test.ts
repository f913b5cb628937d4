// A body over the size limit gets a 413 in the envelope that the client can read, even while it is
// still sending: the rest of the body is read and discarded (up to BODY_DRAIN_LIMIT bytes and
// BODY_DRAIN_TIMEOUT_MS), so the connection is not reset under the client (issue 34).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { envelope } from '../helpers/envelope.ts';
import { count } from '../helpers/management.ts';
import { RawConnection, type RawResponse } from '../helpers/raw-http.ts';
import { blogRawModel } from '../fixtures/index.ts';

const MB = 1024 * 1024;
const TOO_LARGE = envelope(413, 'PayloadTooLargeError', 'request entity too large');
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
/** An 11 MB JSON body, over the default 1 MB limit. */
const bigTag = () => json({ data: { label: 'x'.repeat(11 * MB) } });

function assertTooLarge(res: RawResponse, expected: unknown = TOO_LARGE): void {
  assert.equal(res.status, 413, res.body);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.deepEqual(JSON.parse(res.body), expected);
}

async function listen(t: TestApp): Promise<number> {
  await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  return (t.fastify.server.address() as { port: number }).port;
}

describe('bodies over the size limit', () => {
  let t: TestApp;
  let p: ContentProject;
  let port: number;
  let token: string;
  const tags = async () => Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${p.schema}".ct_tag`, values: [] })));
  const files = async () => Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${p.schema}".files`, values: [] })));
  const api = () => `/p/${p.slug}/api`;
  const auth = () => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${token}` });

  /** A fresh connection is answered: the gateway kept serving. */
  const stillServing = async () => {
    const res = await fetch(`http://127.0.0.1:${port}${api()}/tags`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, await res.text());
  };

  /** `send` on a new connection, then the same connection serves the next request (the body was read). */
  async function refusedThenReused(send: (conn: RawConnection) => Promise<RawResponse>, expected: unknown = TOO_LARGE): Promise<void> {
    const conn = await RawConnection.open(port);
    try {
      const res = await send(conn);
      assertTooLarge(res, expected);
      assert.notEqual(res.headers.connection, 'close');
      const next = await conn.send(`GET ${api()}/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      assert.equal(next.status, 200, next.body);
    } finally {
      conn.close();
    }
  }

  before(async () => {
    t = await startTestApp({ env: { MEDIA_MAX_UPLOAD_BYTES: String(MB) } });
    p = await setupContentProject(t, blogRawModel());
    token = await p.token('full-access');
    port = await listen(t);
  });
  after(async () => t?.close());

  for (const chunked of [false, true]) {
    const framing = chunked ? 'chunked' : 'Content-Length';
    it(`REST create, 11 MB with ${framing}, sent whole before reading: 413 in the envelope, nothing written`, async () => {
      const before = await tags();
      await refusedThenReused((conn) => conn.sendThenRead('POST', `${api()}/tags`, auth(), bigTag(), { chunked }));
      assert.equal(await tags(), before);
      await stillServing();
    });

    it(`GraphQL mutation, 11 MB with ${framing}: 413 in the REST envelope (refused before GraphQL runs), nothing written`, async () => {
      const before = await tags();
      const body = json({ query: 'mutation($label: String!) { createTag(data: { label: $label }) { documentId } }', variables: { label: 'x'.repeat(11 * MB) } });
      await refusedThenReused((conn) => conn.sendThenRead('POST', `/p/${p.slug}/graphql`, auth(), body, { chunked }));
      assert.equal(await tags(), before);
      await stillServing();
    });

    it(`management API (/v1), 11 MB with ${framing}: 413, no project created`, async () => {
      const before = await count(t, 'projects');
      const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${p.owner.token}` };
      await refusedThenReused((conn) => conn.sendThenRead('POST', '/v1/projects', headers, json({ name: 'x'.repeat(11 * MB) }), { chunked }));
      assert.equal(await count(t, 'projects'), before);
      await stillServing();
    });
  }

  it('an 11 MB upload over the file size limit: 413 FileTooBig read after sending, nothing stored', async () => {
    const before = await files();
    const body = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="files"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'),
      Buffer.alloc(11 * MB, 'x'),
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    const headers = { 'Content-Type': 'multipart/form-data; boundary=XyZ', Authorization: `Bearer ${token}` };
    await refusedThenReused((conn) => conn.sendThenRead('POST', `${api()}/upload`, headers, body), envelope(413, 'PayloadTooLargeError', 'FileTooBig', { maxFileSize: MB }));
    assert.equal(await files(), before);
    await stillServing();
  });

  it('a client that asked to close the connection gets the 413 once its body is sent', async () => {
    const before = await tags();
    const conn = await RawConnection.open(port);
    try {
      assertTooLarge(await conn.sendThenRead('POST', `${api()}/tags`, { ...auth(), Connection: 'close' }, bigTag()));
    } finally {
      conn.close();
    }
    assert.equal(await tags(), before);
    await stillServing();
  });

  describe('with fetch (undici, which reads the answer while it sends)', () => {
    const post = async (path: string, body: NonNullable<RequestInit['body']>, headers: Record<string, string>) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      return { status: res.status, body: await res.json() };
    };
    /** The body as a stream: sent in the chunked transfer coding. */
    const stream = (body: Buffer) => new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(body.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });

    it('REST, GraphQL and /v1: 413 in the envelope, with Content-Length and streamed', async () => {
      const [tagsBefore, projectsBefore] = [await tags(), await count(t, 'projects')];
      const gql = json({ query: 'mutation($label: String!) { createTag(data: { label: $label }) { documentId } }', variables: { label: 'x'.repeat(11 * MB) } });
      const calls: Array<[string, Buffer, Record<string, string>]> = [
        [`${api()}/tags`, bigTag(), auth()],
        [`/p/${p.slug}/graphql`, gql, auth()],
        ['/v1/projects', json({ name: 'x'.repeat(11 * MB) }), { 'Content-Type': 'application/json', Authorization: `Bearer ${p.owner.token}` }],
      ];
      for (const [path, body, headers] of calls) {
        assert.deepEqual(await post(path, body, headers), { status: 413, body: TOO_LARGE }, path);
        assert.deepEqual(await post(path, stream(body), headers), { status: 413, body: TOO_LARGE }, `${path} streamed`);
      }
      assert.deepEqual([await tags(), await count(t, 'projects')], [tagsBefore, projectsBefore]);
      await stillServing();
    });
  });
});

describe('the bounds on reading a refused body', () => {
  let t: TestApp;
  let p: ContentProject;
  let port: number;
  let token: string;
  const path = () => `/p/${p.slug}/api/tags`;
  const auth = () => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${token}` });

  before(async () => {
    t = await startTestApp({ env: { BODY_DRAIN_LIMIT: String(4 * MB), BODY_DRAIN_TIMEOUT_MS: '1000' } });
    p = await setupContentProject(t, blogRawModel());
    token = await p.token('full-access');
    port = await listen(t);
  });
  after(async () => t?.close());

  /** Wait until the server has closed `conn` (reading whatever it sends). */
  async function closedWithin(conn: RawConnection, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!conn.isClosed) {
      assert.ok(Date.now() < deadline, `the connection was still open after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a Content-Length over the bound: 413 at once, then the connection is closed (fetch reads it)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}${path()}`, { method: 'POST', headers: auth(), body: bigTag() });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get('connection'), 'close');
    assert.deepEqual(await res.json(), TOO_LARGE);
  });

  it('a chunked body past the bound: the 413 first, then the connection is closed', async () => {
    const conn = await RawConnection.open(port);
    try {
      // Written whole into the socket, read as it comes: the answer arrives while sending.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const body = Buffer.concat(Array.from({ length: 11 * 16 }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])));
      const head = `POST ${path()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\n\r\n`;
      assertTooLarge(await conn.send(Buffer.concat([Buffer.from(head), body, Buffer.from('0\r\n\r\n')])));
      await closedWithin(conn, 5000);
    } finally {
      conn.close();
    }
  });

  it('a client dripping the rest of its body is cut off after BODY_DRAIN_TIMEOUT_MS', async () => {
    const conn = await RawConnection.open(port);
    try {
      const head = `POST ${path()} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${2 * MB}\r\n\r\n`;
      assertTooLarge(await conn.send(Buffer.concat([Buffer.from(head), Buffer.alloc(MB + 1, 'x')])));
      const started = Date.now();
      while (!conn.isClosed && Date.now() - started < 5000) {
        await conn.write('x').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(conn.isClosed, 'closed while the client still dripped');
      assert.ok(Date.now() - started >= 500, 'not before the time bound');
    } finally {
      conn.close();
    }
    const next = await fetch(`http://127.0.0.1:${port}${path()}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(next.status, 200);
  });
});
