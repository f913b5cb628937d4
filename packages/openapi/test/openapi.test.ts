// The document as a pure function of the model: the cached JSON text is the built document,
// names never collide, servers follow the request's form.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parseModel, type RawModel } from '@cms/schema';
import { physicalModel } from '@cms/tables';
import { buildOpenApiDocument, openApiBuildCount, openApiJson, projectServers } from '@cms/openapi';

const LIMITS = { defaultLimit: 25, maxLimit: 100 };
const ct = (singular: string, plural: string, attributes: Record<string, unknown>, kind = 'collectionType') =>
  ({ kind, info: { singularName: singular, pluralName: plural, displayName: singular }, attributes });

function runtimeOf(raw: RawModel) {
  const model = parseModel(raw);
  return { model, physical: physicalModel(model), version: 3 };
}

describe('@cms/openapi', () => {
  // Types whose derived names would clash: `restaurant` → RestaurantInput, and a type called `restaurant-input`.
  const raw: RawModel = {
    contentTypes: {
      'api::restaurant.restaurant': ct('restaurant', 'restaurants', { name: { type: 'string' } }),
      'api::restaurant-input.restaurant-input': ct('restaurant-input', 'restaurant-inputs', { note: { type: 'text' } }),
      'api::error.error': ct('error', 'errors', { code: { type: 'integer' } }),
      'api::about.about': ct('about', 'abouts', { body: { type: 'richtext' } }, 'singleType'),
    },
    components: {},
  };

  it('gives every schema and operation its own name', async () => {
    const doc = buildOpenApiDocument(runtimeOf(raw), { slug: 'shop', name: 'Shop' }, [], LIMITS);
    const schemas = doc.components.schemas as Record<string, { title?: string }>;
    assert.equal(schemas.Restaurant!.title, 'restaurant');
    assert.equal(schemas.RestaurantInput!.title, 'restaurant-input');
    assert.equal(schemas.RestaurantInput2!.title, 'restaurant (write)');
    // `Error` is the error envelope's; the content type gets the next free name.
    assert.equal(schemas.Error2!.title, 'error');
    assert.deepEqual((doc.paths['/errors'] as any).get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/Error2ListResponse' });
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item as object).filter((op) => op && typeof op === 'object' && 'operationId' in op).map((op) => op.operationId));
    assert.equal(new Set(ops).size, ops.length);
    assert.deepEqual((doc.paths['/about'] as any).get.operationId, 'getAbout');
    assert.equal((await new Validator().validate(structuredClone(doc))).valid, true);
  });

  it('describes an empty model (the plugins only) and tags types that share a display name apart', async () => {
    const empty = buildOpenApiDocument(runtimeOf({ contentTypes: {}, components: {} }), { slug: 'shop', name: 'Shop' }, [], LIMITS);
    assert.deepEqual(Object.keys(empty.paths).filter((path) => !/^\/(upload|users|auth|i18n|openapi)/.test(path)), []);
    assert.equal((await new Validator().validate(structuredClone(empty))).valid, true);
    const twins = buildOpenApiDocument(runtimeOf({
      contentTypes: {
        'api::post.post': { ...ct('post', 'posts', {}), info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' } },
        'api::blog-post.blog-post': { ...ct('blog-post', 'blog-posts', {}), info: { singularName: 'blog-post', pluralName: 'blog-posts', displayName: 'Post' } },
        'api::upload-thing.upload-thing': { ...ct('upload-thing', 'upload-things', {}), info: { singularName: 'upload-thing', pluralName: 'upload-things', displayName: 'Upload' } },
      },
      components: {},
    }), { slug: 'shop', name: 'Shop' }, [], LIMITS);
    assert.deepEqual((twins.tags as Array<{ name: string }>).map((t) => t.name), ['Post', 'Post2', 'Upload2', 'Upload', 'Users-Permissions', 'I18n', 'OpenAPI']);
    assert.deepEqual((twins.paths['/blog-posts'] as any).get.tags, ['Post2']);
  });

  it('serves the built document as JSON text, built once per model object', () => {
    const runtime = runtimeOf(raw);
    const servers = projectServers({ slug: 'shop', protocol: 'https', host: 'api.example.com', baseDomain: 'example.com', hostRouted: false });
    const before = openApiBuildCount();
    const text = openApiJson(runtime, { slug: 'shop', name: 'Shop' }, servers, LIMITS);
    assert.deepEqual(JSON.parse(text), buildOpenApiDocument(runtime, { slug: 'shop', name: 'Shop' }, servers, LIMITS));
    const renamed = openApiJson(runtime, { slug: 'shop', name: 'Renamed' }, servers, LIMITS);
    assert.equal(JSON.parse(renamed).info.title, 'Renamed API');
    assert.equal(openApiBuildCount(), before + 1);
    openApiJson(runtimeOf(raw), { slug: 'shop', name: 'Shop' }, servers, LIMITS);
    assert.equal(openApiBuildCount(), before + 2);
  });

  it('lists the API by path and by the project host, keeping the port', () => {
    assert.deepEqual(projectServers({ slug: 'shop', protocol: 'https', host: 'api.example.com', baseDomain: 'example.com', hostRouted: false }), [
      { url: 'https://api.example.com/p/shop/api', description: 'By path' },
      { url: 'https://shop.example.com/api', description: 'The project\'s own host' },
    ]);
    assert.deepEqual(projectServers({ slug: 'shop', protocol: 'http', host: 'shop.localhost:1337', baseDomain: 'localhost', hostRouted: true }), [
      { url: 'http://localhost:1337/p/shop/api', description: 'By path' },
      { url: 'http://shop.localhost:1337/api', description: 'The project\'s own host' },
    ]);
    assert.deepEqual(projectServers({ slug: 'shop', protocol: 'http', host: '[::1]:8080', baseDomain: 'localhost', hostRouted: false }).map((s) => s.url), [
      'http://[::1]:8080/p/shop/api', 'http://shop.localhost:8080/api',
    ]);
  });
});
