// Writes that fail never answer 5xx and never write anything: relation positions naming documents
// that are missing or not connected, and many failing writes at once on the same pool. A write that
// committed is answered with what it wrote, however long its project's queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel, collectionType } from '../fixtures/index.ts';

describe('write hardening', () => {
  let t: TestApp;
  let p: ContentProject;
  const tags: string[] = [];
  let post: string;

  const count = async (table: string) => Number(await t.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${p.schema}"."${table}"`, values: [] })));
  const snapshot = async () => ({ posts: await count('ct_post'), tags: await count('ct_tag'), links: await count('lnk_ct_post__tags') });

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    for (const label of ['a', 'b', 'c', 'd']) {
      const res = await p.api.post('/api/tags', { data: { label } });
      assert.equal(res.statusCode, 201, res.body);
      tags.push(res.json().data.documentId);
    }
    const res = await p.api.post('/api/posts', { data: { title: 'post', tags: [tags[0]] } });
    assert.equal(res.statusCode, 201, res.body);
    post = res.json().data.documentId;
  });
  after(async () => t?.close());

  const linkedTags = async () => (await p.api.get(`/api/posts/${post}?populate=tags`)).json().data.tags.map((tag: { documentId: string }) => tag.documentId);

  describe('connect positions', () => {
    it('before/after a document that does not exist: 400 naming it, nothing written', async () => {
      const before = await snapshot();
      for (const position of [{ before: 'nosuchdocument00000000000' }, { after: 'nosuchdocument00000000000' }]) {
        const res = await p.api.put(`/api/posts/${post}`, { data: { tags: { connect: [{ documentId: tags[1], position }] } } });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json().error, {
          status: 400, name: 'ValidationError', message: 'Document with id "nosuchdocument00000000000", locale "null" not found', details: {},
        });
      }
      assert.deepEqual(await snapshot(), before);
      assert.deepEqual(await linkedTags(), [tags[0]]);
    });

    it("before/after a document that exists but is not connected: 400 with Strapi's message, nothing written", async () => {
      const before = await snapshot();
      const res = await p.api.put(`/api/posts/${post}`, { data: { tags: { connect: [{ documentId: tags[1], position: { after: tags[2] } }] } } });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json().error, {
        status: 400, name: 'ValidationError', details: {},
        message: `There was a problem connecting relation with id ${tags[1]} at position {"after":"${tags[2]}"}. The relation with id ${tags[2]} needs to be connected first.`,
      });
      assert.deepEqual(await snapshot(), before);
      assert.deepEqual(await linkedTags(), [tags[0]]);
    });

    it('an anchor connected earlier in the same request is accepted', async () => {
      const res = await p.api.put(`/api/posts/${post}`, {
        data: { tags: { connect: [{ documentId: tags[2], position: { end: true } }, { documentId: tags[1], position: { before: tags[2] } }] } },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(await linkedTags(), [tags[0], tags[1], tags[2]]);
    });
  });

  it('50 concurrent failing writes: only 4xx, nothing written', async () => {
    const before = await snapshot();
    const bodies = [
      { data: { title: 'x', tags: { connect: [{ documentId: tags[1], position: { before: 'nosuchdocument00000000000' } }] } } },
      { data: { title: 'x', tags: { connect: ['nosuchdocument00000000000'], disconnect: [tags[0]] } } },
      { data: { title: 'x', tags: { connect: [{ documentId: tags[0], position: { after: tags[3] } }] } } },
      { data: { title: 'x', author: 'nosuchdocument00000000000', tags: [tags[0], 'missing'] } },
      { data: { title: 'x', tags: { set: ['nosuchdocument00000000000'] } } },
    ];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => {
      const body = bodies[i % bodies.length];
      return i % 2 === 0 ? p.api.post('/api/posts', body) : p.api.put(`/api/posts/${post}`, body);
    }));
    const statuses = results.map((r) => r.statusCode);
    assert.deepEqual([...new Set(statuses)], [400], results.filter((r) => r.statusCode !== 400).map((r) => r.body).join('\n'));
    for (const r of results) assert.equal(r.json().error.name, 'ValidationError');
    // the post created by the "connected earlier" test is unchanged, and nothing else was added
    const after = await snapshot();
    assert.deepEqual(after, { ...before, links: after.links });
    assert.equal(after.links, before.links);
  });
});

