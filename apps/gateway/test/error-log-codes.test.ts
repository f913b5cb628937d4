// Every error response is logged with its stable code (fastify's own `FST_…` when fastify raised
// it), while the envelope the client gets stays Strapi's.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify, { LogController } from 'fastify';
import { ForbiddenError } from '@cms/errors';
import { registerErrorHandling } from '../src/http/errors.ts';

async function appWithLog() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const app = Fastify({ logger: { level: 'debug', stream: sink }, logController: new LogController({ disableRequestLogging: true }) });
  registerErrorHandling(app, { bytes: 1024 * 1024, timeoutMs: 1000 });
  app.get('/forbidden', async () => { throw new ForbiddenError(); });
  app.get('/broken', async () => { throw new Error('boom'); });
  app.post('/json', async (request) => request.body);
  await app.ready();
  const logged = (msg: string) => lines.filter((l) => l.msg === msg).map((l) => ({ level: l.level, code: l.code }));
  return { app, logged };
}

describe('error response logging', () => {
  it('logs our class code for a 4xx and a 5xx, and the envelope is unchanged', async () => {
    const { app, logged } = await appWithLog();
    const forbidden = await app.inject({ method: 'GET', url: '/forbidden' });
    assert.deepEqual(forbidden.json(), { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    assert.deepEqual(broken.json(), { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
    await app.inject({ method: 'GET', url: '/nowhere' });
    assert.deepEqual(logged('request refused'), [{ level: 20, code: 'CMS_FORBIDDEN' }, { level: 20, code: 'CMS_NOT_FOUND' }]);
    assert.deepEqual(logged('request failed'), [{ level: 50, code: 'CMS_INTERNAL' }]);
    await app.close();
  });

  it("logs fastify's own code for an error fastify raised", async () => {
    const { app, logged } = await appWithLog();
    const res = await app.inject({ method: 'POST', url: '/json', headers: { 'content-type': 'application/json' }, payload: '{' });
    assert.equal(res.json().error.name, 'SyntaxError');
    assert.deepEqual(logged('request refused'), [{ level: 20, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }]);
    await app.close();
  });
});
