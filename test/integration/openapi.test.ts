// Each project's OpenAPI 3.1 document (`GET /p/{slug}/api/openapi.json`, management
// `GET /v1/projects/{slug}/openapi.json`): valid OpenAPI, every path it lists really served,
// its schemas matching real answers (and real request bodies), rebuilt on a model change only,
// members only on the management API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { openApiBuildCount } from '@cms/openapi';
import { startTestApp, TEST_BASE_DOMAIN, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { notFound } from '../helpers/envelope.ts';
import { KITCHEN_MODEL } from '../fixtures/kitchen.ts';
import { addMember, as, createProject, signup } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';

type Json = Record<string, any>;

// The kitchen model, plus a relation to end users and a component nesting another one.
const MODEL = {
  contentTypes: {
    ...KITCHEN_MODEL.contentTypes,
    'api::chef.chef': {
      ...KITCHEN_MODEL.contentTypes['api::chef.chef'],
      attributes: {
        ...KITCHEN_MODEL.contentTypes['api::chef.chef'].attributes,
        owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
        address: { type: 'component', component: 'shared.address' },
      },
    },
  },
  components: {
    ...KITCHEN_MODEL.components,
    'shared.address': { info: { displayName: 'address' }, attributes: { city: { type: 'string' }, geo: { type: 'component', component: 'shared.geo' } } },
    'shared.geo': { info: { displayName: 'geo' }, attributes: { lat: { type: 'float' }, lng: { type: 'float' } } },
  },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('OpenAPI documents', () => {
  let t: TestApp;
  let p: ContentProject;
  let doc: Json;
  let ajv: Ajv2020;
  let jwt: string;
  const ids: Record<string, string> = {};

  /** The document's schema for `status` of `method path` (JSON answers). */
  const responseSchema = (path: string, method: string, status: number): Json => {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method} ${path} is documented`);
    let response = op.responses[String(status)];
    assert.ok(response, `${method} ${path} documents ${status} (has ${Object.keys(op.responses).join(', ')})`);
    if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
    return response.content?.['application/json']?.schema;
  };
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (schema: Json): ValidateFunction => {
    const key = JSON.stringify(schema);
    if (!compiled.has(key)) compiled.set(key, ajv.compile({ $ref: `https://openapi.test/doc.json${schemaPointer(schema)}` }));
    return compiled.get(key)!;
  };
  /** A JSON pointer into the document for a schema object found in it (by identity). */
  const pointers = new Map<object, string>();
  const schemaPointer = (schema: Json): string => {
    const at = pointers.get(schema);
    assert.ok(at !== undefined, 'schema comes from the document');
    return `#${at}`;
  };
  const index = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    pointers.set(node, at);
    for (const [k, v] of Object.entries(node)) index(v, `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  };
  /** Asserts a real answer matches the documented schema of its status. */
  const assertMatches = (path: string, method: string, res: { statusCode: number; body: string }) => {
    const schema = responseSchema(path, method, res.statusCode);
    if (!schema) return;
    const validate = validatorOf(schema);
    const body = JSON.parse(res.body);
    assert.ok(validate(body), `${method} ${path} ${res.statusCode}: ${JSON.stringify(validate.errors, null, 1)}\n${res.body.slice(0, 2000)}`);
  };
  /** Asserts a request body matches the documented request schema. */
  const assertRequestMatches = (path: string, method: string, body: unknown) => {
    const schema = doc.paths[path][method].requestBody.content['application/json'].schema;
    const validate = validatorOf(schema);
    assert.ok(validate(body), `${method} ${path} request: ${JSON.stringify(validate.errors, null, 1)}`);
  };
  const loadDocument = (document: Json) => {
    doc = document;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as { default: typeof addFormats }).default(ajv);
    ajv.addSchema(doc, 'https://openapi.test/doc.json');
    compiled.clear();
    pointers.clear();
    index(doc, '');
  };

  const fetchDocument = async (client: ContentClient = p.client(null)) => {
    const res = await client.get('/api/openapi.json');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    return res.json() as Json;
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL, ['fr']);
    loadDocument(await fetchDocument());
    // Content of every kind: a user, files, a chef, categories, a restaurant with every attribute.
    const registered = await p.client(null).post('/api/auth/local/register', { username: 'ann', email: 'ann@example.com', password: 'secret123' });
    assert.equal(registered.statusCode, 200, registered.body);
    assertMatches('/auth/local/register', 'post', registered);
    jwt = registered.json().jwt;
    ids.user = String(registered.json().user.id);
    const image = await sharp({ create: { width: 600, height: 400, channels: 3, background: 'red' } }).png().toBuffer();
    const form = await multipart({ files: [{ name: 'photo.png', content: image, type: 'image/png' }, { name: 'notes.txt', content: 'hello', type: 'text/plain' }], fileInfo: JSON.stringify([{ alternativeText: 'a photo' }, {}]) });
    const uploaded = await p.api.raw('POST', '/api/upload', { payload: form.payload, headers: form.headers });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    assertMatches('/upload', 'post', uploaded);
    const [photo, notes] = uploaded.json() as Json[];
    ids.file = String(photo!.id);
    const write = async (path: string, method: 'post' | 'put', url: string, data: Json, status: number) => {
      const body = { data };
      assertRequestMatches(path, method, body);
      const res = method === 'post' ? await p.api.post(url, body) : await p.api.put(url, body);
      assert.equal(res.statusCode, status, res.body);
      assertMatches(path, method, res);
      return res.json().data as Json;
    };
    const chef = await write('/chefs', 'post', '/api/chefs', { name: 'Ann', owner: Number(ids.user), address: { city: 'Lyon', geo: { lat: 45.76, lng: 4.83 } } }, 201);
    ids.chef = chef.documentId;
    const category = await write('/categories', 'post', '/api/categories', { name: 'French', slug: 'french' }, 201);
    ids.category = category.documentId;
    const restaurant = await write('/restaurants', 'post', '/api/restaurants', {
      name: 'Chez Ann',
      description: [{ type: 'paragraph', children: [{ type: 'text', text: 'Good food', bold: true }] }],
      rating: 4, price: '12.50', open: true, openedOn: '2020-01-31', opensAt: '09:30:00', lastVisit: '2024-05-01T12:00:00.000Z',
      visits: '9007199254740993', score: 4.5, email: 'ann@example.com', kind: 'bistro', code: 'ABC', tags: { a: [1, 'b'] },
      pin: 'secret', secret: 'hidden',
      chef: ids.chef, categories: { connect: [{ documentId: ids.category, position: { end: true } }] },
      cover: Number(ids.file), gallery: [Number(ids.file), notes!.id],
      seo: { metaTitle: 'Chez Ann', metaDescription: 'Bistro' },
      blocks: [{ __component: 'shared.quote', body: 'Great', author: 'Bob' }, { __component: 'shared.seo', metaTitle: 'In zone' }],
      sections: [{ body: 'One' }, { body: 'Two', author: 'Cy' }],
    }, 201);
    ids.restaurant = restaurant.documentId;
    await write('/restaurants/{documentId}', 'put', `/api/restaurants/${ids.restaurant}?locale=fr`, { name: 'Chez Ann (fr)' }, 200);
    await write('/restaurants/{documentId}', 'put', `/api/restaurants/${ids.restaurant}?status=draft`, { rating: 5 }, 200);
    await write('/homepage', 'put', '/api/homepage', { title: 'Welcome' }, 200);
  });
  after(async () => {
    await t?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
    assert.equal(doc.openapi, '3.1.1');
    assert.deepEqual(doc.info, {
      title: 'Content tests API', version: '1',
      description: `The REST content API of the project \`${p.slug}\` (Strapi v5 compatible), model version 1. Errors are \`{data: null, error: {status, name, message, details}}\`.`,
    });
    assert.deepEqual(doc.components.securitySchemes.bearerAuth.type, 'http');
    assert.deepEqual(doc.security, [{}, { bearerAuth: [] }]);
  });

  it('lists every route the project serves, and only those', () => {
    const routes = Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => (item as Json)[m]).map((m) => `${m.toUpperCase()} ${path}`));
    assert.deepEqual(routes.sort(), [
      'DELETE /categories/{documentId}', 'DELETE /chefs/{documentId}', 'DELETE /homepage', 'DELETE /restaurants/{documentId}',
      'DELETE /upload/files/{id}', 'DELETE /users/{id}',
      'GET /auth/email-confirmation', 'GET /categories', 'GET /categories/{documentId}', 'GET /chefs', 'GET /chefs/{documentId}',
      'GET /homepage', 'GET /i18n/locales', 'GET /openapi.json', 'GET /restaurants', 'GET /restaurants/{documentId}',
      'GET /upload/files', 'GET /upload/files/page', 'GET /upload/files/{id}', 'GET /users', 'GET /users/count', 'GET /users/me', 'GET /users/{id}',
      'POST /auth/change-password', 'POST /auth/forgot-password', 'POST /auth/local', 'POST /auth/local/register', 'POST /auth/reset-password',
      'POST /auth/send-email-confirmation', 'POST /categories', 'POST /chefs', 'POST /restaurants', 'POST /upload', 'POST /users',
      'PUT /categories/{documentId}', 'PUT /chefs/{documentId}', 'PUT /homepage', 'PUT /restaurants/{documentId}', 'PUT /users/{id}',
    ].sort());
    // Parameters follow the type: status and publicationFilter with Draft & Publish, locale with i18n.
    const names = (op: Json) => op.parameters.map((x: Json) => x.name ?? x.$ref.split('/').pop());
    assert.deepEqual(names(doc.paths['/restaurants'].get), ['fields', 'populate', 'filters', 'sort', 'page', 'pageSize', 'start', 'limit', 'withCount', 'status', 'locale', 'publicationFilter', 'hasPublishedVersion', 'release', 'search']);
    assert.deepEqual(names(doc.paths['/chefs'].get), ['fields', 'populate', 'filters', 'sort', 'page', 'pageSize', 'start', 'limit', 'withCount', 'search']);
    assert.deepEqual(doc.components.parameters.pageSize.name, 'pagination[pageSize]');
    assert.deepEqual(doc.paths['/chefs'].get.parameters[0].schema.items.enum, ['id', 'documentId', 'name', 'createdAt', 'updatedAt', 'publishedAt']);
  });

  it('describes every attribute type, components as $refs, dynamic zones by __component, relations and media', () => {
    const s = doc.components.schemas;
    const r = s.Restaurant.properties;
    assert.deepEqual(s.Restaurant.required, ['id', 'documentId']);
    assert.equal(s.Restaurant.additionalProperties, false);
    assert.deepEqual(Object.keys(r), [
      'id', 'documentId', 'name', 'description', 'rating', 'price', 'open', 'openedOn', 'opensAt', 'lastVisit', 'visits', 'score', 'email',
      'kind', 'code', 'tags', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'chef', 'categories', 'cover', 'gallery', 'seo', 'blocks', 'sections', 'localizations',
    ]);
    assert.deepEqual(r.kind, { type: ['string', 'null'], enum: ['bistro', 'brasserie', 'cafe', null] });
    assert.deepEqual(r.visits.type, ['string', 'null']);
    assert.deepEqual(r.description, { type: ['array', 'null'], items: { $ref: '#/components/schemas/BlocksNode' } });
    assert.deepEqual(r.seo.oneOf, [{ $ref: '#/components/schemas/ComponentSharedSeo' }, { type: 'null' }]);
    assert.deepEqual(r.sections.items, { $ref: '#/components/schemas/ComponentSharedQuote' });
    assert.deepEqual(r.blocks.items.discriminator, {
      propertyName: '__component',
      mapping: { 'shared.quote': '#/components/schemas/ComponentSharedQuoteEntry', 'shared.seo': '#/components/schemas/ComponentSharedSeoEntry' },
    });
    assert.deepEqual(r.chef.oneOf, [{ $ref: '#/components/schemas/Chef' }, { type: 'null' }]);
    assert.deepEqual(r.categories.oneOf, [{ type: 'array', items: { $ref: '#/components/schemas/Category' } }, { $ref: '#/components/schemas/RelationCount' }]);
    assert.deepEqual(r.cover.oneOf, [{ $ref: '#/components/schemas/UploadFile' }, { type: 'null' }]);
    assert.deepEqual(s.Chef.properties.owner.oneOf, [{ $ref: '#/components/schemas/UsersPermissionsUser' }, { type: 'null' }]);
    // Private and password attributes are never printed, but are writable.
    assert.equal(r.pin, undefined);
    assert.equal(r.secret, undefined);
    const input = s.RestaurantInput.properties;
    assert.deepEqual(input.pin, { type: ['string', 'null'], writeOnly: true });
    assert.deepEqual(input.name, { type: ['string', 'null'], minLength: 2, maxLength: 40 });
    assert.deepEqual(input.rating, { type: ['integer', 'null'], minimum: 1, maximum: 5 });
    assert.deepEqual(input.code.pattern, '^[A-Z]+$');
    assert.equal(input.blocks.maxItems, 3);
    assert.deepEqual(s.ComponentSharedSeoEntry.required, ['__component', 'id']);
    assert.deepEqual(s.ComponentSharedSeoEntry.properties.__component, { type: 'string', const: 'shared.seo' });
    assert.deepEqual(doc.paths['/homepage'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/HomepageResponse' });
    assert.deepEqual(s.Error.properties.error.required, ['status', 'name', 'message', 'details']);
  });

  it('validates real answers of reads: lists, documents, every populate form, fields, drafts, locales, pages', async () => {
    const reads: Array<[string, string]> = [
      ['/restaurants', '/api/restaurants'],
      ['/restaurants', '/api/restaurants?populate=*'],
      ['/restaurants', '/api/restaurants?populate[chef][populate]=*&populate[categories][count]=true&populate[blocks]=*&populate[sections]=*&populate[seo]=*&populate[cover]=*&populate[gallery]=*&populate[localizations]=*'],
      ['/restaurants', '/api/restaurants?populate[blocks][on][shared.quote][fields][0]=body&fields=name,rating&sort=name:desc,id'],
      ['/restaurants', '/api/restaurants?status=draft&locale=*&pagination[start]=0&pagination[limit]=5'],
      ['/restaurants', '/api/restaurants?pagination[page]=1&pagination[pageSize]=1&pagination[withCount]=false&publicationFilter=has-published-version'],
      ['/restaurants/{documentId}', `/api/restaurants/${ids.restaurant}?populate=*`],
      ['/restaurants/{documentId}', `/api/restaurants/${ids.restaurant}?locale=fr&populate[localizations][fields][0]=locale`],
      ['/chefs', '/api/chefs?populate[owner][populate]=role&populate[restaurants]=*&populate[address][populate]=*'],
      ['/chefs/{documentId}', `/api/chefs/${ids.chef}?populate=*`],
      ['/categories', '/api/categories?populate=*&filters[name][$eq]=French'],
      ['/homepage', '/api/homepage'],
      ['/homepage', '/api/homepage?status=draft'],
      ['/upload/files', '/api/upload/files'],
      ['/upload/files/page', '/api/upload/files/page?pagination[pageSize]=1'],
      ['/upload/files/{id}', `/api/upload/files/${ids.file}`],
      ['/users', '/api/users?populate=role'],
      ['/users/{id}', `/api/users/${ids.user}?populate=role`],
      ['/users/count', '/api/users/count'],
      ['/i18n/locales', '/api/i18n/locales'],
    ];
    for (const [path, url] of reads) {
      const res = await p.api.get(url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assertMatches(path, 'get', res);
    }
    const me = await p.client(jwt).get('/api/users/me');
    assert.equal(me.statusCode, 200, me.body);
    assertMatches('/users/me', 'get', me);
    // The populated answer really carries what the schemas describe.
    const full = (await p.api.get(`/api/restaurants/${ids.restaurant}?populate=*`)).json().data;
    assert.equal(full.blocks[0].__component, 'shared.quote');
    assert.equal(full.visits, '9007199254740993');
    assert.equal(full.cover.id, Number(ids.file));
    // …and a document that breaks them fails: the schemas are strict, not permissive.
    const validate = validatorOf(responseSchema('/restaurants/{documentId}', 'get', 200));
    assert.equal(validate({ data: { ...full, kind: 'diner' }, meta: {} }), false);
    assert.equal(validate({ data: { ...full, unknown: 1 }, meta: {} }), false);
    assert.equal(validate({ data: { ...full, blocks: [{ ...full.blocks[0], __component: 'shared.seo' }] }, meta: {} }), false);
    assert.equal(validate({ data: { ...full, visits: 12 }, meta: {} }), false);
  });

  it('serves every path it lists: each operation answers one of its documented statuses, in the envelope when an error', async () => {
    const concrete = (path: string) => path
      .replace('/restaurants/{documentId}', `/restaurants/${ids.restaurant}`)
      .replace('/chefs/{documentId}', `/chefs/${ids.chef}`)
      .replace('/categories/{documentId}', `/categories/${ids.category}`)
      .replace('/upload/files/{id}', `/upload/files/${ids.file}`)
      .replace('/users/{id}', `/users/${ids.user}`);
    let calls = 0;
    for (const [path, item] of Object.entries(doc.paths) as Array<[string, Json]>) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        // GETs as a full-access caller (the user's JWT for /users/me); every other method anonymously with an empty
        // object, which must reach the route and be refused (permissions, validation) — never deleting anything.
        const url = `/api${concrete(path)}${path === '/auth/email-confirmation' ? '?confirmation=nope' : ''}`;
        const client = method === 'get' ? (path === '/users/me' ? p.client(jwt) : p.api) : p.client(null);
        const res = await client.raw(method.toUpperCase(), url, method === 'get' || method === 'delete' ? {} : { payload: {} });
        calls++;
        const documented = Object.keys(op.responses);
        assert.ok(documented.includes(String(res.statusCode)), `${method} ${url}: ${res.statusCode} not in ${documented.join(', ')}: ${res.body}`);
        if (method === 'get' && path !== '/auth/email-confirmation') assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        if (res.statusCode >= 400) {
          const body = res.json();
          assert.equal(body.data, null);
          assert.equal(body.error.status, res.statusCode);
          assert.notEqual(body.error.name, 'NotFoundError', `${method} ${url} is not served: ${res.body}`);
        }
        if (res.statusCode !== 302 && res.statusCode !== 204) assertMatches(path, method, res);
      }
    }
    assert.equal(calls, 39);
    // Nothing was deleted by the anonymous calls.
    assert.equal((await p.api.get(`/api/restaurants/${ids.restaurant}`)).statusCode, 200);
  });

  it('documents error answers that match the real ones: 404 findOne, 400 bad query, 403 forbidden, deletes', async () => {
    const missing = await p.api.get('/api/restaurants/nope');
    assert.equal(missing.statusCode, 404);
    assertMatches('/restaurants/{documentId}', 'get', missing);
    const bad = await p.api.get('/api/restaurants?status=nope');
    assert.equal(bad.statusCode, 400);
    assertMatches('/restaurants', 'get', bad);
    const forbidden = await p.client(null).get('/api/restaurants');
    assert.equal(forbidden.statusCode, 403);
    assertMatches('/restaurants', 'get', forbidden);
    const unknownUpdate = await p.api.put('/api/chefs/nope', { data: { name: 'x' } });
    assert.equal(unknownUpdate.statusCode, 404, unknownUpdate.body);
    assertMatches('/chefs/{documentId}', 'put', unknownUpdate);
    const invalid = await p.api.post('/api/restaurants', { data: { rating: 9, kind: 'diner' } });
    assert.equal(invalid.statusCode, 400, invalid.body);
    assertMatches('/restaurants', 'post', invalid);
    // The request schema refuses what the API refuses.
    const request = validatorOf(doc.paths['/restaurants'].post.requestBody.content['application/json'].schema);
    for (const data of [{ rating: 9 }, { kind: 'diner' }, { code: 'abc' }, { unknown: 1 }, { opensAt: '9am' }, { blocks: [{ __component: 'shared.seo', body: 'x' }] }, { gallery: ['a'] }]) {
      assert.equal(request({ data }), false, JSON.stringify(data));
      assert.equal((await p.api.post('/api/restaurants', { data: { name: 'Valid name', ...data } })).statusCode, 400, JSON.stringify(data));
    }
    // Deletes: 204, also for an unknown documentId or a single type that is gone; then its GET is 404.
    assert.equal((await p.api.del('/api/restaurants/nope')).statusCode, 204);
    const chef = (await p.api.post('/api/chefs', { data: { name: 'Temp' } })).json().data;
    assert.equal((await p.api.del(`/api/chefs/${chef.documentId}`)).statusCode, 204);
    const deleted = await p.api.del('/api/homepage');
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal((await p.api.del('/api/homepage')).statusCode, 204);
    assert.deepEqual(Object.keys(doc.paths['/homepage'].delete.responses), ['204', '400', '401', '403', '429', '503']);
    const missingHome = await p.api.get('/api/homepage');
    assert.equal(missingHome.statusCode, 404);
    assertMatches('/homepage', 'get', missingHome);
  });

  it('gives servers that reach the API by path and by the project host, and is served on the host form too', async () => {
    assert.deepEqual(doc.servers, [
      { url: `http://localhost:80/p/${p.slug}/api`, description: 'By path' },
      { url: `http://${p.slug}.${TEST_BASE_DOMAIN}:80/api`, description: 'The project\'s own host' },
    ]);
    const byHost = await t.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: `${p.slug}.${TEST_BASE_DOMAIN}` } });
    assert.equal(byHost.statusCode, 200, byHost.body);
    assert.deepEqual(byHost.json().servers, [
      { url: `http://${TEST_BASE_DOMAIN}/p/${p.slug}/api`, description: 'By path' },
      { url: `http://${p.slug}.${TEST_BASE_DOMAIN}/api`, description: 'The project\'s own host' },
    ]);
    assert.deepEqual(byHost.json().paths, doc.paths);
    for (const server of doc.servers as Array<{ url: string }>) {
      const url = new URL(`${server.url}/i18n/locales`);
      const res = await t.inject({ method: 'GET', url: url.pathname, headers: { host: url.host } });
      assert.equal(res.statusCode, 200, `${server.url}: ${res.body}`);
      assert.deepEqual(res.json().map((l: Json) => l.code), ['en', 'fr']);
    }
  });

  it('answers 404 in the envelope for an unknown project, by path and by host', async () => {
    for (const res of [
      await t.inject({ method: 'GET', url: '/p/no-such-project/api/openapi.json' }),
      await t.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: `no-such-project.${TEST_BASE_DOMAIN}` } }),
    ]) {
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), notFound());
    }
  });

  it('is built once per model version, and anew after a schema push', async () => {
    const builds = openApiBuildCount();
    const again = await fetchDocument(p.api);
    assert.equal(openApiBuildCount(), builds);
    assert.deepEqual(again, doc);
    const pushed = await p.admin.put(`/v1/projects/${p.slug}/schema`, {
      ...MODEL,
      contentTypes: {
        ...MODEL.contentTypes,
        'api::chef.chef': { ...MODEL.contentTypes['api::chef.chef'], attributes: { ...MODEL.contentTypes['api::chef.chef'].attributes, nickname: { type: 'string' } } },
        'api::menu.menu': { kind: 'collectionType', info: { singularName: 'menu', pluralName: 'menus', displayName: 'Menu' }, attributes: { price: { type: 'decimal' } } },
      },
    });
    assert.equal(pushed.statusCode, 200, pushed.body);
    const next = await fetchDocument();
    assert.equal(openApiBuildCount(), builds + 1);
    assert.equal(next.info.version, '2');
    assert.deepEqual(next.components.schemas.Chef.properties.nickname, { type: ['string', 'null'] });
    assert.equal(doc.components.schemas.Chef.properties.nickname, undefined);
    assert.ok(next.paths['/menus/{documentId}'].put);
    assert.equal(doc.paths['/menus'], undefined);
    const result = await new Validator().validate(next);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    await fetchDocument();
    assert.equal(openApiBuildCount(), builds + 1);
  });

  describe('GET /v1/projects/{slug}/openapi.json', () => {
    it('answers the document itself to every member (owner, viewer), 404 to others and 401 without a session', async () => {
      const owner = await p.admin.get(`/v1/projects/${p.slug}/openapi.json`);
      assert.equal(owner.statusCode, 200, owner.body);
      assert.equal(owner.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(owner.json(), await fetchDocument());
      const viewer = await signup(t);
      await addMember(t, p.id, viewer, 'viewer');
      const seen = await as(t, viewer).get(`/v1/projects/${p.slug}/openapi.json`);
      assert.equal(seen.statusCode, 200, seen.body);
      assert.equal(seen.json().openapi, '3.1.1');
      const stranger = await signup(t);
      const refused = await as(t, stranger).get(`/v1/projects/${p.slug}/openapi.json`);
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), notFound());
      const anonymous = await t.inject({ method: 'GET', url: `/v1/projects/${p.slug}/openapi.json` });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().error.name, 'UnauthorizedError');
      const unknown = await p.admin.get('/v1/projects/no-such-project/openapi.json');
      assert.equal(unknown.statusCode, 404);
    });

    it('keeps projects apart: each member gets its own project\'s model, never another\'s', async () => {
      const other = await signup(t);
      const project = await createProject(t, other, { name: 'Other shop' });
      const pushed = await as(t, other).put(`/v1/projects/${project.slug}/schema`, {
        contentTypes: { 'api::gadget.gadget': { kind: 'collectionType', info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' }, attributes: { label: { type: 'string' } } } },
        components: {},
      });
      assert.equal(pushed.statusCode, 200, pushed.body);
      const theirs = (await as(t, other).get(`/v1/projects/${project.slug}/openapi.json`)).json();
      assert.ok(theirs.paths['/gadgets']);
      assert.equal(theirs.paths['/restaurants'], undefined);
      assert.equal(theirs.info.title, 'Other shop API');
      assert.equal(theirs.servers[0].url, `http://localhost:80/p/${project.slug}/api`);
      const ours = (await p.admin.get(`/v1/projects/${p.slug}/openapi.json`)).json();
      assert.equal(ours.paths['/gadgets'], undefined);
      assert.ok(ours.paths['/restaurants']);
      // Neither owner reaches the other's document.
      assert.equal((await p.admin.get(`/v1/projects/${project.slug}/openapi.json`)).statusCode, 404);
      assert.equal((await as(t, other).get(`/v1/projects/${p.slug}/openapi.json`)).statusCode, 404);
      // The public route of each project describes that project only.
      const publicTheirs = (await t.inject({ method: 'GET', url: `/p/${project.slug}/api/openapi.json` })).json();
      assert.deepEqual(publicTheirs.paths, theirs.paths);
    });
  });
});
