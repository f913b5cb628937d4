// Environments in embedded mode (`make start` on a bare machine: PGlite, no Redis): the copy runs
// in the gateway's process, in one REPEATABLE READ transaction on PGlite, and the environment
// answers its parent's content; a write in it stays there; deleting it drops it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, spawnGateway, type GatewayProcess } from '../helpers/process.ts';

describe('environments in embedded mode (PGlite)', () => {
  let gw: GatewayProcess;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cms-embedded-env-'));
    gw = await spawnGateway({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { timeoutMs: 120_000 });
  });
  after(async () => {
    await gw?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies a project, keeps writes apart, and drops the copy', async () => {
    const token = (await call(gw.url, 'POST', '/v1/auth/signup', { email: 'env@example.com', password: 'correct horse' })).body.token as string;
    const slug = (await call(gw.url, 'POST', '/v1/projects', { name: 'Acme' }, token)).body.project.slug as string;
    const model = {
      contentTypes: {
        'api::note.note': {
          kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
          options: { draftAndPublish: true }, attributes: { title: { type: 'string', required: true } },
        },
      },
      components: {},
    };
    assert.equal((await call(gw.url, 'PUT', `/v1/projects/${slug}/schema`, model, token)).status, 200);
    const key = (await call(gw.url, 'POST', `/v1/projects/${slug}/api-tokens`, { name: 'w', type: 'full-access' }, token)).body.accessKey as string;
    for (const title of ['one', 'two']) assert.equal((await call(gw.url, 'POST', `/p/${slug}/api/notes`, { data: { title } }, key)).status, 201);

    const created = await call(gw.url, 'POST', `/v1/projects/${slug}/environments`, { name: 'staging' }, token);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const envSlug = `${slug}--staging`;
    let status = created.body.environment.status as string;
    // The embedded database is one connection: while the copy's transaction holds it, a read may
    // wait past its limit and answer 503 (asked again).
    let last: unknown = created.body;
    for (let i = 0; i < 100 && status === 'copying'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const listed = await call(gw.url, 'GET', `/v1/projects/${slug}/environments`, undefined, token);
      last = listed.body;
      if (listed.status === 503) continue;
      assert.equal(listed.status, 200, `${JSON.stringify(listed.body)}\n${gw.output().slice(-4000)}`);
      status = listed.body.environments[0].status;
    }
    assert.equal(status, 'ready', JSON.stringify(last));
    const envKey = (await call(gw.url, 'POST', `/v1/projects/${envSlug}/api-tokens`, { name: 'w', type: 'full-access' }, token)).body.accessKey as string;
    const read = '/api/notes?status=draft&sort=title';
    const parentNotes = await call(gw.url, 'GET', `/p/${slug}${read}`, undefined, key);
    const envNotes = await call(gw.url, 'GET', `/p/${envSlug}${read}`, undefined, envKey);
    assert.equal(envNotes.status, 200);
    assert.deepEqual(envNotes.body, parentNotes.body);
    assert.equal((await call(gw.url, 'POST', `/p/${envSlug}/api/notes`, { data: { title: 'three' } }, envKey)).status, 201);
    assert.equal((await call(gw.url, 'GET', `/p/${slug}${read}`, undefined, key)).body.data.length, 2);
    assert.equal((await call(gw.url, 'GET', `/p/${envSlug}${read}`, undefined, envKey)).body.data.length, 3);

    assert.equal((await call(gw.url, 'DELETE', `/v1/projects/${slug}/environments/staging`, undefined, token)).status, 204);
    assert.equal((await call(gw.url, 'GET', `/p/${envSlug}${read}`, undefined, envKey)).status, 404);
  });
});
