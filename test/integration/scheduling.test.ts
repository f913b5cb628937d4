// Scheduled releases and scheduled actions end to end (docs/releases.md § Scheduling): against real
// Postgres and a Redis of this file's own (flushed here), with gateways started and closed around
// the schedules' times. A scheduled release fires once with two gateways and the worker running,
// within 5 s of its time; one whose only gateways were closed before its time fires once a gateway
// starts past it; one whose wake-up Redis lost (FLUSHDB) fires on time too; scheduled actions
// publish and unpublish; a cancelled one does nothing and stays listed; a wall-clock time across
// Europe/Paris's DST changes is stored as the exact instant; failures are `failed`, sent as the
// webhook and e-mailed to the author; viewers cannot write and other projects' ids are 404; without
// Redis, timers run them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@cms/config';
import { compiledQuery } from '@cms/db';
import { silentLogger } from '@cms/telemetry';
import { startWorkers, type Workers } from '@cms/worker';
import { startTestApp, testEnv, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { addMember, as, signup } from '../helpers/management.ts';
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

type Json = Record<string, any>;

const type = (singular: string, plural: string, opts: { localized: boolean; draftAndPublish: boolean }, attributes: Json) => ({
  kind: 'collectionType', collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: opts.draftAndPublish },
  pluginOptions: { i18n: { localized: opts.localized } },
  attributes,
});
const MODEL = {
  contentTypes: {
    'api::article.article': type('article', 'articles', { localized: true, draftAndPublish: true }, {
      title: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
    }),
    'api::author.author': type('author', 'authors', { localized: false, draftAndPublish: true }, { name: { type: 'string', required: true, minLength: 2 } }),
    'api::note.note': type('note', 'notes', { localized: false, draftAndPublish: false }, { body: { type: 'text' } }),
  },
  components: {},
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms: ${JSON.stringify(v)}`);
    await sleep(100);
  }
}

describe('scheduled releases and scheduled actions', () => {
  let db: TestDatabase;
  let redis: OwnRedis;
  let smtp: TestSmtp;
  let rx: Receiver;
  let env: Record<string, string>;
  let worker: Workers | null = null;
  let gateways: TestApp[] = [];
  let p: ContentProject;
  let key: string;

  /** A gateway on the file's database and Redis (none owns the database: it outlives them all). */
  const startGateway = (extra: Record<string, string> = {}) =>
    startTestApp({ share: { db, env } as unknown as TestApp, env: extra }).then((g) => (gateways.push(g), g));
  const closeGateways = async () => {
    for (const g of gateways.splice(0)) await g.close();
  };
  const live = () => gateways[0]!;
  const admin = () => as(live(), p.owner);
  const base = () => `/v1/projects/${p.slug}`;
  const api = (method: string, url: string, payload?: unknown) =>
    live().inject({ method: method as 'GET', url: `/p/${p.slug}${url}`, payload: payload as object, headers: { authorization: `Bearer ${key}` } });
  const query = async (text: string, values: unknown[] = []) => (await db.pool.any(compiledQuery({ text, values }))) as unknown as Json[];

  async function create(plural: string, data: Json, status: 'draft' | 'published' = 'draft'): Promise<string> {
    const res = await api('POST', `/api/${plural}${status === 'draft' ? '?status=draft' : ''}`, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId;
  }
  const isPublished = async (plural: string, documentId: string, locale?: string) =>
    (await api('GET', `/api/${plural}/${documentId}?status=published${locale ? `&locale=${locale}` : ''}`)).statusCode === 200;
  /** A release of `actions`, then scheduled `delayMs` ahead (PUT: the schedule moves into the due index then). */
  async function newRelease(name: string, delayMs: number, actions: Json[]): Promise<Json> {
    const res = await admin().post(`${base()}/releases`, { name });
    assert.equal(res.statusCode, 201, res.body);
    const { id } = res.json().data;
    for (const action of actions) {
      const added = await admin().post(`${base()}/releases/${id}/actions`, action);
      assert.equal(added.statusCode, 201, added.body);
    }
    const scheduled = await admin().put(`${base()}/releases/${id}`, { scheduledAt: inMs(delayMs), timezone: 'Europe/Paris' });
    assert.equal(scheduled.statusCode, 200, scheduled.body);
    return scheduled.json().data;
  }
  const release = async (id: number) => (await admin().get(`${base()}/releases/${id}`)).json().data as Json;
  const schedule = async (body: Json) => {
    const res = await admin().post(`${base()}/scheduled-actions`, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as Json;
  };
  const scheduled = async (q = '') => {
    const res = await admin().get(`${base()}/scheduled-actions${q}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Json[];
  };
  const indexed = async (kind: string, id: number) =>
    (await query('SELECT count(*)::int AS n FROM platform.content_schedules WHERE project_id = $1 AND kind = $2 AND target_id = $3', [p.id, kind, id]))[0]!.n;
  const ofRelease = (id: number) => rx.received.filter((r) => r.json?.event === 'releases.publish' && r.json.release?.id === id);

  before(async () => {
    [db, redis, smtp, rx] = await Promise.all([createTestDatabase(), startOwnRedis(), startSmtp(), startReceiver()]);
    env = testEnv(db, {
      REDIS_URL: redis.url, SCHEDULER: 'true', SMTP_URL: smtp.url,
      WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_RELAY_INTERVAL_MS: '100', WEBHOOKS_BACKOFF_MS: '50', WEBHOOKS_RETRY_WINDOW_MS: '0',
    });
    await startGateway();
    p = await setupContentProject(live(), MODEL, ['fr']);
    key = await p.token('full-access');
    const hook = await admin().post(`${base()}/webhooks`, { name: 'all', url: rx.url, events: ['releases.publish', 'entry.publish', 'entry.unpublish'] });
    assert.equal(hook.statusCode, 201, hook.body);
  });
  after(async () => {
    await closeGateways();
    await worker?.close();
    await rx?.close();
    await smtp?.close();
    await redis?.stop();
    await db?.drop();
  });

  it('publishes a scheduled release once, within 5 s of its time, with two gateways and the worker running', async () => {
    await startGateway();
    worker = await startWorkers(loadConfig(env), silentLogger());
    const author = await create('authors', { name: 'Launch author' });
    const article = await create('articles', { title: 'Launch' });
    const fr = await api('PUT', `/api/articles/${article}?locale=fr&status=draft`, { data: { title: 'Lancement' } });
    assert.equal(fr.statusCode, 200, fr.body);
    const r = await newRelease('Launch', 2500, [
      { contentType: 'api::author.author', entryDocumentId: author, type: 'publish' },
      { contentType: 'api::article.article', entryDocumentId: article, locale: 'fr', type: 'publish' },
    ]);
    assert.equal(await indexed('release', r.id), 1);
    const done = await until(() => release(r.id), (x) => x.status === 'done', 8000, 'the release published');
    const late = Date.parse(done.releasedAt) - Date.parse(done.scheduledAt);
    assert.ok(late >= 0 && late < 5000, `published ${late} ms after its time`);
    assert.ok(await isPublished('authors', author));
    assert.ok(await isPublished('articles', article, 'fr'));
    assert.ok(!(await isPublished('articles', article, 'en')));
    assert.equal(await indexed('release', r.id), 0);
    // Once: one webhook, one history version per document-locale (origin schedule, by its author).
    await rx.waitFor(1, (x) => ofRelease(r.id).includes(x));
    await sleep(1500);
    assert.equal(ofRelease(r.id).length, 1);
    assert.equal(ofRelease(r.id)[0]!.json.isPublished, true);
    assert.equal(rx.received.filter((x) => x.json?.event === 'entry.publish' && [author, article].includes(x.json.entry?.documentId)).length, 2);
    const versions = await query(`SELECT created_by FROM t_${p.id}.history_versions WHERE origin = 'schedule' AND related_document_id = ANY($1::text[])`, [[author, article]]);
    assert.equal(versions.length, 2);
    assert.ok(versions.every((v) => (typeof v.created_by === 'string' ? JSON.parse(v.created_by) : v.created_by).id === p.owner.account.id));
  });

  it('publishes a release whose only gateways were closed before its time (and whose wake-up Redis lost) once a gateway starts past it', async () => {
    const author = await create('authors', { name: 'Restart author' });
    const r = await newRelease('Restart', 2000, [{ contentType: 'api::author.author', entryDocumentId: author, type: 'publish' }]);
    await closeGateways();
    // Its wake-up lost too: only the sweep of the next gateway can find it.
    await redis.flush();
    await sleep(Date.parse(r.scheduledAt) - Date.now() + 1000);
    assert.deepEqual(await query(`SELECT released_at FROM t_${p.id}.releases WHERE id = $1`, [r.id]), [{ released_at: null }], 'nobody ran it');
    const started = Date.now();
    await startGateway();
    const done = await until(() => release(r.id), (x) => x.status === 'done', 5000, 'the release published after the start');
    assert.ok(Date.parse(done.releasedAt) - started < 5000);
    assert.ok(await isPublished('authors', author));
    await rx.waitFor(1, (x) => ofRelease(r.id).includes(x));
  });

  it('publishes it on time after Redis lost every key (FLUSHDB)', async () => {
    const author = await create('authors', { name: 'Flushed author' });
    const r = await newRelease('Flushed', 3000, [{ contentType: 'api::author.author', entryDocumentId: author, type: 'publish' }]);
    await redis.flush();
    const done = await until(() => release(r.id), (x) => x.status === 'done', 8000, 'the release published');
    const late = Date.parse(done.releasedAt) - Date.parse(done.scheduledAt);
    assert.ok(late >= 0 && late < 5000, `published ${late} ms after its time`);
    await rx.waitFor(1, (x) => ofRelease(r.id).includes(x));
    await sleep(500);
    assert.equal(ofRelease(r.id).length, 1);
  });

  it('publishes and unpublishes single documents at their time; a cancelled one does nothing and stays listed', async () => {
    const draft = await create('authors', { name: 'Scheduled draft' });
    const live = await create('authors', { name: 'Scheduled live' }, 'published');
    const article = await create('articles', { title: 'Article en' });
    assert.equal((await api('PUT', `/api/articles/${article}?locale=fr&status=draft`, { data: { title: 'Article fr' } })).statusCode, 200);
    const kept = await create('authors', { name: 'Cancelled' });
    const at = inMs(3000);
    const publish = await schedule({ contentType: 'api::author.author', documentId: draft, action: 'publish', scheduledFor: { datetime: at, timezone: 'Europe/Paris' } });
    assert.deepEqual(publish, {
      id: publish.id, contentType: 'api::author.author', documentId: draft, locale: null, action: 'publish',
      scheduledFor: { datetime: at, timezone: 'Europe/Paris' }, status: 'scheduled', error: null, createdAt: publish.createdAt,
    });
    const unpublish = await schedule({ contentType: 'api::author.author', documentId: live, action: 'unpublish', scheduledFor: { datetime: at, timezone: 'UTC' } });
    const localized = await schedule({ contentType: 'api::article.article', documentId: article, locale: 'fr', action: 'publish', scheduledFor: { datetime: at, timezone: 'Europe/Paris' } });
    assert.equal(localized.locale, 'fr');
    const cancelled = await schedule({ contentType: 'api::author.author', documentId: kept, action: 'publish', scheduledFor: { datetime: at, timezone: 'Europe/Paris' } });
    assert.equal((await admin().del(`${base()}/scheduled-actions/${cancelled.id}`)).statusCode, 204);
    assert.deepEqual(await scheduled(`?documentId=${kept}`), [{ ...cancelled, status: 'canceled' }]);
    assert.equal(await indexed('action', cancelled.id), 0);
    assert.equal(await indexed('action', publish.id), 1);

    const ids = [publish.id, unpublish.id, localized.id];
    const ran = await until(() => scheduled('?status=succeeded'), (list) => ids.every((id) => list.some((a) => a.id === id)), 8000, 'the actions ran');
    assert.ok(ran.every((a) => a.error === null));
    const times = await query(`SELECT id::int AS id, updated_at FROM t_${p.id}.scheduled_actions WHERE id = ANY($1::bigint[])`, [ids]);
    for (const t of times) {
      const late = new Date(t.updated_at).getTime() - Date.parse(at);
      assert.ok(late >= 0 && late < 5000, `action ${t.id} ran ${late} ms after its time`);
    }
    assert.ok(await isPublished('authors', draft));
    assert.ok(!(await isPublished('authors', live)));
    assert.equal((await api('GET', `/api/authors/${live}?status=draft`)).statusCode, 200, 'the draft stays');
    assert.ok(await isPublished('articles', article, 'fr'));
    assert.ok(!(await isPublished('articles', article, 'en')));
    assert.equal(await indexed('action', publish.id), 0);
    await rx.waitFor(1, (x) => x.json?.event === 'entry.unpublish' && x.json.entry?.documentId === live);
    // The cancelled one: nothing happened, still listed as canceled, and cannot be cancelled twice.
    assert.ok(!(await isPublished('authors', kept)));
    assert.deepEqual((await scheduled('?status=canceled')).map((a) => a.id), [cancelled.id]);
    const again = await admin().del(`${base()}/scheduled-actions/${cancelled.id}`);
    assert.equal(again.statusCode, 400, again.body);
    assert.equal((await admin().del(`${base()}/scheduled-actions/${publish.id}`)).statusCode, 400, 'ran already');
  });

  it('stores a wall-clock time across Europe/Paris\'s DST changes as the exact instant', async () => {
    const doc = await create('authors', { name: 'DST' });
    const at = async (datetime: string, timezone = 'Europe/Paris') => {
      const res = await admin().post(`${base()}/scheduled-actions`, { contentType: 'api::author.author', documentId: doc, action: 'publish', scheduledFor: { datetime, timezone } });
      return res;
    };
    // [given, the instant it names]: CET (+01:00) before the last Sunday of March, CEST (+02:00) after; back in October.
    const cases: Array<[string, string]> = [
      ['2030-03-30T10:00:00', '2030-03-30T09:00:00.000Z'],
      ['2030-03-31T10:00:00', '2030-03-31T08:00:00.000Z'],
      ['2030-03-31T01:59:00', '2030-03-31T00:59:00.000Z'],
      ['2030-03-31T03:00:00', '2030-03-31T01:00:00.000Z'],
      ['2030-10-26T10:00:00', '2030-10-26T08:00:00.000Z'],
      ['2030-10-27T10:00:00', '2030-10-27T09:00:00.000Z'],
      // 02:30 happens twice that night: the first one (still CEST).
      ['2030-10-27T02:30:00', '2030-10-27T00:30:00.000Z'],
      ['2030-03-31T10:00:00+02:00', '2030-03-31T08:00:00.000Z'],
      ['2030-10-27T09:00:00Z', '2030-10-27T09:00:00.000Z'],
    ];
    for (const [given, instant] of cases) {
      const res = await at(given);
      assert.equal(res.statusCode, 201, `${given}: ${res.body}`);
      const action = res.json().data;
      assert.deepEqual(action.scheduledFor, { datetime: instant, timezone: 'Europe/Paris' }, given);
      // Stored exactly: Postgres's own zone rules read it back as the wall clock it was given on, and the due index has the same instant.
      const [row] = await query(
        `SELECT to_char(s.scheduled_for AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD"T"HH24:MI:SS') AS local, s.scheduled_for = c.run_at AS indexed
         FROM t_${p.id}.scheduled_actions s JOIN platform.content_schedules c ON c.project_id = $2 AND c.kind = 'action' AND c.target_id = s.id WHERE s.id = $1`,
        [action.id, p.id]);
      assert.deepEqual(row, { local: given.endsWith('Z') ? '2030-10-27T10:00:00' : given.slice(0, 19), indexed: true }, given);
      assert.equal((await admin().del(`${base()}/scheduled-actions/${action.id}`)).statusCode, 204);
    }
    // 02:30 does not exist on the night clocks go forward; a zone needs its IANA name.
    assert.equal((await at('2030-03-31T02:30:00')).statusCode, 400);
    for (const zone of ['+02:00', 'CEST', 'Europe/Pariss', 'europe/paris']) assert.equal((await at('2030-06-01T10:00:00', zone)).statusCode, 400, zone);
    const other = await at('2030-07-01T10:00:00', 'America/New_York');
    assert.equal(other.json().data.scheduledFor.datetime, '2030-07-01T14:00:00.000Z');
    assert.equal((await admin().del(`${base()}/scheduled-actions/${other.json().data.id}`)).statusCode, 204);
  });

  it('marks a release and an action that fail when they run as failed: webhook, e-mail to their author', async () => {
    const invalid = await create('authors', { name: 'X' }); // too short to publish
    const r = await newRelease('Failing', 2000, [{ contentType: 'api::author.author', entryDocumentId: invalid, type: 'publish' }]);
    const action = await schedule({ contentType: 'api::author.author', documentId: invalid, action: 'publish', scheduledFor: { datetime: inMs(2000), timezone: 'Europe/Paris' } });
    const failed = await until(() => release(r.id), (x) => x.status === 'failed', 8000, 'the release failed');
    assert.equal(failed.releasedAt, null);
    assert.equal(await indexed('release', r.id), 0, 'not run again');
    const [event] = await rx.waitFor(1, (x) => ofRelease(r.id).includes(x));
    assert.equal(event!.json.isPublished, false);
    assert.equal(event!.json.release.status, 'failed');
    assert.match(event!.json.error.message, /could not be published/);
    const [ranAction] = await until(() => scheduled(`?documentId=${invalid}&status=failed`), (l) => l.length === 1, 8000, 'the action failed');
    assert.equal(ranAction!.id, action.id);
    assert.match(ranAction!.error, /name/);
    assert.ok(!(await isPublished('authors', invalid)));
    const releaseMail = await smtp.next(p.owner.account.email, 10_000, 'Scheduled release "Failing" failed');
    const actionMail = await smtp.next(p.owner.account.email, 10_000, `Scheduled publish of ${invalid} failed`);
    assert.match(releaseMail.text, /could not be published/);
    assert.match(actionMail.text, new RegExp(ranAction!.error.slice(0, 20).replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')));
  });

  it('refuses bad bodies, lets viewers read only, and keeps other projects\' ids apart', async () => {
    const doc = await create('authors', { name: 'Access' });
    const note = await create('notes', { body: 'n' }, 'published');
    const body = (extra: Json) => ({ contentType: 'api::author.author', documentId: doc, action: 'publish', scheduledFor: { datetime: inMs(3_600_000), timezone: 'Europe/Paris' }, ...extra });
    const refusals: Array<[Json, number]> = [
      [body({ scheduledFor: { datetime: inMs(-60_000), timezone: 'Europe/Paris' } }), 400],
      [body({ scheduledFor: { datetime: 'tomorrow', timezone: 'Europe/Paris' } }), 400],
      [body({ scheduledFor: { datetime: inMs(60_000) } }), 400],
      [body({ contentType: 'api::note.note', documentId: note }), 400],
      [body({ contentType: 'api::nothing.nothing' }), 400],
      [body({ contentType: 'api::article.article', locale: 'de' }), 400],
      [body({ action: 'archive' }), 400],
      [body({ documentId: 'nope' }), 404],
    ];
    for (const [payload, status] of refusals) {
      const res = await admin().post(`${base()}/scheduled-actions`, payload);
      assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
      assert.deepEqual(Object.keys(res.json()), ['data', 'error']);
    }
    assert.equal((await admin().get(`${base()}/scheduled-actions?sort=id`)).statusCode, 400);
    assert.equal((await admin().get(`${base()}/scheduled-actions?status=done`)).statusCode, 400);
    assert.equal((await admin().del(`${base()}/scheduled-actions/abc`)).statusCode, 404);
    assert.equal((await admin().del(`${base()}/scheduled-actions/999999`)).statusCode, 404);

    const mine = await schedule(body({}));
    const viewer = await signup(live());
    await addMember(live(), p.id, viewer, 'viewer');
    const v = as(live(), viewer);
    assert.equal((await v.get(`${base()}/scheduled-actions`)).statusCode, 200);
    assert.equal((await v.post(`${base()}/scheduled-actions`, body({}))).statusCode, 403);
    assert.equal((await v.del(`${base()}/scheduled-actions/${mine.id}`)).statusCode, 403);

    const other = await setupContentProject(live(), MODEL);
    const theirs = `/v1/projects/${other.slug}/scheduled-actions`;
    assert.equal((await other.admin.del(`${theirs}/${mine.id}`)).statusCode, 404);
    assert.deepEqual((await other.admin.get(theirs)).json(), { data: [] });
    assert.equal((await other.admin.post(theirs, body({}))).statusCode, 404, 'our document is not theirs');
    assert.equal((await other.admin.get(`${base()}/scheduled-actions`)).statusCode, 404, 'not a member');
    assert.equal((await scheduled(`?documentId=${doc}`))[0]!.status, 'scheduled');
    assert.equal((await admin().del(`${base()}/scheduled-actions/${mine.id}`)).statusCode, 204);
  });

  it('without Redis, runs schedules on timers', async () => {
    await closeGateways();
    await worker?.close();
    worker = null;
    // No Redis and a sweep too rare to matter here: only this process's timer can run it on time.
    await startGateway({ REDIS_URL: '', SCHEDULER_SWEEP_MS: '60000' });
    const doc = await create('authors', { name: 'Timer' });
    const at = inMs(1500);
    const action = await schedule({ contentType: 'api::author.author', documentId: doc, action: 'publish', scheduledFor: { datetime: at, timezone: 'Europe/Paris' } });
    await until(() => scheduled(`?documentId=${doc}`), (l) => l[0]?.status === 'succeeded', 6000, 'the action ran');
    const [row] = await query(`SELECT updated_at FROM t_${p.id}.scheduled_actions WHERE id = $1`, [action.id]);
    const late = new Date(row!.updated_at).getTime() - Date.parse(at);
    assert.ok(late >= 0 && late < 5000, `ran ${late} ms after its time`);
    assert.ok(await isPublished('authors', doc));
  });
});
