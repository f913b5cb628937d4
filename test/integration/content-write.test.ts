// REST writes end to end: create / update / delete with validation, draft & publish, i18n,
// relations, components, dynamic zones, media, single types — asserting bodies and database state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { KITCHEN_MODEL } from '../fixtures/kitchen.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('REST writes', () => {
  let t: TestApp;
  let p: ContentProject;
  const query = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Record<string, unknown>>;
  const countRows = async (table: string, where = 'TRUE', values: unknown[] = []) =>
    Number((await query(`SELECT count(*)::int AS n FROM "${p.schema}".${table} WHERE ${where}`, values))[0]!.n);
  const create = async (url: string, data: Record<string, unknown>) => {
    const res = await p.api.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as Record<string, unknown> & { id: number; documentId: string };
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, KITCHEN_MODEL, ['fr', 'de']);
  });
  after(async () => t?.close());

  describe('create', () => {
    it('creates and publishes by default: 201, every scalar present, defaults applied, draft + published rows', async () => {
      const res = await p.api.post('/api/restaurants', { data: { name: 'Chez Ann', rating: '4', price: '12.30', visits: 12, tags: { a: [1, 2] } } });
      assert.equal(res.statusCode, 201);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['data', 'meta']);
      assert.deepEqual(body.meta, {});
      const d = body.data;
      assert.match(d.documentId, /^[a-z][a-z0-9]{23}$/);
      assert.equal(typeof d.id, 'number');
      assert.match(d.createdAt, ISO);
      assert.match(d.publishedAt, ISO);
      assert.deepEqual({ ...d, id: 0, documentId: '', createdAt: '', updatedAt: '', publishedAt: '' }, {
        id: 0, documentId: '', name: 'Chez Ann', description: null, rating: 4, price: 12.3, open: true, openedOn: null, opensAt: null,
        lastVisit: null, visits: '12', score: null, email: null, kind: null, code: null, tags: { a: [1, 2] },
        createdAt: '', updatedAt: '', publishedAt: '', locale: 'en',
      });
      assert.equal(await countRows('ct_restaurant', 'document_id = $1', [d.documentId]), 2);
      assert.equal(await countRows('ct_restaurant', 'document_id = $1 AND published_at IS NULL', [d.documentId]), 1);
    });

    it('?status=draft creates the draft only: hidden from published reads, visible with status=draft', async () => {
      const d = (await p.api.post('/api/restaurants?status=draft', { data: { name: 'Drafty', publishedAt: '2020-01-01T00:00:00Z' } })).json().data;
      assert.equal(d.publishedAt, null);
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}`)).statusCode, 404);
      const draft = await p.api.get(`/api/restaurants/${d.documentId}?status=draft`);
      assert.equal(draft.statusCode, 200);
      assert.equal(draft.json().data.name, 'Drafty');
      assert.equal(await countRows('ct_restaurant', 'document_id = $1', [d.documentId]), 1);
    });

    it('draft writes skip required; publishing writes enforce it with Strapi\'s message', async () => {
      const draft = await p.api.post('/api/restaurants?status=draft', { data: { rating: 2 } });
      assert.equal(draft.statusCode, 201);
      const before = await countRows('ct_restaurant');
      const res = await p.api.post('/api/restaurants', { data: { rating: 2 } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { data: null, error: { status: 400, name: 'ValidationError', message: 'name must be a `string` type, but the final value was: `null`.',
        details: { errors: [{ path: ['name'], message: 'name must be a `string` type, but the final value was: `null`.', name: 'ValidationError', value: null }] } } });
      assert.equal(await countRows('ct_restaurant'), before, 'nothing written');
    });

    it('reports every invalid attribute at once, in schema order', async () => {
      const res = await p.api.post('/api/restaurants', { data: { name: 'Bad', rating: 'abc', email: 'bad', kind: 'diner', code: 'abc' } });
      assert.equal(res.statusCode, 400);
      const error = res.json().error;
      assert.equal(error.message, '4 errors occurred');
      assert.deepEqual(error.details.errors, [
        { path: ['rating'], message: 'rating must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).', name: 'ValidationError', value: 'abc' },
        { path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: 'bad' },
        { path: ['kind'], message: 'kind must be one of the following values: bistro, brasserie, cafe, ', name: 'ValidationError', value: 'diner' },
        { path: ['code'], message: 'code must match the following: "/^[A-Z]+$/"', name: 'ValidationError', value: 'abc' },
      ]);
    });

    it('refuses unknown and system keys, drops publishedAt and locale', async () => {
      const nope = await p.api.post('/api/restaurants', { data: { name: 'X1', nope: 1 } });
      assert.deepEqual(nope.json().error, { status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: null, source: 'body' } });
      const id = await p.api.post('/api/restaurants', { data: { name: 'X2', id: 3 } });
      assert.equal(id.json().error.message, 'Invalid key id');
      const created = await p.api.post('/api/restaurants', { data: { name: 'X3', createdAt: '2020-01-01' } });
      assert.deepEqual(created.json().error.details, { key: 'createdAt', path: 'createdAt', source: 'body' });
    });

    it('answers 400 for a body without a data object, and SyntaxError for malformed JSON', async () => {
      for (const payload of [{}, { data: null }, { data: [] }, { data: 'x' }]) {
        const res = await p.api.post('/api/restaurants', payload);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.message, 'Missing "data" payload in the request body');
      }
      const bad = await p.api.raw('POST', '/api/restaurants', { payload: '{"data": {', headers: { 'content-type': 'application/json' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.name, 'SyntaxError');
    });

    it('enforces unique among published rows of a locale, not among drafts', async () => {
      await create('/api/restaurants', { name: 'Unique One' });
      const clash = await p.api.post('/api/restaurants', { data: { name: 'Unique One' } });
      assert.equal(clash.statusCode, 400);
      assert.deepEqual(clash.json().error.details.errors, [{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError', value: 'Unique One' }]);
      assert.equal((await p.api.post('/api/restaurants?status=draft', { data: { name: 'Unique One' } })).statusCode, 201);
      assert.equal((await p.api.post('/api/restaurants?locale=fr', { data: { name: 'Unique One' } })).statusCode, 201);
    });

    it('never outputs password or private attributes, but stores them (password hashed)', async () => {
      const d = await create('/api/restaurants', { name: 'Secretive', pin: 'hunter22', secret: 's3' });
      assert.equal('pin' in d, false);
      assert.equal('secret' in d, false);
      const [row] = await query(`SELECT pin, secret FROM "${p.schema}".ct_restaurant WHERE document_id = $1 AND published_at IS NOT NULL`, [d.documentId]);
      assert.equal(row!.secret, 's3');
      assert.match(String(row!.pin), /^\$argon2/);
    });

    it('POST on a single type and PATCH anywhere are 405 in the envelope with Allow', async () => {
      const post = await p.api.post('/api/homepage', { data: { title: 'x' } });
      assert.equal(post.statusCode, 405);
      assert.equal(post.headers.allow, 'GET, PUT, DELETE');
      assert.deepEqual(post.json(), { data: null, error: { status: 405, name: 'MethodNotAllowedError', message: 'Method Not Allowed', details: {} } });
      const patch = await p.api.raw('PATCH', '/api/restaurants/abc', { payload: { data: {} } });
      assert.equal(patch.statusCode, 405);
      assert.equal(patch.headers.allow, 'GET, PUT, DELETE');
    });
  });

  describe('update', () => {
    it('PUT updates partially and republishes; untouched attributes stay', async () => {
      const d = await create('/api/restaurants', { name: 'Partial', rating: 3, kind: 'cafe' });
      const res = await p.api.put(`/api/restaurants/${d.documentId}`, { data: { rating: 5 } });
      assert.equal(res.statusCode, 200);
      const u = res.json().data;
      assert.equal(u.documentId, d.documentId);
      assert.equal(u.rating, 5);
      assert.equal(u.kind, 'cafe');
      assert.equal(u.name, 'Partial');
      assert.equal(u.createdAt, d.createdAt);
      assert.notEqual(u.publishedAt, null);
      assert.equal(await countRows('ct_restaurant', 'document_id = $1', [d.documentId]), 2);
    });

    it('PUT ?status=draft changes the draft only; null clears', async () => {
      const d = await create('/api/restaurants', { name: 'Drafted', rating: 3 });
      const res = await p.api.put(`/api/restaurants/${d.documentId}?status=draft`, { data: { rating: null } });
      assert.equal(res.json().data.rating, null);
      assert.equal(res.json().data.publishedAt, null);
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}`)).json().data.rating, 3);
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}?status=draft`)).json().data.rating, null);
    });

    it('publishing validates the merged document, not only the body', async () => {
      const d = (await p.api.post('/api/restaurants?status=draft', { data: { rating: 2 } })).json().data;
      const res = await p.api.put(`/api/restaurants/${d.documentId}`, { data: { rating: 3 } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().error.details.errors.map((e: { path: string[] }) => e.path), [['name']]);
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}?status=draft`)).json().data.rating, 2, 'rolled back');
      const ok = await p.api.put(`/api/restaurants/${d.documentId}`, { data: { name: 'Now named' } });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().data.rating, 2);
    });

    it('unknown documentId → 404; wrong types → 400 without writing', async () => {
      assert.equal((await p.api.put('/api/restaurants/nope', { data: { rating: 1 } })).statusCode, 404);
      const d = await create('/api/restaurants', { name: 'Typed', rating: 1 });
      const res = await p.api.put(`/api/restaurants/${d.documentId}`, { data: { rating: 9, open: 'maybe' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.message, '2 errors occurred');
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}`)).json().data.rating, 1);
    });
  });

  describe('relations', () => {
    let chef: string;
    let cats: string[];
    before(async () => {
      chef = (await create('/api/chefs', { name: 'Ann' })).documentId;
      cats = [];
      for (const name of ['c1', 'c2', 'c3']) cats.push((await create('/api/categories', { name })).documentId);
    });

    const populated = async (documentId: string, status = 'published') =>
      (await p.api.get(`/api/restaurants/${documentId}?status=${status}&populate[chef][fields][0]=name&populate[categories][fields][0]=name`)).json().data;

    it('creates with shorthand relations, in order, visible from both sides', async () => {
      const d = await create('/api/restaurants', { name: 'Rel', chef, categories: [cats[2], cats[0]] });
      const r = await populated(d.documentId);
      assert.equal(r.chef.name, 'Ann');
      assert.deepEqual(r.categories.map((c: { name: string }) => c.name), ['c3', 'c1']);
      const c = (await p.api.get(`/api/chefs/${chef}?populate[restaurants][fields][0]=name`)).json().data;
      assert.ok(c.restaurants.some((x: { name: string }) => x.name === 'Rel'));
    });

    it('connect with positions, disconnect, set; to-one connect replaces', async () => {
      const d = await create('/api/restaurants', { name: 'Rel2', categories: [cats[0]] });
      await p.api.put(`/api/restaurants/${d.documentId}`, { data: { categories: { connect: [{ documentId: cats[1], position: { start: true } }, cats[2]] } } });
      assert.deepEqual((await populated(d.documentId)).categories.map((c: { name: string }) => c.name), ['c2', 'c1', 'c3']);
      await p.api.put(`/api/restaurants/${d.documentId}`, { data: { categories: { connect: [{ documentId: cats[2], position: { before: cats[1] } }], disconnect: [cats[0]] } } });
      assert.deepEqual((await populated(d.documentId)).categories.map((c: { name: string }) => c.name), ['c3', 'c2']);
      await p.api.put(`/api/restaurants/${d.documentId}`, { data: { categories: { set: [cats[0]] }, chef: { connect: [chef] } } });
      const r = await populated(d.documentId);
      assert.deepEqual(r.categories.map((c: { name: string }) => c.name), ['c1']);
      assert.equal(r.chef.name, 'Ann');
      await p.api.put(`/api/restaurants/${d.documentId}`, { data: { chef: null, categories: [] } });
      const cleared = await populated(d.documentId);
      assert.equal(cleared.chef, null);
      assert.deepEqual(cleared.categories, []);
    });

    it('an unknown target documentId is a 400 and nothing is written', async () => {
      const before = await countRows('ct_restaurant');
      const res = await p.api.post('/api/restaurants', { data: { name: 'Dangling', categories: ['doesnotexist'] } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().error, { status: 400, name: 'ValidationError', message: 'Document with id "doesnotexist", locale "null" not found', details: {} });
      assert.equal(await countRows('ct_restaurant'), before);
    });

    it('writes the inverse side (chef.restaurants)', async () => {
      const r1 = await create('/api/restaurants', { name: 'Inv1' });
      const c = await create('/api/chefs', { name: 'Bob', restaurants: [r1.documentId] });
      assert.equal((await populated(r1.documentId)).chef.name, 'Bob');
      await p.api.put(`/api/chefs/${c.documentId}`, { data: { restaurants: [] } });
      assert.equal((await populated(r1.documentId)).chef, null);
    });

    it('a draft relation change is published by the next publishing write', async () => {
      const d = await create('/api/restaurants', { name: 'Rel3', categories: [cats[0]] });
      await p.api.put(`/api/restaurants/${d.documentId}?status=draft`, { data: { categories: [cats[1]] } });
      assert.deepEqual((await populated(d.documentId)).categories.map((c: { name: string }) => c.name), ['c1']);
      assert.deepEqual((await populated(d.documentId, 'draft')).categories.map((c: { name: string }) => c.name), ['c2']);
      await p.api.put(`/api/restaurants/${d.documentId}`, { data: {} });
      assert.deepEqual((await populated(d.documentId)).categories.map((c: { name: string }) => c.name), ['c2']);
    });

    it('deleting a target removes the links to it', async () => {
      const cat = await create('/api/categories', { name: 'doomed' });
      const d = await create('/api/restaurants', { name: 'Rel4', categories: [cat.documentId, cats[0]] });
      assert.equal((await p.api.del(`/api/categories/${cat.documentId}`)).statusCode, 204);
      assert.deepEqual((await populated(d.documentId)).categories.map((c: { name: string }) => c.name), ['c1']);
      assert.equal(await countRows('lnk_ct_restaurant__categories', 'target_document_id = $1', [cat.documentId]), 0);
    });
  });

  describe('components and dynamic zones', () => {
    const populate = 'populate[seo]=true&populate[sections]=true&populate[blocks]=true';

    it('writes them in the same transaction and reads them back in order', async () => {
      const res = await p.api.post(`/api/restaurants?${populate}`, { data: {
        name: 'Comp', seo: { metaTitle: 'T', metaDescription: 'D' },
        sections: [{ body: 's1' }, { body: 's2', author: 'A' }],
        blocks: [{ __component: 'shared.quote', body: 'Q' }, { __component: 'shared.seo', metaTitle: 'M' }],
      } });
      assert.equal(res.statusCode, 201, res.body);
      const d = res.json().data;
      assert.deepEqual({ ...d.seo, id: 0 }, { id: 0, metaTitle: 'T', metaDescription: 'D' });
      assert.deepEqual(d.sections.map((s: { body: string; author: string | null }) => [s.body, s.author]), [['s1', null], ['s2', 'A']]);
      assert.deepEqual(d.blocks.map((b: Record<string, unknown>) => b.__component), ['shared.quote', 'shared.seo']);
      assert.equal(d.blocks[0].body, 'Q');
      // a PUT replaces them; an item with the id of a draft row is updated in place
      const draft = (await p.api.get(`/api/restaurants/${d.documentId}?status=draft&${populate}`)).json().data;
      const keep = draft.sections[1].id;
      const foreign = await p.api.put(`/api/restaurants/${d.documentId}?status=draft`, { data: { sections: [{ id: d.sections[1].id, body: 'x' }] } });
      assert.equal(foreign.statusCode, 400, 'an id of another row (here: the published copy) is refused');
      assert.equal(foreign.json().error.message, 'Some of the provided components in sections are not related to the entity');
      const put = await p.api.put(`/api/restaurants/${d.documentId}?status=draft&${populate}`, { data: { sections: [{ id: keep, body: 's2b' }, { body: 's3' }], seo: null } });
      assert.equal(put.statusCode, 200, put.body);
      const u = put.json().data;
      assert.equal(u.seo, null);
      assert.deepEqual(u.sections.map((s: { id: number; body: string; author: string | null }) => [s.id === keep, s.body, s.author]), [[true, 's2b', 'A'], [false, 's3', null]]);
    });

    it('validates inside components and refuses an unknown __component with one error', async () => {
      const res = await p.api.post('/api/restaurants', { data: { name: 'Comp2', seo: { metaDescription: 'x' }, blocks: [{ __component: 'shared.nope' }] } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().error.details.errors.map((e: { path: string[]; message: string }) => [e.path, e.message]), [
        [['seo', 'metaTitle'], 'seo.metaTitle must be a `string` type, but the final value was: `null`.'],
        [['blocks', '0', '__component'], 'blocks[0].__component must be one of the following values: shared.quote, shared.seo'],
      ]);
    });

    it('deleting a document deletes its component rows', async () => {
      const d = await create('/api/restaurants', { name: 'Comp3', seo: { metaTitle: 'T' }, sections: [{ body: 'x' }] });
      const before = await countRows('cmp_shared__quote');
      assert.equal((await p.api.del(`/api/restaurants/${d.documentId}`)).statusCode, 204);
      assert.equal(await countRows('cmp_shared__quote'), before - 2, 'draft and published copies');
    });
  });

  describe('media', () => {
    it('sets media by file id and refuses unknown ids', async () => {
      const [file] = await query(`INSERT INTO "${p.schema}".files (document_id, name, hash, mime, size, url, provider)
        VALUES ('filedoc00000000000000001', 'a.png', 'a_1', 'image/png', 1.5, '/uploads/a_1.png', 'local') RETURNING id::int AS id`);
      const d = await create('/api/restaurants', { name: 'Media', cover: file!.id, gallery: [file!.id] });
      const r = (await p.api.get(`/api/restaurants/${d.documentId}?populate[cover][fields][0]=name&populate[gallery][fields][0]=url`)).json().data;
      assert.equal(r.cover.name, 'a.png');
      assert.deepEqual(r.gallery.map((f: { url: string }) => f.url), ['/uploads/a_1.png']);
      const bad = await p.api.post('/api/restaurants', { data: { name: 'Media2', cover: 999999 } });
      assert.equal(bad.statusCode, 400);
    });
  });

  describe('i18n', () => {
    it('creates in ?locale, else data.locale, else the default; refuses disabled locales', async () => {
      assert.equal((await create('/api/restaurants?locale=fr', { name: 'Fr1' })).locale, 'fr');
      assert.equal((await create('/api/restaurants', { name: 'De1', locale: 'de' })).locale, 'de');
      assert.equal((await create('/api/restaurants?locale=fr', { name: 'Fr2', locale: 'de' })).locale, 'fr');
      const bad = await p.api.post('/api/restaurants?locale=xx', { data: { name: 'Xx' } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.name, 'ValidationError');
    });

    it('PUT ?locale creates a locale version copying non-localized attributes; shared attributes sync', async () => {
      const d = await create('/api/restaurants', { name: 'Multi', rating: 4, price: 9 });
      const fr = await p.api.put(`/api/restaurants/${d.documentId}?locale=fr`, { data: { name: 'Multi FR', locale: 'de' } });
      assert.equal(fr.statusCode, 200, fr.body);
      assert.deepEqual([fr.json().data.locale, fr.json().data.name, fr.json().data.rating, fr.json().data.price], ['fr', 'Multi FR', 4, 9]);
      await p.api.put(`/api/restaurants/${d.documentId}`, { data: { rating: 2 } });
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}?locale=fr`)).json().data.rating, 2);
      assert.equal((await p.api.get(`/api/restaurants/${d.documentId}?locale=fr`)).json().data.name, 'Multi FR');
    });

    it('creating a locale version needs createLocalization (403 otherwise)', async () => {
      const d = await create('/api/restaurants', { name: 'NoLoc' });
      const key = await p.token('custom', { 'api::restaurant.restaurant': ['find', 'findOne', 'update'] });
      const res = await p.client(key).put(`/api/restaurants/${d.documentId}?locale=fr`, { data: { name: 'NoLoc FR' } });
      assert.equal(res.statusCode, 403);
      assert.equal(await countRows('ct_restaurant', 'document_id = $1', [d.documentId]), 2);
      assert.equal((await p.client(key).put(`/api/restaurants/${d.documentId}`, { data: { rating: 1 } })).statusCode, 200);
    });

    it('DELETE removes one locale version (default without ?locale), or all with *', async () => {
      const d = await create('/api/restaurants', { name: 'Del' });
      await p.api.put(`/api/restaurants/${d.documentId}?locale=fr`, { data: { name: 'Del FR' } });
      await p.api.put(`/api/restaurants/${d.documentId}?locale=de`, { data: { name: 'Del DE' } });
      const del = await p.api.del(`/api/restaurants/${d.documentId}?locale=fr`);
      assert.equal(del.statusCode, 204);
      assert.equal(del.body, '');
      assert.deepEqual((await query(`SELECT DISTINCT locale FROM "${p.schema}".ct_restaurant WHERE document_id = $1 ORDER BY locale`, [d.documentId])).map((r) => r.locale), ['de', 'en']);
      await p.api.del(`/api/restaurants/${d.documentId}`);
      assert.deepEqual((await query(`SELECT DISTINCT locale FROM "${p.schema}".ct_restaurant WHERE document_id = $1`, [d.documentId])).map((r) => r.locale), ['de']);
      await p.api.del(`/api/restaurants/${d.documentId}?locale=*`);
      assert.equal(await countRows('ct_restaurant', 'document_id = $1', [d.documentId]), 0);
      assert.equal((await p.api.del(`/api/restaurants/${d.documentId}`)).statusCode, 204, 'unknown documentId is still 204');
    });
  });

  describe('single types', () => {
    it('GET 404 before it exists; PUT creates then updates; DELETE empties it', async () => {
      assert.equal((await p.api.get('/api/homepage')).statusCode, 404);
      const created = await p.api.put('/api/homepage', { data: { title: 'Welcome' } });
      assert.equal(created.statusCode, 200, created.body);
      const updated = await p.api.put('/api/homepage', { data: { title: 'Hello' } });
      assert.equal(updated.json().data.documentId, created.json().data.documentId);
      assert.equal((await p.api.get('/api/homepage')).json().data.title, 'Hello');
      const fr = await p.api.put('/api/homepage?locale=fr', { data: { title: 'Bonjour' } });
      assert.equal(fr.json().data.documentId, created.json().data.documentId);
      assert.equal((await p.api.del('/api/homepage')).statusCode, 204);
      assert.equal((await p.api.get('/api/homepage')).statusCode, 404);
      assert.equal((await p.api.get('/api/homepage?locale=fr')).json().data.title, 'Bonjour');
      assert.equal((await p.api.get('/api/homepage/x')).statusCode, 404);
    });
  });

  describe('permissions', () => {
    it('read-only tokens and the public role cannot write; custom tokens get exactly their actions', async () => {
      const ro = p.client(await p.token('read-only'));
      assert.equal((await ro.post('/api/restaurants', { data: { name: 'RO' } })).statusCode, 403);
      const anon = p.client(null);
      assert.equal((await anon.post('/api/restaurants', { data: { name: 'Anon' } })).statusCode, 403);
      await p.setPublic({ 'api::chef.chef': ['create'] });
      assert.equal((await anon.post('/api/chefs', { data: { name: 'Public chef' } })).statusCode, 201);
      const d = await create('/api/restaurants', { name: 'Perm' });
      const custom = p.client(await p.token('custom', { 'api::restaurant.restaurant': ['create'] }));
      assert.equal((await custom.post('/api/restaurants', { data: { name: 'Perm2' } })).statusCode, 201);
      assert.equal((await custom.put(`/api/restaurants/${d.documentId}`, { data: { rating: 1 } })).statusCode, 403);
      assert.equal((await custom.del(`/api/restaurants/${d.documentId}`)).statusCode, 403);
      const unknown = await p.client('f'.repeat(256)).post('/api/restaurants', { data: { name: 'X' } });
      assert.equal(unknown.statusCode, 401);
    });

    it('relation keys whose target the caller may not find are dropped silently', async () => {
      const chef = await create('/api/chefs', { name: 'Hidden' });
      const custom = p.client(await p.token('custom', { 'api::restaurant.restaurant': ['create', 'find', 'findOne'] }));
      const res = await custom.post('/api/restaurants', { data: { name: 'Dropped', chef: chef.documentId } });
      assert.equal(res.statusCode, 201);
      const r = (await p.api.get(`/api/restaurants/${res.json().data.documentId}?populate=chef`)).json().data;
      assert.equal(r.chef, null);
    });
  });

  describe('hostile input', () => {
    it('never answers 500 and never writes partially', async () => {
      const before = await countRows('ct_restaurant');
      const cases: unknown[] = [
        { data: { name: 'a\u0000b' } },
        { data: { name: 'Deep', tags: JSON.parse('['.repeat(200) + ']'.repeat(200)) } },
        { data: { name: 'Many', categories: Array.from({ length: 2000 }, (_, i) => `doc${i}`) } },
        { data: { name: 'Obj', rating: { $gt: 1 } } },
        { data: { name: "x'); DROP TABLE ct_restaurant; --", rating: '1; DROP TABLE x' } },
        { data: { name: 'Big', visits: '99999999999999999999999' } },
        { data: { name: 'Blocks', description: 'not an array' } },
        { data: { name: 'Sections', sections: 'x' } },
        { data: { name: 'Dz', blocks: [1, 2] } },
        { data: { name: 'Dz2', blocks: [{ __component: 'shared.quote' }, { __component: 'shared.quote' }, { __component: 'shared.quote' }, { __component: 'shared.quote' }] } },
      ];
      for (const payload of cases) {
        const res = await p.api.post('/api/restaurants', payload);
        assert.equal(res.statusCode, 400, `${JSON.stringify(payload).slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        assert.equal(res.json().error.name, 'ValidationError');
      }
      // Prototype poisoning is refused by the JSON parser itself.
      for (const payload of ['{"data":{"name":"P","__proto__":{"x":1}}}', '{"data":{"name":"P","constructor":{"prototype":{"x":1}}}}']) {
        const res = await p.api.raw('POST', '/api/restaurants', { payload, headers: { 'content-type': 'application/json' } });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.name, 'SyntaxError');
      }
      const huge = await p.api.raw('POST', '/api/restaurants', { payload: JSON.stringify({ data: { name: 'H', tags: 'x'.repeat(1024 * 1024 + 10) } }), headers: { 'content-type': 'application/json' } });
      assert.equal(huge.statusCode, 413);
      assert.equal(huge.json().error.name, 'PayloadTooLargeError');
      assert.equal(await countRows('ct_restaurant'), before);
    });
  });

  describe('tenant isolation', () => {
    it('a token of one project is refused by another; documentIds of another project are unknown', async () => {
      const other = await setupContentProject(t, KITCHEN_MODEL);
      const d = await create('/api/restaurants', { name: 'Mine' });
      const withForeignToken = await other.client(await p.token('full-access')).get('/api/restaurants');
      assert.equal(withForeignToken.statusCode, 401);
      assert.equal((await other.api.put(`/api/restaurants/${d.documentId}`, { data: { rating: 1 } })).statusCode, 404);
      assert.equal((await other.api.del(`/api/restaurants/${d.documentId}`)).statusCode, 204);
      assert.equal(await countRows('ct_restaurant', 'document_id = $1', [d.documentId]), 2, 'untouched');
      assert.equal((await other.api.post('/api/restaurants', { data: { name: 'Theirs', chef: (await create('/api/chefs', { name: 'c' })).documentId } })).statusCode, 400);
    });
  });
});
