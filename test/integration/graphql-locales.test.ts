// The i18n plugin's GraphQL queries: i18NLocale(documentId), i18NLocales and _connection over a
// project's locales, with filters, sort and pagination — the same documents REST's
// /api/i18n/locales answers, and only the project's own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

describe('GraphQL i18NLocale(s)', () => {
  let t: TestApp;
  let p: ContentProject;
  let other: ContentProject;
  let rest: Array<{ documentId: string; code: string; name: string; createdAt: string; updatedAt: string; publishedAt: string }>;

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel(), ['fr', 'de', 'pt-BR']);
    other = await setupContentProject(t, blogRawModel(), ['it']);
    rest = (await p.api.get('/api/i18n/locales')).json();
  });
  after(async () => t?.close());

  const gql = async (query: string, variables?: unknown, project = p) => {
    const res = await project.api.post('/graphql', { query, variables });
    return { status: res.statusCode, body: res.json() };
  };

  it('i18NLocales lists the locales REST lists, with the same documents', async () => {
    const { status, body } = await gql('{ i18NLocales(pagination: { limit: -1 }) { documentId code name createdAt updatedAt publishedAt } }');
    assert.equal(status, 200);
    assert.deepEqual(body.data.i18NLocales, rest.map(({ documentId, code, name, createdAt, updatedAt, publishedAt }) => ({ documentId, code, name, createdAt, updatedAt, publishedAt })));
    assert.deepEqual(body.data.i18NLocales.map((l: { code: string }) => l.code), ['en', 'fr', 'de', 'pt-BR']);
  });

  it('i18NLocale by documentId; an unknown one is null', async () => {
    const fr = rest.find((l) => l.code === 'fr')!;
    assert.deepEqual((await gql('query ($id: ID!) { i18NLocale(documentId: $id) { code name } }', { id: fr.documentId })).body,
      { data: { i18NLocale: { code: 'fr', name: fr.name } } });
    assert.deepEqual((await gql('{ i18NLocale(documentId: "nope") { code } }')).body, { data: { i18NLocale: null } });
  });

  it('filters, sort and pagination as on every other list', async () => {
    const codes = async (args: string) => {
      const { status, body } = await gql(`{ i18NLocales(${args}) { code } }`);
      assert.equal(status, 200, JSON.stringify(body));
      return body.data.i18NLocales.map((l: { code: string }) => l.code);
    };
    assert.deepEqual(await codes('sort: "code:desc"'), ['pt-BR', 'fr', 'en', 'de']);
    assert.deepEqual(await codes('sort: ["code"]'), ['de', 'en', 'fr', 'pt-BR']);
    assert.deepEqual(await codes('filters: { code: { in: ["fr", "de", "zz"] } }, sort: "code"'), ['de', 'fr']);
    assert.deepEqual(await codes('filters: { or: [{ code: { eq: "en" } }, { code: { startsWith: "pt" } }] }'), ['en', 'pt-BR']);
    assert.deepEqual(await codes('filters: { not: { code: { eqi: "EN" } } }'), ['fr', 'de', 'pt-BR']);
    assert.deepEqual(await codes('filters: { code: { containsi: "BR" }, name: { notNull: true } }'), ['pt-BR']);
    assert.deepEqual(await codes('sort: "code", pagination: { page: 2, pageSize: 3 }'), ['pt-BR']);
    assert.deepEqual(await codes('sort: "code", pagination: { start: 1, limit: 2 }'), ['en', 'fr']);
    const connection = await gql('{ i18NLocales_connection(sort: "code", pagination: { pageSize: 2 }) { nodes { code } pageInfo { page pageSize pageCount total } } }');
    assert.deepEqual(connection.body.data.i18NLocales_connection, { nodes: [{ code: 'de' }, { code: 'en' }], pageInfo: { page: 1, pageSize: 2, pageCount: 2, total: 4 } });
  });

  it('bad sorts and filters are refused like on content types', async () => {
    const badKey = await gql('{ i18NLocales(sort: "isDefault") { code } }');
    assert.equal(badKey.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.equal(badKey.body.errors[0].message, 'Invalid key isDefault');
    const badDirection = await gql('{ i18NLocales(sort: "code:up") { code } }');
    assert.equal(badDirection.body.errors[0].message, 'Invalid order. order can only be one of asc|desc|ASC|DESC');
    const badField = await gql('{ i18NLocales(filters: { nope: { eq: "x" } }) { code } }');
    assert.equal(badField.status, 400);
    assert.equal(badField.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    const mixed = await gql('{ i18NLocales(pagination: { page: 1, limit: 2 }) { code } }');
    assert.equal(mixed.body.errors[0].extensions.code, 'STRAPI_PAGINATION_ERROR');
  });

  it("another project's locales are never listed", async () => {
    const { body } = await gql('{ i18NLocales { code } }', undefined, other);
    assert.deepEqual(body.data.i18NLocales, [{ code: 'en' }, { code: 'it' }]);
    const fr = rest.find((l) => l.code === 'fr')!;
    assert.deepEqual((await gql('query ($id: ID!) { i18NLocale(documentId: $id) { code } }', { id: fr.documentId }, other)).body, { data: { i18NLocale: null } });
  });

  it('a content type whose GraphQL names would take these is refused at push', async () => {
    const res = await p.admin.put(`/v1/projects/${p.slug}/content-types/api::i18-n-locale.i18-n-locale`, {
      kind: 'collectionType', info: { singularName: 'i18-n-locale', pluralName: 'i18-n-locales', displayName: 'Clash' }, attributes: { x: { type: 'string' } },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().error.message, /reserved for the i18n plugin|I18NLocale/);
  });
});
