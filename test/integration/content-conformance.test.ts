// Conformance of the REST content API with docs/content-api-reference.md, end to end through the
// gateway as a customer would drive it: auth matrix, draft & publish, i18n, write-response
// shaping, the v4 response format, pagination, errors, and a seeded property-style fuzz.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { KITCHEN_MODEL } from '../fixtures/kitchen.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Doc = Record<string, unknown> & { id: number; documentId: string };

const envelope = (status: number, name: string, message: string, details: Record<string, unknown> = {}) =>
  ({ data: null, error: { status, name, message, details } });
const FORBIDDEN = envelope(403, 'ForbiddenError', 'Forbidden');
const UNAUTHORIZED = envelope(401, 'UnauthorizedError', 'Missing or invalid credentials');
const NOT_FOUND = envelope(404, 'NotFoundError', 'Not Found');

const show = (res: LightMyRequestResponse) => `${res.statusCode} ${res.body.slice(0, 300)}`;

/** Asserts an error answer: exact status and the full envelope. */
function assertError(res: LightMyRequestResponse, expected: ReturnType<typeof envelope>) {
  assert.equal(res.statusCode, expected.error.status, show(res));
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.deepEqual(res.json(), expected);
}

/** Asserts a 4xx error envelope with a given status and name, whatever the message. */
function assertErrorShape(res: LightMyRequestResponse, status: number, name: string) {
  assert.equal(res.statusCode, status, show(res));
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['data', 'error']);
  assert.equal(body.data, null);
  assert.deepEqual(Object.keys(body.error).sort(), ['details', 'message', 'name', 'status']);
  assert.equal(body.error.status, status);
  assert.equal(body.error.name, name);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.details, 'object');
  assert.notEqual(body.error.details, null);
  return body.error as { status: number; name: string; message: string; details: Record<string, unknown> };
}

