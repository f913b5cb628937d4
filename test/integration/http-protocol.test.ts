// The HTTP layer itself: requests Node's parser refuses are answered in the envelope, and a
// keep-alive connection keeps answering after any early refusal, whatever body was on its way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { RawConnection, rawRequest, type RawResponse } from '../helpers/raw-http.ts';
import { blogRawModel } from '../fixtures/index.ts';

function assertEnvelope(res: RawResponse, status: number, name: string): void {
  assert.equal(res.status, status, res.body);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(res.body) as { data: unknown; error: { status: number; name: string; message: string; details: unknown } };
  assert.equal(body.data, null);
  assert.equal(body.error.status, status);
  assert.equal(body.error.name, name);
  assert.equal(typeof body.error.message, 'string');
  assert.deepEqual(body.error.details, {});
}

describe('HTTP protocol edge cases', () => {
  let t: TestApp;
  let p: ContentProject;
  let port: number;
  let token: string;

  before(async () => {
    t = await startTestApp({ env: { BODY_LIMIT: String(64 * 1024) } });
    p = await setupContentProject(t, blogRawModel());
    token = await p.token('full-access');
    await t.fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (t.fastify.server.address() as { port: number }).port;
  });
  after(async () => t?.close());

  describe("requests Node's parser refuses get the envelope", () => {
    const cases: [string, string | Buffer, number, string][] = [
      ['a malformed header line', 'GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', 400, 'BadRequestError'],
      ['an unknown method', 'FROB /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'BadRequestError'],
      ['an unknown HTTP version', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 505, 'HTTPVersionNotSupportedError'],
      ['a request line that is not HTTP', 'hello there\r\n\r\n', 400, 'BadRequestError'],
      ['headers over the size limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'RequestHeaderFieldsTooLargeError'],
      ['a bad Content-Length', 'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'BadRequestError'],
      ['both Content-Length and chunked', 'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'BadRequestError'],
      ['a bad chunk size', 'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 400, 'BadRequestError'],
    ];
    for (const [what, request, status, name] of cases) {
      it(what, async () => {
        const conn = await RawConnection.open(port);
        try {
          assertEnvelope(await conn.send(request), status, name);
        } finally {
          conn.close();
        }
      });
    }
  });

  describe('a keep-alive connection answers the next request after an early refusal', () => {
    const api = () => `/p/${p.slug}/api`;
    const json = { 'Content-Type': 'application/json' };
    const big = (n: number) => JSON.stringify({ data: { label: 'x'.repeat(n) } });
    const cases: [string, () => Buffer, number][] = [
      ['401 on the management API with a body', () => rawRequest('POST', '/v1/projects', json, big(50_000)), 401],
      ['401 with a wrong token and a body', () => rawRequest('POST', `${api()}/tags`, { ...json, Authorization: 'Bearer nope' }, big(50_000)), 401],
      ['404 for an unknown project with a body', () => rawRequest('POST', '/p/no-such-project/api/tags', json, big(50_000)), 404],
      ['404 for an unknown route with a body', () => rawRequest('POST', `${api()}/nothing-here`, { ...json, Authorization: `Bearer ${token}` }, big(50_000)), 404],
      ['405 with a body', () => rawRequest('PATCH', `${api()}/tags`, { ...json, Authorization: `Bearer ${token}` }, big(50_000)), 405],
      ['413 with a body over the limit', () => rawRequest('POST', `${api()}/tags`, { ...json, Authorization: `Bearer ${token}` }, big(300_000)), 413],
      ['413 with a body 50 times the limit', () => rawRequest('POST', `${api()}/tags`, { ...json, Authorization: `Bearer ${token}` }, big(3_200_000)), 413],
      ['413 on the management API', () => rawRequest('POST', '/v1/auth/login', json, big(3_200_000)), 413],
      ['415 with a body', () => rawRequest('POST', `${api()}/tags`, { 'Content-Type': 'application/xml', Authorization: `Bearer ${token}` }, `<a>${'x'.repeat(50_000)}</a>`), 415],
      ['400 for malformed JSON', () => rawRequest('POST', `${api()}/tags`, { ...json, Authorization: `Bearer ${token}` }, `{"data": ${'x'.repeat(50_000)}`), 400],
      ['400 for a validation error', () => rawRequest('POST', `${api()}/tags`, { ...json, Authorization: `Bearer ${token}` }, JSON.stringify({ data: { slug: 'not a uid!' } })), 400],
      ['403 on a multipart upload without a token', () => rawRequest('POST', `${api()}/upload`,
        { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
        `--XyZ\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${'x'.repeat(200_000)}\r\n--XyZ--\r\n`), 403],
    ];
    for (const [what, request, status] of cases) {
      it(what, async () => {
        const conn = await RawConnection.open(port);
        try {
          for (let round = 0; round < 3; round++) {
            const refused = await conn.send(request());
            assert.equal(refused.status, status, refused.body);
            assert.equal(JSON.parse(refused.body).error.status, status);
            if (conn.isClosed || refused.headers.connection === 'close') return; // told to reconnect: fine
            const next = await conn.send(rawRequest('GET', '/healthz'));
            assert.equal(next.status, 200, next.body);
          }
        } finally {
          conn.close();
        }
      });
    }
  });
});
