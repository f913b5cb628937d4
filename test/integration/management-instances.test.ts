// Two front doors on one database and Redis (in one process): a token revoked through one stops
// working on the other at once, and each instance's unflushed usage is written when it closes.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';

const noteModel = {
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' } },
    },
  },
  components: {},
};

describe('management API across two gateway instances', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: Session;
  let project: { id: number; slug: string };

  before(async () => {
    a = await startTestApp();
    b = await startTestApp({ share: a });
    owner = await signup(a);
    project = await createProject(a, owner, { name: 'Two Doors' });
    assert.equal((await as(a, owner).put(`/v1/projects/${project.slug}/schema`, noteModel)).statusCode, 200);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('accepts a session token from either instance', async () => {
    assert.deepEqual((await as(b, owner).get('/v1/auth/me')).json(), { account: owner.account });
  });

  it('a token deleted through A is refused by B well before B’s cached lookup would expire', async () => {
    const { apiToken, accessKey } = (await as(a, owner).post(`/v1/projects/${project.slug}/api-tokens`, { name: 'ci', type: 'read-only' })).json();
    const read = () => b.inject({ url: `/p/${project.slug}/api/notes`, headers: { authorization: `Bearer ${accessKey}` } });
    assert.equal((await read()).statusCode, 200); // B now caches the lookup (for up to 1 s)
    assert.equal((await as(a, owner).del(`/v1/projects/${project.slug}/api-tokens/${apiToken.id}`)).statusCode, 204);
    const deadline = Date.now() + 400;
    let status = 0;
    while (Date.now() < deadline && (status = (await read()).statusCode) === 200) await sleep(10);
    assert.equal(status, 401);
  });

  it('writes an instance’s unflushed request counts when it closes', async () => {
    const stored = async () => Number(await a.platform.db.pool.maybeOneFirst(compiledQuery({
      text: 'SELECT requests FROM platform.usage_counters WHERE project_id = $1', values: [project.id],
    })) ?? 0);
    await a.platform.usage.flush();
    await b.platform.usage.flush();
    const start = await stored();
    await as(a, owner).put(`/v1/projects/${project.slug}/roles/public/permissions`, { permissions: { 'api::note.note': ['find'] } });
    // Every content request counts, refused ones too (B may see the new permission a moment later).
    let sent = 0;
    let ok = 0;
    while (ok < 4 && sent < 100) {
      sent++;
      if ((await b.inject({ url: `/p/${project.slug}/api/notes` })).statusCode === 200) ok++;
      else await sleep(10);
    }
    assert.equal(ok, 4);
    // A sees B's requests only once B has written them; B's own report includes them at once.
    assert.equal((await as(b, owner).get(`/v1/projects/${project.slug}/usage`)).json().requests, start + sent);
    assert.equal(await stored(), start);
    await b.close();
    b = undefined as unknown as TestApp;
    assert.equal(await stored(), start + sent);
    assert.equal((await as(a, owner).get(`/v1/projects/${project.slug}/usage`)).json().requests, start + sent);
  });
});