describe('locale versions and stored passwords', () => {
  const model = {
    contentTypes: {
      'api::item.item': {
        kind: 'collectionType', info: { singularName: 'item', pluralName: 'items', displayName: 'Item' },
        options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } },
        attributes: {
          name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
          pin: { type: 'password', required: true, minLength: 8, pluginOptions: { i18n: { localized: false } } },
          label: { type: 'string', default: 'untitled', pluginOptions: { i18n: { localized: true } } },
          rank: { type: 'integer', default: 3, pluginOptions: { i18n: { localized: false } } },
          shared: { type: 'component', component: 'x.part', pluginOptions: { i18n: { localized: false } } },
          parts: { type: 'component', component: 'x.part', repeatable: true, pluginOptions: { i18n: { localized: false } } },
          own: { type: 'component', component: 'x.part', pluginOptions: { i18n: { localized: true } } },
        },
      },
    },
    components: { 'x.part': { info: { displayName: 'Part' }, attributes: { v: { type: 'string' } } } },
  };
  let t: TestApp;
  let p: ContentProject;
  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, model, ['fr']);
  });
  after(async () => t?.close());

  it('a publishing update keeps a required password satisfied by the stored one', async () => {
    const created = await p.api.post('/api/items', { data: { name: 'a', pin: 'long secret' } });
    assert.equal(created.statusCode, 201, created.body);
    const updated = await p.api.put(`/api/items/${created.json().data.documentId}`, { data: { name: 'b' } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal('pin' in updated.json().data, false);
    // without a stored password the rule still holds
    const draft = await p.api.post('/api/items?status=draft', { data: { name: 'no pin' } });
    const publish = await p.api.put(`/api/items/${draft.json().data.documentId}`, { data: { name: 'no pin' } });
    assert.equal(publish.statusCode, 400);
    assert.equal(publish.json().error.message, 'pin must be a `string` type, but the final value was: `null`.');
  });

  it("a new locale version copies the document's non-localized attributes and components, and applies localized defaults", async () => {
    const created = await p.api.post('/api/items', {
      data: { name: 'en', label: 'english label', pin: 'long secret', rank: 7, shared: { v: 'S' }, parts: [{ v: 'P1' }, { v: 'P2' }], own: { v: 'O' } },
    });
    const documentId = created.json().data.documentId;
    const fr = await p.api.put(`/api/items/${documentId}?locale=fr`, { data: { name: 'fr' } });
    assert.equal(fr.statusCode, 200, fr.body);
    const read = (await p.api.get(`/api/items/${documentId}?locale=fr&populate=*`)).json().data;
    assert.deepEqual(
      { name: read.name, label: read.label, rank: read.rank, shared: read.shared?.v, parts: read.parts.map((x: { v: string }) => x.v), own: read.own },
      { name: 'fr', label: 'untitled', rank: 7, shared: 'S', parts: ['P1', 'P2'], own: null });
    // copies, not shared rows: the English version keeps its own
    const en = (await p.api.get(`/api/items/${documentId}?populate=*`)).json().data;
    assert.notEqual(en.shared.id, read.shared.id);
    assert.deepEqual([en.own.v, en.label], ['O', 'english label']);
  });
});

describe("a committed write's answer", () => {
  // One connection per project (4 × 25 %), and a short wait for it before 503.
  const QUEUE_MS = 300;
  let t: TestApp;
  let p: ContentProject;
  let locks: pg.Client;
  let holder: pg.Client;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (const started = Date.now(); !(await check());) {
      if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  };
  /** Statements of the project's API waiting for a lock on its note table (pg_stat_activity). */
  const waitingOnLock = async (verb: string) => Number(await t.db.pool.oneFirst(compiledQuery({
    text: `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1 AND query NOT ILIKE 'LOCK TABLE%'`,
    values: [`%${verb}%${p.schema}%ct_note%`],
  })));
  const model = {
    contentTypes: { 'api::note.note': collectionType('note', 'notes', { title: { type: 'string' } }, { options: { draftAndPublish: false } }) },
    components: {},
  };

  before(async () => {
    t = await startTestApp({ env: { DB_POOL_SIZE: '4', DB_PROJECT_SHARE: '25', DB_PROJECT_QUEUE_MS: String(QUEUE_MS) } });
    p = await setupContentProject(t, model);
    locks = new pg.Client({ connectionString: t.db.url });
    holder = new pg.Client({ connectionString: t.db.url });
    await Promise.all([locks.connect(), holder.connect()]);
  });
  after(async () => {
    await Promise.all([locks?.end(), holder?.end()]);
    await t?.close();
  });

  // A REST write reads its answer inside its transaction (no statement after the commit); a
  // GraphQL mutation's selection is read after it, and is the case here.
  it('is never a 503 for the project queue: a create whose read-back waits past DB_PROJECT_QUEUE_MS is answered', async () => {
    // Writes to the table wait (reads do not): the create holds the project's one connection.
    await locks.query('BEGIN');
    await locks.query(`LOCK TABLE ${p.schema}.ct_note IN SHARE MODE`);
    const create = p.api.post('/graphql', { query: 'mutation { createNote(data: { title: "committed" }) { title } }' });
    await until('the create to wait on its insert', async () => (await waitingOnLock('INSERT INTO')) === 1);
    // A list queues behind it for the connection; once the create commits, the list gets it and
    // waits on an exclusive lock for longer than the queue timeout, while the create's read-back waits behind it.
    const list = p.api.get('/api/notes');
    await sleep(50);
    assert.deepEqual(t.platform.db.scopes.fair.usage(p.id), { held: 1, waiting: 1 });
    const exclusive = holder.query('BEGIN').then(() => holder.query(`LOCK TABLE ${p.schema}.ct_note IN ACCESS EXCLUSIVE MODE`));
    await until('the exclusive lock to be asked for', async () => Number(await t.db.pool.oneFirst(compiledQuery({
      text: "SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND NOT granted AND relation = $1::regclass", values: [`${p.schema}.ct_note`],
    }))) === 1);
    await locks.query('COMMIT');
    await exclusive;
    await until('the list to wait on the exclusive lock', async () => (await waitingOnLock('FROM')) === 1);
    await sleep(QUEUE_MS * 2);
    assert.deepEqual(t.platform.db.scopes.fair.usage(p.id), { held: 1, waiting: 1 });
    await holder.query('COMMIT');
    const created = await create;
    assert.equal(created.statusCode, 200, created.body);
    assert.deepEqual(created.json(), { data: { createNote: { title: 'committed' } } });
    assert.equal((await list).statusCode, 200);
    assert.equal(Number(await t.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM ${p.schema}.ct_note`, values: [] }))), 1);
  });
});