describe('REST content API conformance', () => {
  let t: TestApp;
  let p: ContentProject;
  let other: ContentProject;

  const create = async (url: string, data: Record<string, unknown>, client: ContentClient = p.api) => {
    const res = await client.post(url, { data });
    assert.equal(res.statusCode, 201, show(res));
    return res.json().data as Doc;
  };
  const list = async (url: string) => {
    const res = await p.api.get(url);
    assert.equal(res.statusCode, 200, show(res));
    return res.json() as { data: Doc[]; meta: { pagination: Record<string, number> } };
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, KITCHEN_MODEL, ['fr', 'de']);
    other = await setupContentProject(t, KITCHEN_MODEL);
  });
  after(async () => t?.close());

  // ------------------------------------------------------------------------------------------
  describe('auth matrix (reference §7)', () => {
    type Route = 'list' | 'one' | 'create' | 'update' | 'delete' | 'homeGet' | 'homePut' | 'homeDelete';
    const ROUTES: Route[] = ['list', 'one', 'create', 'update', 'delete', 'homeGet', 'homePut', 'homeDelete'];
    type Outcome = 'ok' | 403 | 401;
    const OK_STATUS: Record<Route, number> = { list: 200, one: 200, create: 201, update: 200, delete: 204, homeGet: 200, homePut: 200, homeDelete: 204 };

    let seq = 0;
    /** Runs every route with `client`, on fresh targets seeded with the full-access token. */
    async function runMatrix(label: string, client: ContentClient, expected: Record<Route, Outcome>) {
      const target = await create('/api/restaurants', { name: `Auth ${label} ${seq++}`.slice(0, 40) });
      const home = await p.api.put('/api/homepage', { data: { title: `Home ${label}` } });
      assert.equal(home.statusCode, 200, show(home));
      const send: Record<Route, () => Promise<LightMyRequestResponse>> = {
        list: () => client.get('/api/restaurants'),
        one: () => client.get(`/api/restaurants/${target.documentId}`),
        create: () => client.post('/api/restaurants', { data: { name: `Auth new ${seq++}` } }),
        update: () => client.put(`/api/restaurants/${target.documentId}`, { data: { rating: 2 } }),
        delete: () => client.del(`/api/restaurants/${target.documentId}`),
        homeGet: () => client.get('/api/homepage'),
        homePut: () => client.put('/api/homepage', { data: { title: `Home ${label} 2` } }),
        homeDelete: () => client.del('/api/homepage'),
      };
      for (const route of ROUTES) {
        const res = await send[route]();
        const want = expected[route];
        const where = `${label} ${route}`;
        if (want === 'ok') {
          assert.equal(res.statusCode, OK_STATUS[route], `${where}: ${show(res)}`);
          if (res.statusCode === 204) assert.equal(res.body, '', where);
          else {
            const body = res.json();
            assert.equal(body.error, undefined, where);
            if (route === 'list') assert.ok(Array.isArray(body.data) && body.meta.pagination, where);
            else assert.equal(typeof body.data.documentId, 'string', where);
          }
        } else {
          assert.equal(res.statusCode, want, `${where}: ${show(res)}`);
          assert.deepEqual(res.json(), want === 403 ? FORBIDDEN : UNAUTHORIZED, where);
        }
      }
      // what was refused did not happen
      const after = await p.api.get(`/api/restaurants/${target.documentId}`);
      if (expected.delete !== 'ok') {
        assert.equal(after.statusCode, 200, `${label}: refused DELETE kept the document`);
        if (expected.update !== 'ok') assert.equal(after.json().data.rating, null, `${label}: refused PUT wrote nothing`);
      } else assert.equal(after.statusCode, 404);
    }

    const all = (o: Outcome): Record<Route, Outcome> => Object.fromEntries(ROUTES.map((r) => [r, o])) as Record<Route, Outcome>;

    it('anonymous without public permissions: 403 everywhere (ours, not 401); another scheme is anonymous', async () => {
      await p.setPublic({});
      await runMatrix('anon-none', p.client(null), all(403));
      const tokenScheme: ContentClient = {
        ...p.client(null),
        get: (url) => p.client(null).raw('GET', url, { headers: { authorization: 'Token x' } }),
        post: (url, payload) => p.client(null).raw('POST', url, { payload: payload as object, headers: { authorization: 'Token x' } }),
        put: (url, payload) => p.client(null).raw('PUT', url, { payload: payload as object, headers: { authorization: 'Token x' } }),
        del: (url) => p.client(null).raw('DELETE', url, { headers: { authorization: 'Token x' } }),
      };
      await runMatrix('token-scheme', tokenScheme, all(403));
    });

    it('anonymous with public find on restaurants only', async () => {
      await p.setPublic({ 'api::restaurant.restaurant': ['find'] });
      try {
        await runMatrix('anon-find', p.client(null), { ...all(403), list: 'ok' });
        const scheme = await p.client(null).raw('GET', '/api/restaurants', { headers: { authorization: 'Token x' } });
        assert.equal(scheme.statusCode, 200, 'another scheme is anonymous, so the public role applies');
        const bad = await p.client('f'.repeat(256)).get('/api/restaurants');
        assertError(bad, UNAUTHORIZED); // an unknown token is 401 even on a public route
      } finally {
        await p.setPublic({});
      }
    });

    it('read-only token: find + findOne only', async () => {
      await runMatrix('read-only', p.client(await p.token('read-only')), { ...all(403), list: 'ok', one: 'ok', homeGet: 'ok' });
    });

    it('full-access token: everything', async () => {
      await runMatrix('full-access', p.client(await p.token('full-access')), all('ok'));
    });

    it('custom token with find, findOne, create on restaurants', async () => {
      const key = await p.token('custom', { 'api::restaurant.restaurant': ['find', 'findOne', 'create'] });
      await runMatrix('custom', p.client(key), { ...all(403), list: 'ok', one: 'ok', create: 'ok' });
    });

    it('unknown 256-hex token: 401 everywhere', async () => {
      await runMatrix('unknown', p.client('0123456789abcdef'.repeat(16)), all(401));
    });

    it("another project's token: 401 everywhere", async () => {
      await runMatrix('foreign', p.client(await other.token('full-access')), all(401));
    });

    it('Bearer scheme is case-insensitive; a three-part Authorization header is refused', async () => {
      const key = await p.token('read-only');
      const lower = await p.client(null).raw('GET', '/api/restaurants', { headers: { authorization: `bearer ${key}` } });
      assert.equal(lower.statusCode, 200, show(lower));
      const three = await p.client(null).raw('GET', '/api/restaurants', { headers: { authorization: `Bearer ${key} extra` } });
      assert.notEqual(three.statusCode, 200, 'exactly two parts');
      assert.ok(three.statusCode === 401 || three.statusCode === 403, show(three));
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('draft & publish reads (reference §4)', () => {
    let pub: Doc;
    let draftOnly: Doc;
    const names = (docs: Doc[]) => docs.map((d) => d.name);
    before(async () => {
      pub = await create('/api/restaurants', { name: 'DP published', rating: 3 });
      await p.api.put(`/api/restaurants/${pub.documentId}?status=draft`, { data: { rating: 4 } });
      const res = await p.api.post('/api/restaurants?status=draft', { data: { name: 'DP draft only' } });
      assert.equal(res.statusCode, 201, show(res));
      draftOnly = res.json().data;
    });

    it('list and GET one default to published rows', async () => {
      const body = await list('/api/restaurants?filters[name][$startsWith]=DP%20&sort=name');
      assert.deepEqual(names(body.data), ['DP published']);
      assert.equal(body.data[0]!.rating, 3);
      assert.match(String(body.data[0]!.publishedAt), ISO);
      assert.deepEqual(body.meta.pagination, { page: 1, pageSize: 25, pageCount: 1, total: 1 });
      const one = await p.api.get(`/api/restaurants/${pub.documentId}`);
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json().meta, {});
      assert.equal(one.json().data.rating, 3);
      assert.equal(one.json().data.documentId, pub.documentId);
      const explicit = await p.api.get(`/api/restaurants/${pub.documentId}?status=published`);
      assert.deepEqual(explicit.json().data, one.json().data);
    });

    it('?status=draft lists every draft row, published or not', async () => {
      const body = await list('/api/restaurants?filters[name][$startsWith]=DP%20&sort=name&status=draft');
      assert.deepEqual(names(body.data), ['DP draft only', 'DP published']);
      assert.deepEqual(body.data.map((d) => d.publishedAt), [null, null]);
      assert.equal(body.data[1]!.rating, 4, 'the draft carries the draft-only change');
      const one = await p.api.get(`/api/restaurants/${pub.documentId}?status=draft`);
      assert.equal(one.json().data.rating, 4);
      assert.equal(one.json().data.publishedAt, null);
    });

    it('a draft-only document is 404 without status, 200 with status=draft', async () => {
      assertError(await p.api.get(`/api/restaurants/${draftOnly.documentId}`), NOT_FOUND);
      const draft = await p.api.get(`/api/restaurants/${draftOnly.documentId}?status=draft`);
      assert.equal(draft.statusCode, 200);
      assert.equal(draft.json().data.name, 'DP draft only');
    });

    it('status=bogus → 400 ValidationError on list, GET one, POST and PUT', async () => {
      for (const res of [
        await p.api.get('/api/restaurants?status=bogus'),
        await p.api.get(`/api/restaurants/${pub.documentId}?status=bogus`),
        await p.api.post('/api/restaurants?status=bogus', { data: { name: 'DP bogus' } }),
        await p.api.put(`/api/restaurants/${pub.documentId}?status=bogus`, { data: { rating: 1 } }),
      ]) assertErrorShape(res, 400, 'ValidationError');
      assert.equal((await p.api.get(`/api/restaurants/${pub.documentId}?status=draft`)).json().data.rating, 4, 'nothing written');
    });

    it('types without D&P ignore status and always have publishedAt', async () => {
      const chef = await create('/api/chefs', { name: 'DP chef' });
      assert.match(String(chef.publishedAt), ISO);
      const plain = await p.api.get(`/api/chefs/${chef.documentId}`);
      const draft = await p.api.get(`/api/chefs/${chef.documentId}?status=draft`);
      assert.equal(draft.statusCode, 200);
      assert.deepEqual(draft.json(), plain.json());
      const draftList = await list('/api/chefs?status=draft&filters[name][$eq]=DP%20chef');
      assert.deepEqual(draftList.data, [plain.json().data]);
      const created = await p.api.post('/api/chefs?status=draft', { data: { name: 'DP chef 2' } });
      assert.equal(created.statusCode, 201);
      assert.match(created.json().data.publishedAt, ISO, 'status=draft is ignored on create too');
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('i18n reads (reference §5)', () => {
    let both: Doc;
    let frOnly: Doc;
    const q = '/api/restaurants?filters[name][$startsWith]=L%20&sort=name';
    before(async () => {
      both = await create('/api/restaurants', { name: 'L en', rating: 2 });
      const fr = await p.api.put(`/api/restaurants/${both.documentId}?locale=fr`, { data: { name: 'L fr' } });
      assert.equal(fr.statusCode, 200, show(fr));
      frOnly = await create('/api/restaurants?locale=fr', { name: 'L fr only' });
    });

    it('list defaults to the default locale; ?locale=fr lists fr', async () => {
      const en = await list(q);
      assert.deepEqual(en.data.map((d) => [d.name, d.locale]), [['L en', 'en']]);
      const fr = await list(`${q}&locale=fr`);
      assert.deepEqual(fr.data.map((d) => [d.name, d.locale, d.rating]), [['L fr', 'fr', 2], ['L fr only', 'fr', null]]);
      assert.equal(fr.meta.pagination.total, 2);
    });

    it('?locale=* lists every locale; a comma list matches nothing; an unknown locale is 200 []', async () => {
      const all = await list(`${q}&locale=*`);
      assert.deepEqual(all.data.map((d) => [d.name, d.locale]), [['L en', 'en'], ['L fr', 'fr'], ['L fr only', 'fr']]);
      assert.equal(all.meta.pagination.total, 3);
      const comma = await list(`${q}&locale=fr,de`);
      assert.deepEqual(comma.data, []);
      const xx = await p.api.get(`${q}&locale=xx`);
      assert.equal(xx.statusCode, 200);
      assert.deepEqual(xx.json(), { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    });

    it('GET one: ?locale=* → 404; a locale without a version → 404; the right version otherwise', async () => {
      assertError(await p.api.get(`/api/restaurants/${both.documentId}?locale=*`), NOT_FOUND);
      assertError(await p.api.get(`/api/restaurants/${both.documentId}?locale=de`), NOT_FOUND);
      assertError(await p.api.get(`/api/restaurants/${frOnly.documentId}`), NOT_FOUND);
      const fr = await p.api.get(`/api/restaurants/${both.documentId}?locale=fr`);
      assert.equal(fr.statusCode, 200);
      assert.deepEqual([fr.json().data.name, fr.json().data.locale, fr.json().data.documentId], ['L fr', 'fr', both.documentId]);
      assert.deepEqual(fr.json().meta, {}, 'an object, not a paginated array (reference §5 vs spec)');
      assert.equal((await p.api.get(`/api/restaurants/${frOnly.documentId}?locale=fr`)).json().data.name, 'L fr only');
    });

    it('non-localized types ignore locale and have no locale key', async () => {
      const chef = await create('/api/chefs', { name: 'L chef' });
      assert.equal('locale' in chef, false);
      for (const locale of ['fr', 'xx', '*']) {
        const one = await p.api.get(`/api/chefs/${chef.documentId}?locale=${encodeURIComponent(locale)}`);
        assert.equal(one.statusCode, 200, `${locale}: ${show(one)}`);
        assert.equal(one.json().data.name, 'L chef');
        const l = await list(`/api/chefs?filters[name][$eq]=L%20chef&locale=${encodeURIComponent(locale)}`);
        assert.deepEqual(l.data.map((d) => d.name), ['L chef'], locale);
      }
      const created = await create('/api/chefs?locale=fr', { name: 'L chef fr' });
      assert.equal('locale' in created, false);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('populate and fields shape write responses (reference §3.1)', () => {
    const shape = '?populate[chef][fields][0]=name&fields[0]=name';
    it('POST answers id, documentId, the fields and the populated key only', async () => {
      const chef = await create('/api/chefs', { name: 'Shaped chef' });
      const res = await p.api.post(`/api/restaurants${shape}`, { data: { name: 'Shaped', rating: 5, chef: chef.documentId } });
      assert.equal(res.statusCode, 201, show(res));
      const d = res.json().data;
      assert.deepEqual(Object.keys(d).sort(), ['chef', 'documentId', 'id', 'name']);
      assert.equal(d.name, 'Shaped');
      assert.deepEqual(d.chef, { id: d.chef.id, documentId: chef.documentId, name: 'Shaped chef' });
      assert.equal(typeof d.chef.id, 'number');
      assert.deepEqual(res.json().meta, {});

      const put = await p.api.put(`/api/restaurants/${d.documentId}${shape}`, { data: { rating: 1, chef: null } });
      assert.equal(put.statusCode, 200, show(put));
      assert.deepEqual(put.json().data, { id: put.json().data.id, documentId: d.documentId, name: 'Shaped', chef: null });

      const draft = await p.api.put(`/api/restaurants/${d.documentId}?status=draft&fields[0]=rating&populate[chef][fields][0]=name`, { data: { chef: chef.documentId } });
      assert.deepEqual(draft.json().data, { id: draft.json().data.id, documentId: d.documentId, rating: 1, chef: { id: d.chef.id, documentId: chef.documentId, name: 'Shaped chef' } });
    });

    it('single-type PUT and a bad fields key on POST', async () => {
      const home = await p.api.put('/api/homepage?fields[0]=title', { data: { title: 'Shaped home' } });
      assert.equal(home.statusCode, 200, show(home));
      assert.deepEqual(home.json().data, { id: home.json().data.id, documentId: home.json().data.documentId, title: 'Shaped home' });
      const bad = await p.api.post('/api/restaurants?fields[0]=chef', { data: { name: 'Shaped bad' } });
      assertError(bad, envelope(400, 'ValidationError', 'Invalid key chef', { key: 'chef', path: 'chef', source: 'query', param: 'fields' }));
    });

    it('a write refused for its query writes nothing', async () => {
      const problems: string[] = [];
      const bad = await p.api.post('/api/restaurants?fields[0]=chef', { data: { name: 'Query refused' } });
      assert.equal(bad.statusCode, 400);
      const written = await list('/api/restaurants?filters[name][$eq]=Query%20refused&status=draft');
      if (written.data.length) problems.push('POST ?fields[0]=chef → 400 but the document was created');
      const d = await create('/api/restaurants', { name: 'Query refused put', rating: 1 });
      const put = await p.api.put(`/api/restaurants/${d.documentId}?populate=nope`, { data: { rating: 5 } });
      assertError(put, envelope(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: 'nope', source: 'query', param: 'populate' }));
      const rating = (await p.api.get(`/api/restaurants/${d.documentId}`)).json().data.rating;
      if (rating !== 1) problems.push(`PUT ?populate=nope → 400 but rating became ${rating}`);
      assert.deepEqual(problems, []);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('Strapi-Response-Format: v4 (reference §10)', () => {
    const V4 = { 'strapi-response-format': 'v4' };
    let chef: Doc;
    let cat: Doc;
    let r: Doc;
    const populate = 'populate[chef][fields][0]=name&populate[categories][fields][0]=name&populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[sections]=true&populate[blocks]=true';
    before(async () => {
      chef = await create('/api/chefs', { name: 'V4 chef' });
      cat = await create('/api/categories', { name: 'V4 cat' });
      r = await create('/api/restaurants', {
        name: 'V4 R1', rating: 4, chef: chef.documentId, categories: [cat.documentId],
        seo: { metaTitle: 'T' }, sections: [{ body: 's1' }], blocks: [{ __component: 'shared.quote', body: 'Q', author: 'A' }],
      });
    });

    it('GET list: data is an array of {id, documentId, attributes}; meta unchanged', async () => {
      const res = await p.api.get('/api/restaurants?filters[name][$eq]=V4%20R1', V4);
      assert.equal(res.statusCode, 200, show(res));
      const plain = (await p.api.get('/api/restaurants?filters[name][$eq]=V4%20R1')).json();
      const { id, documentId, ...rest } = plain.data[0];
      assert.deepEqual(res.json(), { data: [{ id, documentId, attributes: rest }], meta: plain.meta });
    });

    it('GET one: relations wrapped in {data}, media {data:null|[]}, components flat', async () => {
      const res = await p.api.get(`/api/restaurants/${r.documentId}?${populate}`, V4);
      assert.equal(res.statusCode, 200, show(res));
      const plain = (await p.api.get(`/api/restaurants/${r.documentId}?${populate}`)).json().data;
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['data', 'meta']);
      assert.deepEqual(body.meta, {});
      assert.deepEqual(Object.keys(body.data), ['id', 'documentId', 'attributes']);
      assert.equal(body.data.id, plain.id);
      assert.equal(body.data.documentId, r.documentId);
      const a = body.data.attributes;
      assert.equal('id' in a, false);
      assert.equal('documentId' in a, false);
      assert.equal(a.name, 'V4 R1');
      assert.equal(a.rating, 4);
      assert.match(a.publishedAt, ISO);
      assert.equal(a.locale, 'en');
      assert.deepEqual(a.chef, { data: { id: plain.chef.id, documentId: chef.documentId, attributes: { name: 'V4 chef' } } });
      assert.deepEqual(a.categories, { data: [{ id: plain.categories[0].id, documentId: cat.documentId, attributes: { name: 'V4 cat' } }] });
      assert.deepEqual(a.cover, { data: null });
      assert.deepEqual(a.gallery, { data: [] });
      assert.deepEqual(a.seo, plain.seo);
      assert.deepEqual(a.seo, { id: plain.seo.id, metaTitle: 'T', metaDescription: null });
      assert.deepEqual(a.sections, [{ id: plain.sections[0].id, body: 's1', author: null }]);
      assert.deepEqual(a.blocks, [{ id: plain.blocks[0].id, body: 'Q', author: 'A', __component: 'shared.quote' }]);
    });

    it('GET one: an empty to-one is {data:null}, an empty to-many {data:[]}', async () => {
      const bare = await create('/api/restaurants', { name: 'V4 bare' });
      const res = await p.api.get(`/api/restaurants/${bare.documentId}?populate[chef]=true&populate[categories]=true&fields[0]=name`, V4);
      assert.deepEqual(res.json().data, { id: res.json().data.id, documentId: bare.documentId, attributes: { name: 'V4 bare', chef: { data: null }, categories: { data: [] } } });
    });

    it('POST and PUT answer in v4 shape; single types too', async () => {
      const post = await p.api.post('/api/restaurants?fields[0]=name&populate[chef][fields][0]=name', { data: { name: 'V4 posted', chef: chef.documentId } }, V4);
      assert.equal(post.statusCode, 201, show(post));
      const d = post.json().data;
      assert.deepEqual(Object.keys(d), ['id', 'documentId', 'attributes']);
      assert.deepEqual(d.attributes, { name: 'V4 posted', chef: { data: { id: d.attributes.chef.data.id, documentId: chef.documentId, attributes: { name: 'V4 chef' } } } });
      const put = await p.api.put(`/api/restaurants/${d.documentId}?fields[0]=rating`, { data: { rating: 2 } }, V4);
      assert.deepEqual(put.json(), { data: { id: put.json().data.id, documentId: d.documentId, attributes: { rating: 2 } }, meta: {} });
      const home = await p.api.put('/api/homepage?fields[0]=title', { data: { title: 'V4 home' } }, V4);
      assert.deepEqual(home.json().data.attributes, { title: 'V4 home' });
      const chefV4 = await p.api.get(`/api/chefs/${chef.documentId}?fields[0]=name&populate[restaurants][count]=true`, V4);
      assert.deepEqual(chefV4.json().data.attributes, { name: 'V4 chef', restaurants: { data: { attributes: { count: 2 } } } });
    });

    it('errors are unchanged; only the exact value v4 switches the format', async () => {
      assertError(await p.api.get('/api/restaurants/nope', V4), NOT_FOUND);
      assertError(await p.api.post('/api/restaurants', { data: { name: 'V4 posted', nope: 1 } }, V4),
        envelope(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'body' }));
      for (const value of ['v5', 'V4x', '']) {
        const res = await p.api.get(`/api/restaurants/${r.documentId}?fields[0]=name`, { 'strapi-response-format': value });
        assert.deepEqual(res.json().data, { id: res.json().data.id, documentId: r.documentId, name: 'V4 R1' }, value);
      }
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('pagination (reference §3.2)', () => {
    const N = 7;
    const base = '/api/chefs?filters[name][$startsWith]=PG%20';
    const names = (docs: Doc[]) => docs.map((d) => d.name);
    before(async () => {
      for (let i = 0; i < N; i++) await create('/api/chefs', { name: `PG ${i}` });
    });

    it('defaults and page/pageSize', async () => {
      const all = await list(base);
      assert.deepEqual(all.meta, { pagination: { page: 1, pageSize: 25, pageCount: 1, total: N } });
      assert.deepEqual(names(all.data), Array.from({ length: N }, (_, i) => `PG ${i}`), 'ORDER BY id');
      const p2 = await list(`${base}&pagination[page]=2&pagination[pageSize]=3`);
      assert.deepEqual(p2.meta.pagination, { page: 2, pageSize: 3, pageCount: 3, total: N });
      assert.deepEqual(names(p2.data), ['PG 3', 'PG 4', 'PG 5']);
      const p3 = await list(`${base}&pagination[page]=3&pagination[pageSize]=3&sort=name:desc`);
      assert.deepEqual(names(p3.data), ['PG 0']);
      const far = await list(`${base}&pagination[page]=9999`);
      assert.deepEqual(far, { data: [], meta: { pagination: { page: 9999, pageSize: 25, pageCount: 1, total: N } } });
      const none = await list('/api/chefs?filters[name][$eq]=PG%20none');
      assert.deepEqual(none.meta.pagination, { page: 1, pageSize: 25, pageCount: 0, total: 0 });
    });

    it('clamping: pageSize > maxLimit → 100; page ≤ 0 → 1; pageSize/limit ≤ 0 → 1', async () => {
      assert.deepEqual((await list(`${base}&pagination[pageSize]=1000`)).meta.pagination, { page: 1, pageSize: 100, pageCount: 1, total: N });
      assert.deepEqual((await list(`${base}&pagination[page]=0&pagination[pageSize]=2`)).meta.pagination, { page: 1, pageSize: 2, pageCount: 4, total: N });
      assert.deepEqual((await list(`${base}&pagination[page]=-3&pagination[pageSize]=2`)).meta.pagination, { page: 1, pageSize: 2, pageCount: 4, total: N });
      for (const v of ['0', '-1']) {
        const l = await list(`${base}&pagination[pageSize]=${v}`);
        assert.deepEqual(l.meta.pagination, { page: 1, pageSize: 1, pageCount: N, total: N }, v);
        assert.equal(l.data.length, 1);
      }
      const lim = await list(`${base}&pagination[limit]=-1`);
      assert.deepEqual(lim.meta.pagination, { start: 0, limit: 1, total: N });
    });

    it('start/limit', async () => {
      const l = await list(`${base}&pagination[start]=2&pagination[limit]=3`);
      assert.deepEqual(l.meta, { pagination: { start: 2, limit: 3, total: N } });
      assert.deepEqual(names(l.data), ['PG 2', 'PG 3', 'PG 4']);
      const tail = await list(`${base}&pagination[start]=6&pagination[limit]=3`);
      assert.deepEqual(names(tail.data), ['PG 6']);
    });

    it('withCount=false drops pageCount and total', async () => {
      const l = await list(`${base}&pagination[pageSize]=2&pagination[withCount]=false`);
      assert.deepEqual(l.meta, { pagination: { page: 1, pageSize: 2 } });
      assert.deepEqual(names(l.data), ['PG 0', 'PG 1']);
      const o = await list(`${base}&pagination[start]=1&pagination[limit]=2&pagination[withCount]=0`);
      assert.deepEqual(o.meta, { pagination: { start: 1, limit: 2 } });
      assert.deepEqual((await list(`${base}&pagination[withCount]=t`)).meta.pagination, { page: 1, pageSize: 25, pageCount: 1, total: N });
      assertError(await p.api.get(`${base}&pagination[withCount]=maybe`),
        envelope(400, 'ValidationError', 'Invalid withCount parameter. Expected "t","1","true","false","0","f"'));
    });

    it('errors: mixing → PaginationError; non-numeric → ValidationError', async () => {
      const mixed = 'Cannot use both page & offset pagination in the same query';
      assertError(await p.api.get(`${base}&pagination[page]=1&pagination[limit]=2`), envelope(400, 'PaginationError', mixed));
      assertError(await p.api.get(`${base}&pagination[pageSize]=1&pagination[start]=2`), envelope(400, 'PaginationError', mixed));
      const nan = envelope(400, 'ValidationError', 'convertStartQueryParams expected a positive integer got NaN');
      assertError(await p.api.get(`${base}&pagination[start]=abc`), nan);
      assertErrorShape(await p.api.get(`${base}&pagination[page]=abc`), 400, 'ValidationError');
      assertErrorShape(await p.api.get(`${base}&pagination[pageSize]=abc`), 400, 'ValidationError');
      assertErrorShape(await p.api.get(`${base}&pagination[limit]=abc`), 400, 'ValidationError');
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('errors (reference §1, §3)', () => {
    let r: Doc;
    before(async () => {
      r = await create('/api/restaurants', { name: 'Err R1', rating: 3 });
    });

    it('unknown content type, documentId and single-type sub-path → 404 envelope', async () => {
      for (const url of ['/api/nopes', '/api/nopes/abc', '/api/homepage/x', '/api/restaurants/doesnotexist', '/api/chefs/doesnotexist']) {
        assertError(await p.api.get(url), NOT_FOUND);
      }
      assertError(await p.api.put('/api/nopes/abc', { data: {} }), NOT_FOUND);
      assertError(await p.api.post('/api/nopes', { data: {} }), NOT_FOUND);
      assertError(await p.api.put('/api/restaurants/doesnotexist', { data: { rating: 1 } }), NOT_FOUND);
      const del = await p.api.del('/api/restaurants/doesnotexist');
      assert.equal(del.statusCode, 204, 'DELETE of an unknown documentId is 204');
      assert.equal(del.body, '');
    });

    it('filters[nope][$eq]=1 → 400 Invalid key nope with query details', async () => {
      assertError(await p.api.get('/api/restaurants?filters[nope][$eq]=1'),
        envelope(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'filters' }));
      assertError(await p.api.get('/api/restaurants?filters[name][$nope]=1'),
        envelope(400, 'ValidationError', 'Invalid key $nope at name', { key: '$nope', path: 'name', source: 'query', param: 'filters' }));
      assertError(await p.api.get('/api/restaurants?sort=nope'),
        envelope(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'sort' }));
      assertError(await p.api.get('/api/restaurants?populate=nope'),
        envelope(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: 'nope', source: 'query', param: 'populate' }));
      assertError(await p.api.get('/api/restaurants?fields[0]=chef'),
        envelope(400, 'ValidationError', 'Invalid key chef', { key: 'chef', path: 'chef', source: 'query', param: 'fields' }));
      assertError(await p.api.get(`/api/restaurants/${r.documentId}?filters[nope][$eq]=1`),
        envelope(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'filters' }));
      // private and password attributes name their own path (reference §1.3), at any depth
      for (const key of ['pin', 'secret']) {
        for (const query of [`filters[${key}][$eq]=1`, `filters[$and][0][${key}][$eq]=1`, `filters[$or][0][$not][${key}][$eq]=1`]) {
          const res = await p.api.get(`/api/restaurants?${query}`);
          assertError(res, envelope(400, 'ValidationError', `Invalid key ${key}`, { key, path: key, source: 'query', param: 'filters' }));
        }
        assertError(await p.api.get(`/api/restaurants?sort=${key}:desc`),
          envelope(400, 'ValidationError', `Invalid key ${key}`, { key, path: key, source: 'query', param: 'sort' }));
      }
      const popPag = await p.api.get('/api/restaurants?populate[categories][pagination][limit]=1');
      const e = assertErrorShape(popPag, 400, 'ValidationError');
      assert.equal(e.message, 'Invalid key pagination at categories');
      assert.equal(e.details.path, 'categories');
    });

    it('a dynamic zone in filters → 400 Invalid key blocks', async () => {
      assertError(await p.api.get('/api/restaurants?filters[blocks][$eq]=1'),
        envelope(400, 'ValidationError', 'Invalid key blocks', { key: 'blocks', path: null, source: 'query', param: 'filters' }));
    });

    it('sort=name:sideways → 400 with details {}', async () => {
      assertError(await p.api.get('/api/restaurants?sort=name:sideways'),
        envelope(400, 'ValidationError', 'Invalid order. order can only be one of asc|desc|ASC|DESC'));
    });

    it('filters[rating][$gt]=abc → 400 ValidationError (Strapi: 500)', async () => {
      for (const url of ['/api/restaurants?filters[rating][$gt]=abc', '/api/restaurants?filters[openedOn][$eq]=notadate',
        '/api/restaurants?filters[rating][$in][0]=1&filters[rating][$in][1]=x', '/api/restaurants?filters[lastVisit][$lt]=yesterday',
        '/api/restaurants?filters[visits][$eq]=99999999999999999999999999', '/api/restaurants?filters[id][$eq]=1.5']) {
        const res = await p.api.get(url);
        const e = assertErrorShape(res, 400, 'ValidationError');
        assert.equal(e.details.source, 'query', url);
        assert.equal(e.details.param, 'filters', url);
      }
    });

    it('PATCH → 405 with Allow; POST on a single type → 405', async () => {
      const allowed = envelope(405, 'MethodNotAllowedError', 'Method Not Allowed');
      const patchOne = await p.api.raw('PATCH', `/api/restaurants/${r.documentId}`, { payload: { data: { rating: 1 } } });
      assertError(patchOne, allowed);
      assert.equal(patchOne.headers.allow, 'GET, PUT, DELETE');
      const patchList = await p.api.raw('PATCH', '/api/restaurants', { payload: { data: {} } });
      assertError(patchList, allowed);
      assert.equal(patchList.headers.allow, 'GET, POST');
      const postHome = await p.api.post('/api/homepage', { data: { title: 'x' } });
      assertError(postHome, allowed);
      assert.equal((await p.api.get(`/api/restaurants/${r.documentId}`)).json().data.rating, 3, 'PATCH wrote nothing');
    });

    it('PATCH on a single type → 405 with Allow: GET, PUT, DELETE', async () => {
      const patchHome = await p.api.raw('PATCH', '/api/homepage', { payload: { data: {} } });
      assertError(patchHome, envelope(405, 'MethodNotAllowedError', 'Method Not Allowed'));
      assert.equal(patchHome.headers.allow, 'GET, PUT, DELETE');
    });

    it('quirks we match or fix: media filters match nothing, populate[rel]=* nests, populate=* adds localizations', async () => {
      const chef = await create('/api/chefs', { name: 'Err chef' });
      const d = await create('/api/restaurants', { name: 'Err R2', chef: chef.documentId });
      const media = await p.api.get('/api/restaurants?filters[cover][id][$eq]=1');
      assert.equal(media.statusCode, 200, show(media));
      assert.deepEqual(media.json().data, []);
      const star = await p.api.get(`/api/restaurants/${d.documentId}?populate[chef]=*&fields[0]=name`);
      assert.equal(star.statusCode, 200, show(star));
      assert.equal(star.json().data.chef.name, 'Err chef');
      assert.deepEqual(star.json().data.chef.restaurants.map((x: Doc) => x.name), ['Err R2']);
      const all = await p.api.get(`/api/restaurants/${d.documentId}?populate=*&fields[0]=name`);
      assert.equal(all.statusCode, 200, show(all));
      const data = all.json().data;
      assert.deepEqual(Object.keys(data).sort(), ['blocks', 'categories', 'chef', 'cover', 'documentId', 'gallery', 'id', 'localizations', 'name', 'sections', 'seo']);
      assert.deepEqual([data.localizations, data.categories, data.cover, data.gallery, data.seo, data.blocks, data.sections], [[], [], null, [], null, [], []]);
      assert.equal(data.chef.name, 'Err chef');
    });

    it('unknown top-level query keys are ignored', async () => {
      const res = await p.api.get('/api/restaurants?foo=bar&filters[name][$eq]=Err%20R1');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json().data.map((d: Doc) => d.name), ['Err R1']);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('property-style: random queries and bodies never 5xx (reference §11 #3, #19, #21)', () => {
    /** mulberry32: small, seeded, reproducible. */
    const prng = (seed: number) => () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261123);
    const rand = prng(SEED);
    const int = (n: number) => Math.floor(rand() * n);
    const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
    const chance = (p: number) => rand() < p;

    const FIELDS = ['name', 'rating', 'price', 'open', 'openedOn', 'opensAt', 'lastVisit', 'visits', 'score', 'email', 'kind', 'code',
      'tags', 'description', 'id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;
    const RELATIONAL = ['chef', 'categories', 'cover', 'gallery', 'seo', 'blocks', 'sections', 'localizations'] as const;
    const GARBAGE_KEYS = ['__proto__', 'constructor', 'prototype', 'nope', '', '$eq', 'name.x', 'chef.name', 'pin', 'secret', 'toString', 'hasOwnProperty', '0', '-1', ' name', 'NAME', '\u0000', '[', ']'];
    const OPS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$between', '$contains', '$notContains',
      '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$null', '$notNull'] as const;
    const GARBAGE_OPS = ['$nope', 'eq', '$', '__proto__', '$EQ', '$or', '$and', '$not', 'constructor', '$in[', '$$eq'];
    const bigString = (n: number) => 'x'.repeat(n);
    const VALUES: Array<() => string> = [
      () => String(int(10)), () => String(int(1_000_000) - 500_000), () => (rand() * 100).toFixed(3), () => 'abc', () => '', () => 'null', () => 'true',
      () => 'false', () => 't', () => '\u0000', () => 'a\u0000b', () => '%', () => '_', () => '\\', () => "'; DROP TABLE ct_restaurant; --",
      () => bigString(10 * 1024), () => '☃ 🍕', () => '99999999999999999999999999999', () => '1e309', () => '-1', () => 'NaN', () => 'Infinity',
      () => '2024-02-30', () => '2024-01-01', () => '2024-01-01T00:00:00Z', () => '10:30:00', () => '25:99', () => 'bistro', () => pick(['en', 'fr', '*']),
      () => '__proto__', () => '{"a":1}', () => '[1,2]', () => 'L en', () => 'PG 1', () => '0x10', () => ' 1 ', () => '1.5', () => '0',
    ];
    const enc = (v: string) => encodeURIComponent(v);
    /** A raw (already encoded) value; sometimes a malformed percent sequence or invalid UTF-8. */
    const value = () => {
      if (clean) return enc(pick(['abc', 'L en', 'Fuzz target', '%', '_', '\\', "'; DROP TABLE ct_restaurant; --", '☃ 🍕', '', 'bistro']));
      if (chance(0.04)) return pick(['%zz', '%', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF%FE', '%00']);
      return enc(pick(VALUES)());
    };
    /** About half of the queries are well-formed (string fields, valid operators), to reach the SQL paths too. */
    let clean = false;
    const STRING_FIELDS = ['name', 'email', 'kind', 'code', 'documentId'] as const;
    const STRING_OPS = OPS.filter((o) => o !== '$null' && o !== '$notNull');
    const key = (k: string) => (chance(0.08) ? `%5B${enc(k)}%5D` : `[${enc(k)}]`);
    const field = () => (clean ? pick(STRING_FIELDS) : chance(0.75) ? pick(FIELDS) : chance(0.6) ? pick(RELATIONAL) : pick(GARBAGE_KEYS));
    const op = () => (clean ? pick(STRING_OPS) : chance(0.88) ? pick(OPS) : pick(GARBAGE_OPS));

    function filters(prefix: string, depth: number, out: string[]) {
      const r = rand();
      if (depth > 0 && r < 0.2) {
        const logical = pick(['$or', '$and']);
        const n = 1 + int(3);
        for (let i = 0; i < n; i++) filters(`${prefix}${key(logical)}[${i}]`, depth - 1, out);
      } else if (depth > 0 && r < 0.28) {
        filters(`${prefix}${key('$not')}`, depth - 1, out);
      } else if (depth > 0 && r < 0.4) {
        if (clean) out.push(`${prefix}${key(pick(['chef', 'categories']))}[name]${key(op())}=${value()}`);
        else filters(`${prefix}${key(pick(['chef', 'categories', 'seo', 'sections', 'cover', 'blocks']))}`, depth - 1, out);
      } else if (r < 0.5) {
        out.push(`${prefix}${key(field())}=${value()}`);
      } else {
        const o = op();
        const base = `${prefix}${key(field())}${key(o)}`;
        if (o === '$in' || o === '$notIn' || o === '$between') {
          const n = int(4);
          for (let i = 0; i < n; i++) out.push(`${base}[${chance(0.9) ? i : 'x'}]=${value()}`);
          if (n === 0) out.push(`${base}=${value()}`);
        } else out.push(`${base}=${value()}`);
      }
    }

    function populate(prefix: string, depth: number, out: string[]) {
      const r = rand();
      if (r < 0.15) out.push(`${prefix}=${enc(pick(['*', 'chef', 'chef,seo', 'categories,cover', 'nope', '', 'true', '__proto__', 'blocks,sections,gallery']))}`);
      else if (r < 0.25) out.push(`${prefix}[${int(3)}]=${enc(pick(RELATIONAL))}`);
      else {
        const target = `${prefix}${key(chance(0.85) ? pick(RELATIONAL) : pick(GARBAGE_KEYS))}`;
        const what = int(9);
        if (what === 0) out.push(`${target}=${pick(['true', '*', 'false', 'x'])}`);
        else if (what === 1) out.push(`${target}[fields][${int(2)}]=${enc(field())}`);
        else if (what === 2) filters(`${target}[filters]`, 1, out);
        else if (what === 3) out.push(`${target}[sort]=${enc(pick(['name:desc', 'name', 'nope', 'name:sideways']))}`);
        else if (what === 4 && depth > 0) populate(`${target}[populate]`, depth - 1, out);
        else if (what === 5) out.push(`${target}[count]=${pick(['true', 'false', 'maybe'])}`);
        else if (what === 6) out.push(`${target}[on][${enc(pick(['shared.quote', 'shared.seo', 'shared.nope']))}][fields][0]=${enc(pick(['body', 'metaTitle', 'nope']))}`);
        else if (what === 7) out.push(`${target}[pagination][limit]=1`);
        else out.push(`${target}[${enc(pick(GARBAGE_KEYS))}]=${value()}`);
      }
    }

    function randomQuery(): string {
      clean = chance(0.5);
      const out: string[] = [];
      if (chance(0.6)) { const n = 1 + int(3); for (let i = 0; i < n; i++) filters('filters', 3, out); }
      if (chance(0.35)) {
        const form = int(4);
        if (form === 0) out.push(`sort=${enc(`${field()}${pick(clean ? ['', ':asc', ':DESC'] : ['', ':asc', ':desc', ':DESC', ':sideways', ':'])}`)}`);
        else if (form === 1) out.push(`sort[${int(2)}]=${enc(`${field()}:${pick(['asc', 'desc'])}`)}`);
        else if (form === 2) out.push(`sort${key(field())}=${enc(pick(['asc', 'desc', 'x']))}`);
        else out.push(`sort[chef][${enc(clean ? 'name' : pick(['name', 'nope', 'restaurants']))}]=desc`);
      }
      if (chance(0.3)) {
        if (chance(0.5)) { const n = 1 + int(3); for (let i = 0; i < n; i++) out.push(`fields[${i}]=${enc(field())}`); }
        else out.push(`fields=${enc(clean ? pick(['*', 'name,rating', `${field()},${field()}`]) : pick(['*', 'name,rating', 'name,chef', '', '__proto__', `${field()},${field()}`]))}`);
      }
      if (clean && chance(0.4)) out.push(pick(['populate=*', 'populate[chef][fields][0]=name', 'populate[categories][sort]=name:desc', 'populate[seo]=true&populate[blocks]=*',
        'populate[chef][populate][restaurants][fields][0]=name', 'populate[blocks][on][shared.quote][fields][0]=body', 'populate[categories][filters][name][$containsi]=c']));
      else if (!clean && chance(0.35)) { const n = 1 + int(2); for (let i = 0; i < n; i++) populate('populate', 2, out); }
      if (chance(0.35)) {
        if (clean) out.push(pick(['pagination[page]=2&pagination[pageSize]=2', 'pagination[start]=1&pagination[limit]=3', 'pagination[withCount]=false', 'pagination[pageSize]=1000']));
        else for (const k of ['page', 'pageSize', 'start', 'limit', 'withCount']) {
          if (chance(0.35)) out.push(`pagination[${k}]=${enc(pick(['1', '2', '0', '-1', 'abc', '1000', '1.5', '', 'true', 'false', 'maybe', '99999999999999999999']))}`);
        }
      }
      if (clean && chance(0.25)) out.push(`locale=${pick(['en', 'fr', '*', 'xx'])}`);
      else if (!clean && chance(0.25)) out.push(`locale=${enc(pick(['en', 'fr', 'de', '*', 'xx', '', 'fr,de', '__proto__', '\u0000', bigString(10 * 1024)]))}`);
      if (chance(0.25)) out.push(`status=${enc(pick(clean ? ['draft', 'published'] : ['draft', 'published', 'bogus', '', 'DRAFT', '\u0000']))}`);
      if (!clean && chance(0.1)) out.push(pick([`_q=${value()}`, '__proto__[x]=1', 'constructor[prototype][x]=1', `filters${'[a]'.repeat(40)}=1`,
        'filters=1', 'filters[]=1', 'sort[]=', 'populate[][x]=1', 'pagination=1', 'status[0]=draft', 'locale[$ne]=x', 'foo=bar', `x=${bigString(10 * 1024)}`]));
      for (let i = out.length - 1; i > 0; i--) { const j = int(i + 1); [out[i], out[j]] = [out[j]!, out[i]!]; }
      return out.join('&');
    }

    /** Checks one answer; returns a problem description or null. */
    function check(res: LightMyRequestResponse, ok: number[]): string | null {
      if (res.statusCode >= 500) return `${res.statusCode} ${res.body.slice(0, 200)}`;
      let body: { data?: unknown; error?: { status?: unknown; name?: unknown; message?: unknown; details?: unknown }; meta?: unknown };
      try { body = res.json(); } catch { return `${res.statusCode} not JSON: ${res.body.slice(0, 100)}`; }
      if (res.statusCode >= 400) {
        const e = body.error;
        if (body.data !== null || !e || e.status !== res.statusCode || typeof e.name !== 'string' || typeof e.message !== 'string'
          || typeof e.details !== 'object' || e.details === null) return `${res.statusCode} bad envelope ${res.body.slice(0, 200)}`;
        return null;
      }
      if (!ok.includes(res.statusCode)) return `unexpected status ${res.statusCode}`;
      if (body.error !== undefined || typeof body.meta !== 'object') return `${res.statusCode} bad success envelope ${res.body.slice(0, 200)}`;
      return null;
    }

    let docId: string;
    before(async () => {
      docId = (await create('/api/restaurants', { name: 'Fuzz target' })).documentId;
    });

    it('200 random GET queries: every answer < 500 in a valid envelope', async () => {
      const problems: string[] = [];
      const statuses: Record<number, number> = {};
      for (let i = 0; i < 200; i++) {
        const qs = randomQuery();
        const path = clean ? pick(['/api/restaurants', '/api/restaurants', `/api/restaurants/${docId}`]) : pick(['/api/restaurants', '/api/restaurants', '/api/restaurants', '/api/chefs', '/api/categories', `/api/restaurants/${docId}`, '/api/homepage']);
        const res = await p.api.get(`${path}?${qs}`);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        // A collection path is the only answer whose data is a list (a documentId may end in 's' too).
        const isCollection = path !== '/api/homepage' && path.split('/').length === 3;
        const problem = check(res, [200, 404].filter((s) => s === 200 || !isCollection));
        if (problem) problems.push(`GET ${path}?${qs.slice(0, 300)} → ${problem}`);
        if (res.statusCode === 200 && isCollection && !Array.isArray(res.json().data)) problems.push(`GET ${path}?${qs.slice(0, 300)} → data not an array`);
      }
      assert.deepEqual(problems, [], `seed ${SEED}`);
      assert.ok((statuses[200] ?? 0) >= 20 && (statuses[400] ?? 0) >= 20, `the generator reaches both success and refusal paths: ${JSON.stringify(statuses)}`);
    });

    it('100 random POST bodies: every answer < 500 in a valid envelope, never a partial write', async () => {
      const scalar = (): unknown => pick<() => unknown>([
        () => int(100), () => -int(1e9), () => rand() * 10, () => 'abc', () => '', () => null, () => true, () => 'a\u0000b', () => bigString(10 * 1024),
        () => '99999999999999999999999', () => 1e308, () => '2024-01-01', () => '10:30:00', () => 'not a date', () => 'cafe', () => 'x@y.z', () => 'ABC',
        () => ({ $gt: 1 }), () => [1, 'a'], () => ({ __proto__x: 1 }), () => '☃', () => 2 ** 31, () => '1e400', () => -0,
      ])();
      const relation = (): unknown => pick<() => unknown>([
        () => 'doesnotexist', () => [docId], () => [docId, docId], () => ({ connect: [docId] }), () => ({ set: ['x'] }), () => ({ disconnect: [{ documentId: 'x' }] }),
        () => ({ connect: [{ documentId: docId, position: { before: 'nope' } }] }), () => 42, () => null, () => [null], () => ({ id: 1 }), () => [{ nope: 1 }], () => scalar(),
      ])();
      const component = (): unknown => pick<() => unknown>([
        () => ({ metaTitle: 'T' }), () => ({}), () => null, () => [{ body: 'b' }], () => 'x', () => ({ id: 999999, body: 'x' }), () => ({ metaTitle: scalar(), nope: 1 }),
        () => [{ __component: pick(['shared.quote', 'shared.seo', 'shared.nope', '__proto__']), body: scalar() }], () => Array.from({ length: int(6) }, () => ({ __component: 'shared.quote' })),
      ])();
      const body = (i: number): unknown => {
        if (chance(0.05)) return pick([{}, { data: null }, { data: [] }, { data: 'x' }, [], 'x', null, { data: { data: {} } }]);
        const data: Record<string, unknown> = {};
        if (chance(0.8)) data.name = chance(0.7) ? `Fuzz ${i} ${int(1e6)}` : scalar();
        const n = int(6);
        for (let k = 0; k < n; k++) {
          const r = rand();
          if (r < 0.55) data[pick(FIELDS)] = scalar();
          else if (r < 0.7) data[pick(['chef', 'categories'])] = relation();
          else if (r < 0.8) data[pick(['cover', 'gallery'])] = pick<unknown>([999999, [999999], 'x', null, [], -1]);
          else if (r < 0.92) data[pick(['seo', 'sections', 'blocks'])] = component();
          else data[pick(GARBAGE_KEYS)] = scalar();
        }
        if (chance(0.05)) { let deep: unknown = 1; for (let d = 0; d < 300; d++) deep = [deep]; data.tags = deep; }
        return { data };
      };
      const problems: string[] = [];
      for (let i = 0; i < 100; i++) {
        const payload = body(i);
        const url = `/api/restaurants${pick(['', '', '?status=draft', '?locale=fr', '?locale=xx', '?status=bogus', '?fields[0]=name', '?populate=*'])}`;
        const raw = chance(0.05) ? JSON.stringify(payload).slice(0, -1) : JSON.stringify(payload);
        const name = (payload as { data?: { name?: unknown } } | null)?.data?.name;
        const res = await p.api.raw('POST', url, { payload: raw, headers: { 'content-type': 'application/json' } });
        const problem = check(res, [201]);
        if (problem) { problems.push(`POST ${url} ${raw.slice(0, 300)} → ${problem}`); continue; }
        if (res.statusCode >= 400 && typeof name === 'string' && name.startsWith('Fuzz ')) {
          const rows = await list(`/api/restaurants?filters[name][$eq]=${enc(name)}&locale=*&status=draft`);
          if (rows.data.length > 0) problems.push(`POST ${url} ${raw.slice(0, 300)} → ${res.statusCode} but a row was written`);
        }
        if (res.statusCode === 201 && typeof res.json().data?.documentId !== 'string') problems.push(`POST ${url} → 201 without documentId`);
      }
      assert.deepEqual(problems, [], `seed ${SEED}`);
    });
  });
});
