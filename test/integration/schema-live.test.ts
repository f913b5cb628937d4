// Live model changes under load: two gateway processes serve reads at full speed (REST lists,
// documents with populate, GraphQL) while the model changes through one of them — attributes
// removed, added back and replaced, a content type added and dropped, draft & publish toggled.
// No read may fail with a 5xx, and the other gateway serves each change within a second.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../helpers/db.ts';
import { call, spawnGateway, type GatewayProcess } from '../helpers/process.ts';

const SLUG = 'live-model';
const author = {
  kind: 'collectionType', info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
  options: { draftAndPublish: false }, attributes: { name: { type: 'string' } },
};
const note = (attributes: Record<string, unknown>, draftAndPublish = true) => ({
  kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish },
  attributes: { title: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' }, ...attributes },
});
const extra = {
  kind: 'collectionType', info: { singularName: 'extra', pluralName: 'extras', displayName: 'Extra' },
  options: { draftAndPublish: false }, attributes: { label: { type: 'string' } },
};
const model = (noteType: unknown, withExtra = false) => ({
  contentTypes: { 'api::author.author': author, 'api::note.note': noteType, ...(withExtra ? { 'api::extra.extra': extra } : {}) },
  components: {},
});

describe('model changes under load on two gateways', () => {
  let db: TestDatabase;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let session: string;
  let apiToken: string;

  before(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${db.name}:`,
      APP_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'warn',
    };
    [a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
    session = (await call(a.url, 'POST', '/v1/auth/signup', { email: 'live@example.com', password: 'long enough pw' })).body.token;
    assert.equal((await call(a.url, 'POST', '/v1/projects', { name: 'Live', slug: SLUG }, session)).status, 201);
    const pushed = await call(a.url, 'PUT', `/v1/projects/${SLUG}/schema`, model(note({ body: { type: 'text' }, rating: { type: 'integer' } })), session);
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    apiToken = (await call(a.url, 'POST', `/v1/projects/${SLUG}/api-tokens`, { name: 'live', type: 'full-access' }, session)).body.accessKey;
    const ada = (await call(a.url, 'POST', `/p/${SLUG}/api/authors`, { data: { name: 'Ada' } }, apiToken)).body.data.documentId;
    for (let i = 0; i < 20; i++) {
      const res = await call(a.url, 'POST', `/p/${SLUG}/api/notes`, { data: { title: `note ${i}`, body: 'text', rating: i, author: ada } }, apiToken);
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('no read fails, and every change is served by the other gateway within a second', async () => {
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let stop = false;
    let reads = 0;
    const firstDoc = (await call(a.url, 'GET', `/p/${SLUG}/api/notes?pagination[pageSize]=1`, undefined, apiToken)).body.data[0].documentId as string;
    const requests: [string, string, unknown?][] = [
      ['GET', `/p/${SLUG}/api/notes?populate=author&sort=title&pagination[pageSize]=10`],
      ['GET', `/p/${SLUG}/api/notes?filters[title][$startsWith]=note&status=draft`],
      ['GET', `/p/${SLUG}/api/notes/${firstDoc}?populate=*`],
      ['GET', `/p/${SLUG}/api/authors?populate=*`],
      ['POST', `/p/${SLUG}/graphql`, { query: '{ notes(sort: "title") { documentId title author { name } } }' }],
    ];
    const reader = async (base: string, offset: number) => {
      for (let i = offset; !stop; i++) {
        const [method, path, body] = requests[i % requests.length]!;
        const res = await call(base, method, path, body, apiToken).catch((err: Error) => ({ status: 0, body: String(err) }));
        reads++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 0 || res.status >= 500 || (res.status === 200 && body && (res.body as { errors?: unknown }).errors)) {
          failures.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }
    };
    const readers = [0, 1, 2, 3].flatMap((n) => [reader(a.url, n), reader(b.url, n + 2)]);

    // Each step: the change through A, then B polled until it serves it.
    const propagation: number[] = [];
    const waitOnB = async (served: (keys: string[]) => boolean, what: string) => {
      const started = Date.now();
      for (;;) {
        const res = await call(b.url, 'GET', `/p/${SLUG}/api/notes?pagination[pageSize]=1&status=draft`, undefined, apiToken);
        if (res.status === 200 && served(Object.keys(res.body.data[0] ?? {}))) break;
        assert.ok(Date.now() - started < 1000, `${what}: not served by B within 1 s`);
      }
      propagation.push(Date.now() - started);
    };
    const push = async (body: unknown, what: string) => {
      await new Promise((r) => setTimeout(r, 150)); // let the readers run on the current model
      const res = await call(a.url, 'PUT', `/v1/projects/${SLUG}/schema`, body, session);
      assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    };

    for (let round = 0; round < 2; round++) {
      await push(model(note({ rating: { type: 'integer' } })), 'remove body');
      await waitOnB((keys) => !keys.includes('body'), 'remove body');
      await push(model(note({ body: { type: 'text' }, rating: { type: 'integer' } })), 'add body');
      await waitOnB((keys) => keys.includes('body'), 'add body');
      await push(model(note({ body: { type: 'text' }, score: { type: 'float' } })), 'replace rating by score');
      await waitOnB((keys) => keys.includes('score') && !keys.includes('rating'), 'replace rating');
      await push(model(note({ body: { type: 'text' }, score: { type: 'float' } }), true), 'add a type');
      await push(model(note({ body: { type: 'text' }, score: { type: 'float' } }, false)), 'draft & publish off, drop the type');
      await waitOnB((keys) => keys.includes('score'), 'draft & publish off');
      await push(model(note({ body: { type: 'text' }, rating: { type: 'integer' } })), 'back to the first model');
      await waitOnB((keys) => keys.includes('rating'), 'back');
    }
    stop = true;
    await Promise.all(readers);

    const summary = JSON.stringify(Object.fromEntries(statuses));
    assert.deepEqual(failures, [], `statuses ${summary}`);
    assert.ok(reads > 200, `only ${reads} reads`);
    assert.ok((statuses.get(200) ?? 0) > reads * 0.9, `statuses ${summary}`);
    console.log(`schema-live: ${reads} reads, statuses ${summary}, propagation to B (ms): ${propagation.join(', ')}`);
  });
});
