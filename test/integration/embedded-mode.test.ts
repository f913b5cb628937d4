// Smoke test of `make start` on a bare machine: no DATABASE_URL, no REDIS_URL → PGlite under
// DATA_DIR and an in-process bus; the whole management flow still works.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, spawnGateway, type GatewayProcess } from '../helpers/process.ts';

describe('embedded mode (PGlite, in-process bus)', () => {
  let gw: GatewayProcess;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cms-embedded-'));
    gw = await spawnGateway({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { timeoutMs: 120_000 });
  });
  after(async () => {
    await gw?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready with embedded Postgres and keeps its data and secret under DATA_DIR', async () => {
    const ready = await call(gw.url, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ok', postgres: 'ok', redis: 'embedded' });
    assert.ok(existsSync(join(dataDir, 'pg')));
    assert.ok(existsSync(join(dataDir, 'app-secret')));
  });

  it('runs the management flow: signup, project, schema push, locales', async () => {
    const signup = await call(gw.url, 'POST', '/v1/auth/signup', { email: 'new@example.com', password: 'correct horse' });
    assert.equal(signup.status, 201, JSON.stringify(signup.body));
    const token = signup.body.token as string;
    const project = await call(gw.url, 'POST', '/v1/projects', { name: 'First Project' }, token);
    assert.equal(project.status, 201, JSON.stringify(project.body));
    const slug = project.body.project.slug as string;
    assert.equal(project.body.project.apiUrl, `${gw.url}/p/${slug}/api`);
    const model = {
      contentTypes: {
        'api::note.note': {
          kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
          options: { draftAndPublish: true }, attributes: { title: { type: 'string', required: true } },
        },
      },
      components: {},
    };
    // The builder's preview rehearses the migration in a rolled-back transaction: PGlite too.
    const plan = await call(gw.url, 'POST', `/v1/projects/${slug}/schema/plan`, { ...model, expectedVersion: 0 }, token);
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.deepEqual(plan.body.changes.map((c: { op: string }) => c.op), ['createContentType']);
    assert.equal((await call(gw.url, 'GET', `/v1/projects/${slug}/schema`, undefined, token)).body.version, 0);
    const push = await call(gw.url, 'PUT', `/v1/projects/${slug}/schema`, { ...model, expectedVersion: 0 }, token);
    assert.equal(push.status, 200, JSON.stringify(push.body));
    assert.equal(push.body.version, 1);
    const locales = await call(gw.url, 'GET', `/p/${slug}/api/i18n/locales`);
    assert.equal(locales.status, 200);
    assert.deepEqual(locales.body.map((l: { code: string }) => l.code), ['en']);
    // The audit log on PGlite: the content write's entry rides in its transaction; the trigger refuses deletes.
    const key = (await call(gw.url, 'POST', `/v1/projects/${slug}/api-tokens`, { name: 'writer', type: 'full-access' }, token)).body.accessKey as string;
    assert.equal((await call(gw.url, 'POST', `/p/${slug}/api/notes`, { data: { title: 'Hello' } }, key)).status, 201);
    const audit = await call(gw.url, 'GET', `/v1/projects/${slug}/audit-logs?pageSize=3`, undefined, token);
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    assert.deepEqual(audit.body.data.map((e: { action: string }) => e.action), ['entry.publish', 'entry.create', 'api-token.create']);
    assert.equal((await call(gw.url, 'DELETE', `/v1/projects/${slug}/audit-logs`, undefined, token)).status, 405);
  });
});
