// Conformance of the GraphQL content API (`POST /p/{slug}/graphql`) with
// docs/content-api-reference.md §9 and content-api-spec.md §4.6, end to end through the gateway:
// every scalar filter operator on every scalar kind, logical/relation/component filters (literal
// and via variables), sort, pagination, dynamic zones, locale & status, and hostile input
// (malformed bodies, bad variables, validation/parse errors, injection-looking values, deep and
// huge filters, a seeded fuzz) — never a 5xx, never INTERNAL_SERVER_ERROR, never a partial write.
//
// Suites run in order: the filter/sort suite sees only its seed rows; later suites add their own
// rows and scope their queries to them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { KITCHEN_MODEL } from '../fixtures/kitchen.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Json = Record<string, unknown>;
type GqlError = { message: string; locations?: unknown; path?: unknown; extensions?: { code?: string; error?: Json } };
type GqlBody = { data?: Json | null; errors?: GqlError[] };

const show = (res: LightMyRequestResponse) => `${res.statusCode} ${res.body.slice(0, 600)}`;

// The server caches parsed documents per query text and handles a document's first, second and
// later requests differently; a trailing comment makes a query text new.
let uniqueSeq = 0;
const fresh = (query: string) => `${query}\n# ${++uniqueSeq}`;

/** A JS value as a GraphQL literal: object keys bare, strings JSON-quoted (valid GraphQL escapes). */
function lit(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(lit).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Json).map(([k, x]) => `${k}: ${lit(x)}`).join(', ')}}`;
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** mulberry32: a small seeded PRNG, so the fuzz is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED_NAMES = ['Alpha', 'Bravo', 'Charlie', 'Delta 100%', 'Echo_x'];
const PAG = { chef: { name: { eq: 'Pag Chef' } } };
const PAG_NAMES = Array.from({ length: 12 }, (_, i) => `Pag ${String(i + 1).padStart(2, '0')}`);
const ALLOWED_400_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE']);

describe('GraphQL content API conformance', () => {
  let t: TestApp;
  let p: ContentProject;
  const ids: Record<string, string> = {};

  const gql = (query: string, variables?: Json, client: ContentClient = p.api, extra: Json = {}) =>
    client.post('/graphql', { query, ...(variables !== undefined ? { variables } : {}), ...extra });

  /** A successful operation: 200, no errors; returns `data`. */
  async function ok(query: string, variables?: Json): Promise<Json> {
    const res = await gql(query, variables);
    assert.equal(res.statusCode, 200, show(res));
    const body = res.json() as GqlBody;
    assert.equal(body.errors, undefined, show(res));
    return body.data!;
  }

  /** Asserts a request-level error (HTTP 4xx, no data) with one error of the given code; returns it. */
  function requestError(res: LightMyRequestResponse, status: number, code: string): GqlError {
    assert.equal(res.statusCode, status, show(res));
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const body = res.json() as GqlBody;
    assert.deepEqual(Object.keys(body), ['errors'], show(res));
    assert.equal(body.errors!.length >= 1, true);
    for (const e of body.errors!) assert.equal(e.extensions?.code, code, show(res));
    return body.errors![0]!;
  }

  /** Names of the restaurants a filter returns, sorted by name. */
  async function filterNames(filters: unknown, mode: 'literal' | 'variables'): Promise<string[]> {
    const data = mode === 'literal'
      ? await ok(`{ restaurants(filters: ${lit(filters)}, sort: "name") { name } }`)
      : await ok('query F($f: RestaurantFiltersInput) { restaurants(filters: $f, sort: "name") { name } }', { f: filters });
    return (data.restaurants as Array<{ name: string }>).map((r) => r.name);
  }

  const rest = async (url: string, data: Json) => {
    const res = await p.api.post(url, { data });
    assert.equal(res.statusCode, 201, show(res));
    return res.json().data as Json & { documentId: string };
  };

  const sql = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Record<string, unknown>>;

  /** Row counts of every table of the project's schema (to prove nothing was written). */
  async function snapshot(): Promise<Record<string, number>> {
    const tables = await sql(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`, [p.schema]);
    const out: Record<string, number> = {};
    for (const { table_name } of tables) {
      out[String(table_name)] = Number((await sql(`SELECT count(*)::int AS n FROM "${p.schema}"."${String(table_name)}"`))[0]!.n);
    }
    return out;
  }

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, KITCHEN_MODEL, ['fr']);
    for (const name of ['Ann Chef', 'Bob Chef']) ids[name] = (await rest('/api/chefs', { name })).documentId;
    for (const name of ['Xcat', 'Ycat', 'Zcat']) ids[name] = (await rest('/api/categories', { name })).documentId;
    const seed: Json[] = [
      {
        name: 'Alpha', description: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }], rating: 5, price: 12.5, open: true,
        openedOn: '2020-01-15', opensAt: '10:30:00', lastVisit: '2024-01-01T10:00:00.000Z', visits: '9007199254740993', score: 4.5,
        email: 'alpha@example.com', kind: 'bistro', code: 'AAA', tags: { a: [1, 2] }, chef: ids['Ann Chef'], categories: [ids.Xcat, ids.Ycat],
        seo: { metaTitle: 'Alpha SEO', metaDescription: 'first' },
        blocks: [
          { __component: 'shared.quote', body: 'Q1', author: 'Ann' },
          { __component: 'shared.seo', metaTitle: 'Block SEO' },
          { __component: 'shared.quote', body: 'Q2' },
        ],
        sections: [{ body: 's1', author: 'A1' }, { body: 's2' }],
      },
      {
        name: 'Bravo', rating: 3, price: 8.25, open: false, openedOn: '2021-06-30', opensAt: '18:00:00', lastVisit: '2024-06-15T12:30:00.000Z',
        visits: '100', score: 3.25, email: 'bravo@example.com', kind: 'brasserie', code: 'BBB', chef: ids['Ann Chef'], categories: [ids.Ycat],
        seo: { metaTitle: 'Bravo SEO' },
      },
      { name: 'Charlie', rating: 3, price: 20, open: true, openedOn: '2019-12-31', visits: '5', kind: 'cafe', chef: ids['Bob Chef'] },
      { name: 'Delta 100%', rating: 1, score: 1.5, categories: [ids.Zcat], seo: { metaTitle: 'delta seo' } },
      {
        name: 'Echo_x', price: 99.99, open: false, openedOn: '2022-02-02', lastVisit: '2023-12-31T23:59:59.999Z', visits: '-7', score: 0,
        email: 'ECHO@example.com', kind: 'bistro', chef: ids['Bob Chef'], categories: [ids.Xcat],
      },
    ];
    for (const data of seed) ids[String(data.name)] = (await rest('/api/restaurants', data)).documentId;
  });
  after(async () => t?.close());

  // ------------------------------------------------------------------------------------------
  describe('object types and scalars (reference §9.3)', () => {
    it('every scalar of a restaurant, in its GraphQL type; no id, password or private field', async () => {
      const data = await ok(`query($id: ID!) { restaurant(documentId: $id) {
        documentId name description rating price open openedOn opensAt lastVisit visits score email kind code tags
        createdAt updatedAt publishedAt locale } }`, { id: ids.Alpha });
      const r = data.restaurant as Json;
      assert.match(String(r.createdAt), ISO);
      assert.match(String(r.updatedAt), ISO);
      assert.match(String(r.publishedAt), ISO);
      assert.match(String(r.opensAt), /^10:30:00(\.000)?$/, 'Time: HH:mm:ss.SSS (or HH:mm:ss)');
      assert.deepEqual({ ...r, createdAt: '', updatedAt: '', publishedAt: '', opensAt: '' }, {
        documentId: ids.Alpha, name: 'Alpha', description: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
        rating: 5, price: 12.5, open: true, openedOn: '2020-01-15', opensAt: '', lastVisit: '2024-01-01T10:00:00.000Z',
        visits: '9007199254740993', score: 4.5, email: 'alpha@example.com', kind: 'bistro', code: 'AAA', tags: { a: [1, 2] },
        createdAt: '', updatedAt: '', publishedAt: '', locale: 'en',
      });
      for (const field of ['id', 'pin', 'secret']) {
        const res = await gql(`{ restaurants { ${field} } }`);
        const message = requestError(res, 400, 'GRAPHQL_VALIDATION_FAILED').message;
        assert.ok(message.startsWith(`Cannot query field "${field}" on type "Restaurant".`), message);
      }
    });

    it('filter inputs have the documented field sets (§9.4): scalar inputs identical, no media / DZ / password / private', async () => {
      const fieldsOf = async (name: string) => {
        const data = await ok(`{ __type(name: "${name}") { inputFields { name type { name ofType { name } } } } }`);
        return (data.__type as { inputFields: Array<{ name: string; type: { name: string | null; ofType: { name: string } | null } }> }).inputFields
          .map((f) => `${f.name}:${f.type.name ?? `[${f.type.ofType!.name}]`}`);
      };
      for (const scalar of ['String', 'Int', 'Long', 'Float', 'Boolean', 'Date', 'Time', 'DateTime', 'JSON', 'ID']) {
        const X = scalar;
        assert.deepEqual((await fieldsOf(`${scalar}FilterInput`)).sort(), [
          `and:[${X}]`, `or:[${X}]`, `not:${X}FilterInput`, ...['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi',
            'notContainsi', 'gt', 'gte', 'lt', 'lte'].map((op) => `${op}:${X}`), 'null:Boolean', 'notNull:Boolean', `in:[${X}]`, `notIn:[${X}]`, `between:[${X}]`,
        ].sort(), scalar);
      }
      assert.deepEqual((await fieldsOf('RestaurantFiltersInput')).sort(), [
        'documentId:IDFilterInput', 'name:StringFilterInput', 'description:JSONFilterInput', 'rating:IntFilterInput', 'price:FloatFilterInput',
        'open:BooleanFilterInput', 'openedOn:DateFilterInput', 'opensAt:TimeFilterInput', 'lastVisit:DateTimeFilterInput', 'visits:LongFilterInput',
        'score:FloatFilterInput', 'email:StringFilterInput', 'kind:StringFilterInput', 'code:StringFilterInput', 'tags:JSONFilterInput',
        'chef:ChefFiltersInput', 'categories:CategoryFiltersInput', 'seo:ComponentSharedSeoFiltersInput', 'sections:ComponentSharedQuoteFiltersInput',
        'createdAt:DateTimeFilterInput', 'updatedAt:DateTimeFilterInput', 'publishedAt:DateTimeFilterInput', 'locale:StringFilterInput',
        'localizations:RestaurantFiltersInput', 'and:[RestaurantFiltersInput]', 'or:[RestaurantFiltersInput]', 'not:RestaurantFiltersInput',
      ].sort());
      assert.deepEqual((await fieldsOf('PaginationArg')).sort(), ['limit:Int', 'page:Int', 'pageSize:Int', 'start:Int']);
    });

    it('read queries take hasPublishedVersion: drafts of documents with or without a published version', async () => {
      const res = await gql('{ __type(name: "Query") { fields { name args { name } } } }');
      const fields = ((res.json() as GqlBody).data!.__type as { fields: Array<{ name: string; args: Array<{ name: string }> }> }).fields;
      for (const name of ['restaurant', 'restaurants', 'restaurants_connection', 'homepage']) {
        const args = fields.find((f) => f.name === name)!.args.map((a) => a.name);
        assert.ok(args.includes('hasPublishedVersion'), `${name}(${args.join(', ')})`);
      }
      assert.deepEqual(await ok('{ restaurants(hasPublishedVersion: true, filters: {name: {eq: "Alpha"}}) { name } }'), { restaurants: [{ name: 'Alpha' }] });
      const draft = await ok('mutation { createRestaurant(status: DRAFT, data: {name: "Never published"}) { documentId } }');
      const id = (draft.createRestaurant as { documentId: string }).documentId;
      try {
        const never = await ok('{ restaurants(status: DRAFT, hasPublishedVersion: false) { name } }');
        assert.deepEqual(never, { restaurants: [{ name: 'Never published' }] });
        const published = await ok('{ restaurants(status: DRAFT, hasPublishedVersion: true, filters: {name: {eq: "Never published"}}) { name } }');
        assert.deepEqual(published, { restaurants: [] });
        assert.deepEqual(await ok(`{ restaurant(documentId: "${id}", status: DRAFT, hasPublishedVersion: true) { name } }`), { restaurant: null });
      } finally {
        await ok(`mutation { deleteRestaurant(documentId: "${id}") { documentId } }`);
      }
    });

    it('a missing document is null without an error', async () => {
      const res = await gql('{ restaurant(documentId: "doesnotexist000000000000") { name } }');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { data: { restaurant: null } });
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('filters (reference §9.4, §3.6)', () => {
    type Case = { label: string; filter: () => unknown; expected: string[]; todo?: string };
    const ALL = SEED_NAMES;
    const [A, B, C, D, E] = SEED_NAMES as [string, string, string, string, string];
    const CASES: Case[] = [
      // StringFilterInput on a string
      { label: 'string eq', filter: () => ({ name: { eq: 'Alpha' } }), expected: [A] },
      { label: 'string eq is case-sensitive', filter: () => ({ name: { eq: 'alpha' } }), expected: [] },
      { label: 'string eqi', filter: () => ({ name: { eqi: 'aLPHA' } }), expected: [A] },
      { label: 'string ne', filter: () => ({ name: { ne: 'Alpha' } }), expected: [B, C, D, E] },
      { label: 'string nei', filter: () => ({ name: { nei: 'ALPHA' } }), expected: [B, C, D, E] },
      { label: 'string startsWith (case-sensitive)', filter: () => ({ name: { startsWith: 'Al' } }), expected: [A] },
      { label: 'string startsWith lower-case finds nothing', filter: () => ({ name: { startsWith: 'al' } }), expected: [] },
      { label: 'string endsWith', filter: () => ({ name: { endsWith: 'lie' } }), expected: [C] },
      { label: 'string endsWith: % is literal', filter: () => ({ name: { endsWith: '100%' } }), expected: [D] },
      { label: 'string contains (case-sensitive)', filter: () => ({ name: { contains: 'ha' } }), expected: [A, C] },
      { label: 'string contains upper-case finds nothing', filter: () => ({ name: { contains: 'HA' } }), expected: [] },
      { label: 'string contains: % is literal', filter: () => ({ name: { contains: '%' } }), expected: [D] },
      { label: 'string contains: _ is literal', filter: () => ({ name: { contains: '_' } }), expected: [E] },
      { label: 'string contains: \\ is literal', filter: () => ({ name: { contains: '\\' } }), expected: [] },
      { label: 'string notContains', filter: () => ({ name: { notContains: 'ha' } }), expected: [B, D, E] },
      { label: 'string containsi', filter: () => ({ name: { containsi: 'HA' } }), expected: [A, C] },
      { label: 'string notContainsi', filter: () => ({ name: { notContainsi: 'A' } }), expected: [E] },
      { label: 'string in', filter: () => ({ name: { in: ['Alpha', 'Echo_x', 'Nope'] } }), expected: [A, E] },
      { label: 'string notIn', filter: () => ({ name: { notIn: ['Alpha', 'Echo_x'] } }), expected: [B, C, D] },
      { label: 'string in: a single value is a list of one', filter: () => ({ name: { in: 'Bravo' } }), expected: [B] },
      { label: 'string in []', filter: () => ({ name: { in: [] } }), expected: [] },
      { label: 'string gt / lt', filter: () => ({ name: { gt: 'B', lt: 'D' } }), expected: [B, C] },
      { label: 'string between', filter: () => ({ name: { between: ['Bravo', 'Charlie'] } }), expected: [B, C] },
      { label: 'string null on a required field', filter: () => ({ name: { null: true } }), expected: [] },
      { label: 'string notNull', filter: () => ({ name: { notNull: true } }), expected: ALL },
      // text-like: email
      { label: 'email endsWith is case-sensitive', filter: () => ({ email: { endsWith: '@example.com' } }), expected: [A, B, E] },
      { label: 'email eqi', filter: () => ({ email: { eqi: 'echo@EXAMPLE.com' } }), expected: [E] },
      { label: 'email contains lower-case misses upper-case', filter: () => ({ email: { contains: 'echo' } }), expected: [] },
      { label: 'email containsi', filter: () => ({ email: { containsi: 'ECHO' } }), expected: [E] },
      { label: 'email notContainsi excludes NULL', filter: () => ({ email: { notContainsi: 'alpha' } }), expected: [B, E] },
      { label: 'code null', filter: () => ({ code: { null: true } }), expected: [C, D, E] },
      { label: 'code null: false = notNull', filter: () => ({ code: { null: false } }), expected: [A, B] },
      { label: 'code notNull: false = null', filter: () => ({ code: { notNull: false } }), expected: [C, D, E] },
      // IntFilterInput
      { label: 'integer eq', filter: () => ({ rating: { eq: 3 } }), expected: [B, C] },
      { label: 'integer eq null = IS NULL', filter: () => ({ rating: { eq: null } }), expected: [E] },
      { label: 'integer ne excludes NULL', filter: () => ({ rating: { ne: 3 } }), expected: [A, D] },
      { label: 'integer ne null = IS NOT NULL', filter: () => ({ rating: { ne: null } }), expected: [A, B, C, D] },
      { label: 'integer eqi', filter: () => ({ rating: { eqi: 3 } }), expected: [B, C] },
      { label: 'integer nei', filter: () => ({ rating: { nei: 3 } }), expected: [A, D] },
      { label: 'integer gt', filter: () => ({ rating: { gt: 3 } }), expected: [A] },
      { label: 'integer gte', filter: () => ({ rating: { gte: 3 } }), expected: [A, B, C] },
      { label: 'integer lt', filter: () => ({ rating: { lt: 3 } }), expected: [D] },
      { label: 'integer lte', filter: () => ({ rating: { lte: 3 } }), expected: [B, C, D] },
      { label: 'integer gte + lte on one field', filter: () => ({ rating: { gte: 2, lte: 4 } }), expected: [B, C] },
      { label: 'integer in', filter: () => ({ rating: { in: [1, 5] } }), expected: [A, D] },
      { label: 'integer notIn excludes NULL', filter: () => ({ rating: { notIn: [1, 5] } }), expected: [B, C] },
      { label: 'integer between is inclusive', filter: () => ({ rating: { between: [3, 5] } }), expected: [A, B, C] },
      { label: 'integer null', filter: () => ({ rating: { null: true } }), expected: [E] },
      { label: 'integer notNull', filter: () => ({ rating: { notNull: true } }), expected: [A, B, C, D] },
      { label: 'integer field-level or (values compared with eq)', filter: () => ({ rating: { or: [1, 5] } }), expected: [A, D] },
      { label: 'integer field-level and', filter: () => ({ rating: { and: [3] } }), expected: [B, C] },
      { label: 'integer field-level not excludes NULL', filter: () => ({ rating: { not: { eq: 3 } } }), expected: [A, D] },
      { label: 'integer field-level not in', filter: () => ({ rating: { not: { in: [3, 5] } } }), expected: [D] },
      // FloatFilterInput on a decimal and a float
      { label: 'decimal eq', filter: () => ({ price: { eq: 8.25 } }), expected: [B] },
      { label: 'decimal gt', filter: () => ({ price: { gt: 10 } }), expected: [A, C, E] },
      { label: 'decimal lte', filter: () => ({ price: { lte: 12.5 } }), expected: [A, B] },
      { label: 'decimal between', filter: () => ({ price: { between: [8.25, 20] } }), expected: [A, B, C] },
      { label: 'decimal in', filter: () => ({ price: { in: [8.25, 99.99] } }), expected: [B, E] },
      { label: 'decimal notIn', filter: () => ({ price: { notIn: [8.25] } }), expected: [A, C, E] },
      { label: 'decimal null', filter: () => ({ price: { null: true } }), expected: [D] },
      { label: 'decimal containsi (compared as text)', filter: () => ({ price: { containsi: 12.5 } }), expected: [A] },
      { label: 'float eq 0', filter: () => ({ score: { eq: 0 } }), expected: [E] },
      { label: 'float lt', filter: () => ({ score: { lt: 2 } }), expected: [D, E] },
      { label: 'float gte', filter: () => ({ score: { gte: 3.25 } }), expected: [A, B] },
      { label: 'float ne', filter: () => ({ score: { ne: 0 } }), expected: [A, B, D] },
      { label: 'float between', filter: () => ({ score: { between: [0, 1.5] } }), expected: [D, E] },
      { label: 'float notNull', filter: () => ({ score: { notNull: true } }), expected: [A, B, D, E] },
      // LongFilterInput (biginteger, string-serialised)
      { label: 'Long eq beyond 2^53', filter: () => ({ visits: { eq: '9007199254740993' } }), expected: [A] },
      { label: 'Long eq: 2^53 is another value', filter: () => ({ visits: { eq: '9007199254740992' } }), expected: [] },
      { label: 'Long gt', filter: () => ({ visits: { gt: '99' } }), expected: [A, B] },
      { label: 'Long gte beyond 2^53', filter: () => ({ visits: { gte: '9007199254740993' } }), expected: [A] },
      { label: 'Long lt (integer literal)', filter: () => ({ visits: { lt: 0 } }), expected: [E] },
      { label: 'Long lte', filter: () => ({ visits: { lte: 5 } }), expected: [C, E] },
      { label: 'Long between', filter: () => ({ visits: { between: ['5', '100'] } }), expected: [B, C] },
      { label: 'Long in (string and number)', filter: () => ({ visits: { in: ['5', -7] } }), expected: [C, E] },
      { label: 'Long notIn', filter: () => ({ visits: { notIn: ['5'] } }), expected: [A, B, E] },
      { label: 'Long ne', filter: () => ({ visits: { ne: '100' } }), expected: [A, C, E] },
      { label: 'Long null', filter: () => ({ visits: { null: true } }), expected: [D] },
      // BooleanFilterInput
      { label: 'boolean eq true (default applied on create)', filter: () => ({ open: { eq: true } }), expected: [A, C, D] },
      { label: 'boolean eq false', filter: () => ({ open: { eq: false } }), expected: [B, E] },
      { label: 'boolean ne', filter: () => ({ open: { ne: true } }), expected: [B, E] },
      { label: 'boolean in', filter: () => ({ open: { in: [false] } }), expected: [B, E] },
      { label: 'boolean null', filter: () => ({ open: { null: true } }), expected: [] },
      // DateFilterInput
      { label: 'date eq', filter: () => ({ openedOn: { eq: '2019-12-31' } }), expected: [C] },
      { label: 'date ne', filter: () => ({ openedOn: { ne: '2020-01-15' } }), expected: [B, C, E] },
      { label: 'date gt', filter: () => ({ openedOn: { gt: '2020-01-01' } }), expected: [A, B, E] },
      { label: 'date gte', filter: () => ({ openedOn: { gte: '2021-06-30' } }), expected: [B, E] },
      { label: 'date lt', filter: () => ({ openedOn: { lt: '2020-01-01' } }), expected: [C] },
      { label: 'date lte', filter: () => ({ openedOn: { lte: '2020-01-15' } }), expected: [A, C] },
      { label: 'date between', filter: () => ({ openedOn: { between: ['2020-01-01', '2021-12-31'] } }), expected: [A, B] },
      { label: 'date in', filter: () => ({ openedOn: { in: ['2020-01-15', '2022-02-02'] } }), expected: [A, E] },
      { label: 'date notIn', filter: () => ({ openedOn: { notIn: ['2020-01-15'] } }), expected: [B, C, E] },
      { label: 'date null', filter: () => ({ openedOn: { null: true } }), expected: [D] },
      { label: 'date containsi (compared as YYYY-MM-DD text)', filter: () => ({ openedOn: { containsi: '2020-01-15' } }), expected: [A] },
      // DateTimeFilterInput
      { label: 'datetime eq', filter: () => ({ lastVisit: { eq: '2024-06-15T12:30:00.000Z' } }), expected: [B] },
      { label: 'datetime eq with an offset', filter: () => ({ lastVisit: { eq: '2024-01-01T11:00:00+01:00' } }), expected: [A] },
      { label: 'datetime gt', filter: () => ({ lastVisit: { gt: '2024-01-01T10:00:00Z' } }), expected: [B] },
      { label: 'datetime gte', filter: () => ({ lastVisit: { gte: '2024-01-01T10:00:00.000Z' } }), expected: [A, B] },
      { label: 'datetime lt', filter: () => ({ lastVisit: { lt: '2024-01-01T00:00:00Z' } }), expected: [E] },
      { label: 'datetime lte', filter: () => ({ lastVisit: { lte: '2024-01-01T10:00:00.000Z' } }), expected: [A, E] },
      { label: 'datetime between', filter: () => ({ lastVisit: { between: ['2023-12-31T23:59:59.999Z', '2024-01-01T10:00:00Z'] } }), expected: [A, E] },
      { label: 'datetime null', filter: () => ({ lastVisit: { null: true } }), expected: [C, D] },
      { label: 'datetime notNull', filter: () => ({ lastVisit: { notNull: true } }), expected: [A, B, E] },
      { label: 'timestamps: createdAt notNull', filter: () => ({ createdAt: { notNull: true } }), expected: ALL },
      { label: 'timestamps: createdAt lt 2000', filter: () => ({ createdAt: { lt: '2000-01-01T00:00:00Z' } }), expected: [] },
      { label: 'timestamps: publishedAt null on published reads', filter: () => ({ publishedAt: { null: true } }), expected: [] },
      // TimeFilterInput
      { label: 'time eq', filter: () => ({ opensAt: { eq: '10:30:00.000' } }), expected: [A] },
      { label: 'time gt', filter: () => ({ opensAt: { gt: '12:00:00' } }), expected: [B] },
      { label: 'time lt', filter: () => ({ opensAt: { lt: '12:00:00' } }), expected: [A] },
      { label: 'time null', filter: () => ({ opensAt: { null: true } }), expected: [C, D, E] },
      // enumeration through StringFilterInput (verified)
      { label: 'enum eq', filter: () => ({ kind: { eq: 'bistro' } }), expected: [A, E] },
      { label: 'enum eqi', filter: () => ({ kind: { eqi: 'BISTRO' } }), expected: [A, E] },
      { label: 'enum ne', filter: () => ({ kind: { ne: 'bistro' } }), expected: [B, C] },
      { label: 'enum in', filter: () => ({ kind: { in: ['cafe', 'brasserie'] } }), expected: [B, C] },
      { label: 'enum notIn', filter: () => ({ kind: { notIn: ['cafe', 'brasserie'] } }), expected: [A, E] },
      { label: 'enum startsWith', filter: () => ({ kind: { startsWith: 'b' } }), expected: [A, B, E] },
      { label: 'enum endsWith', filter: () => ({ kind: { endsWith: 'rie' } }), expected: [B] },
      { label: 'enum null', filter: () => ({ kind: { null: true } }), expected: [D] },
      { label: 'enum eq a value outside the enumeration', filter: () => ({ kind: { eq: 'diner' } }), expected: [] },
      // JSON
      { label: 'json notNull', filter: () => ({ tags: { notNull: true } }), expected: [A] },
      { label: 'json null', filter: () => ({ tags: { null: true } }), expected: [B, C, D, E] },
      // locale (StringFilterInput on localized types)
      { label: 'locale eq en', filter: () => ({ locale: { eq: 'en' } }), expected: ALL },
      { label: 'locale eq fr (the root reads en)', filter: () => ({ locale: { eq: 'fr' } }), expected: [] },
      // documentId (IDFilterInput)
      { label: 'documentId eq', filter: () => ({ documentId: { eq: ids.Alpha } }), expected: [A] },
      { label: 'documentId in', filter: () => ({ documentId: { in: [ids.Alpha, ids.Bravo] } }), expected: [A, B] },
      { label: 'documentId ne', filter: () => ({ documentId: { ne: ids.Alpha } }), expected: [B, C, D, E] },
      { label: 'documentId notIn', filter: () => ({ documentId: { notIn: [ids.Alpha, ids.Bravo] } }), expected: [C, D, E] },
      { label: 'documentId eq unknown', filter: () => ({ documentId: { eq: 'zzzzzzzzzzzzzzzzzzzzzzzz' } }), expected: [] },
      // top-level logic
      { label: 'empty filters object', filter: () => ({}), expected: ALL },
      { label: 'two fields in one object are ANDed', filter: () => ({ rating: { eq: 3 }, open: { eq: true } }), expected: [C] },
      { label: 'top-level or', filter: () => ({ or: [{ rating: { eq: 5 } }, { kind: { eq: 'cafe' } }] }), expected: [A, C] },
      { label: 'top-level and', filter: () => ({ and: [{ rating: { gte: 3 } }, { open: { eq: true } }] }), expected: [A, C] },
      { label: 'top-level and on one field', filter: () => ({ and: [{ name: { startsWith: 'A' } }, { name: { endsWith: 'a' } }] }), expected: [A] },
      { label: 'top-level not excludes NULL', filter: () => ({ not: { rating: { eq: 3 } } }), expected: [A, D] },
      { label: 'top-level not not', filter: () => ({ not: { not: { rating: { eq: 3 } } } }), expected: [B, C] },
      { label: 'top-level not of or', filter: () => ({ not: { or: [{ kind: { eq: 'bistro' } }, { rating: { lt: 2 } }] } }), expected: [B, C] },
      {
        label: 'nested or / and',
        filter: () => ({ or: [{ and: [{ open: { eq: false } }, { rating: { null: true } }] }, { name: { eq: 'Alpha' } }] }),
        expected: [A, E],
      },
      { label: 'name not startsWith', filter: () => ({ name: { not: { startsWith: 'A' } } }), expected: [B, C, D, E] },
      // relations
      { label: 'to-one relation: chef.name eq', filter: () => ({ chef: { name: { eq: 'Ann Chef' } } }), expected: [A, B] },
      { label: 'to-one relation: chef.name startsWith', filter: () => ({ chef: { name: { startsWith: 'Bob' } } }), expected: [C, E] },
      { label: 'to-one relation: chef.name null matches no chef (LEFT JOIN)', filter: () => ({ chef: { name: { null: true } } }), expected: [D] },
      { label: 'to-one relation: chef.documentId', filter: () => ({ chef: { documentId: { eq: ids['Ann Chef'] } } }), expected: [A, B] },
      { label: 'relation two levels: chef.restaurants.name', filter: () => ({ chef: { restaurants: { name: { eq: 'Bravo' } } } }), expected: [A, B] },
      { label: 'not over a relation', filter: () => ({ not: { chef: { name: { eq: 'Ann Chef' } } } }), expected: [C, E] },
      { label: 'to-many relation: categories.name eq', filter: () => ({ categories: { name: { eq: 'Ycat' } } }), expected: [A, B] },
      { label: 'to-many relation: categories.name in', filter: () => ({ categories: { name: { in: ['Xcat', 'Zcat'] } } }), expected: [A, D, E] },
      { label: 'to-many relation: categories.documentId', filter: () => ({ categories: { documentId: { eq: ids.Zcat } } }), expected: [D] },
      { label: 'to-many relation: no match', filter: () => ({ categories: { name: { eq: 'Nope' } } }), expected: [] },
      {
        label: 'to-many relation two levels: categories.restaurants.name',
        filter: () => ({ categories: { restaurants: { name: { eq: 'Echo_x' } } } }),
        expected: [A, E],
      },
      {
        label: 'or across relations',
        filter: () => ({ or: [{ chef: { name: { eq: 'Bob Chef' } } }, { categories: { name: { eq: 'Zcat' } } }] }),
        expected: [C, D, E],
      },
      { label: 'relation and scalar together', filter: () => ({ chef: { name: { eq: 'Ann Chef' } }, rating: { lt: 5 } }), expected: [B] },
      // components
      { label: 'component: seo.metaTitle eq', filter: () => ({ seo: { metaTitle: { eq: 'Alpha SEO' } } }), expected: [A] },
      { label: 'component: seo.metaTitle contains', filter: () => ({ seo: { metaTitle: { contains: 'SEO' } } }), expected: [A, B] },
      { label: 'component: seo.metaTitle containsi', filter: () => ({ seo: { metaTitle: { containsi: 'SEO' } } }), expected: [A, B, D] },
      { label: 'component: seo.metaDescription notNull', filter: () => ({ seo: { metaDescription: { notNull: true } } }), expected: [A] },
      {
        label: 'component: seo.metaDescription null matches no component (LEFT JOIN)',
        filter: () => ({ seo: { metaDescription: { null: true } } }),
        expected: [B, C, D, E],
      },
      { label: 'repeatable component: sections.body', filter: () => ({ sections: { body: { eq: 's2' } } }), expected: [A] },
      { label: 'component inside not', filter: () => ({ not: { seo: { metaTitle: { eq: 'Alpha SEO' } } } }), expected: [B, D] },
    ];

    for (const c of CASES) {
      it(`${c.label}: literal and via variables`, c.todo ? { todo: c.todo } : {}, async () => {
        assert.deepEqual(await filterNames(c.filter(), 'literal'), c.expected, `literal ${lit(c.filter())}`);
        assert.deepEqual(await filterNames(c.filter(), 'variables'), c.expected, `variables ${JSON.stringify(c.filter())}`);
      });
    }

    it('scalar values given as variables inside a literal filter', async () => {
      const data = await ok(`query($r: Int, $names: [String], $day: Date, $v: Long, $k: String, $open: Boolean, $p: Float, $at: DateTime, $id: ID) {
        byInt: restaurants(filters: {rating: {eq: $r}}, sort: "name") { name }
        byList: restaurants(filters: {name: {in: $names}}, sort: "name") { name }
        byDate: restaurants(filters: {openedOn: {lt: $day}}, sort: "name") { name }
        byLong: restaurants(filters: {visits: {eq: $v}}, sort: "name") { name }
        byEnum: restaurants(filters: {kind: {eq: $k}}, sort: "name") { name }
        byBool: restaurants(filters: {open: {eq: $open}, price: {gt: $p}}, sort: "name") { name }
        byDatetime: restaurants(filters: {lastVisit: {lt: $at}}, sort: "name") { name }
        byRelation: restaurants(filters: {chef: {documentId: {eq: $id}}}, sort: "name") { name }
      }`, { r: 3, names: ['Delta 100%', 'Charlie'], day: '2020-01-01', v: '9007199254740993', k: 'cafe', open: false, p: 10, at: '2024-01-01T00:00:00Z', id: ids['Bob Chef'] });
      const names = (key: string) => (data[key] as Array<{ name: string }>).map((r) => r.name);
      assert.deepEqual(
        Object.fromEntries(Object.keys(data).map((k) => [k, names(k)])),
        {
          byInt: ['Bravo', 'Charlie'], byList: ['Charlie', 'Delta 100%'], byDate: ['Charlie'], byLong: ['Alpha'], byEnum: ['Charlie'],
          byBool: ['Echo_x'], byDatetime: ['Echo_x'], byRelation: ['Charlie', 'Echo_x'],
        },
      );
    });

    it('an absent variable leaves its condition out; an explicit null filter is no filter', async () => {
      const data = await ok('query($r: Int) { restaurants(filters: {rating: {eq: $r}}, sort: "name") { name } }');
      // An unset variable is as if the argument were not written (GraphQL spec): no condition on rating.
      assert.deepEqual((data.restaurants as Array<{ name: string }>).map((r) => r.name), SEED_NAMES);
      const nullFilters = await ok('query($f: RestaurantFiltersInput) { restaurants(filters: $f, sort: "name") { name } }', { f: null });
      assert.deepEqual((nullFilters.restaurants as Array<{ name: string }>).map((r) => r.name), SEED_NAMES);
    });

    it('filters on relation lists (categories, chef.restaurants) and on repeatable components', async () => {
      const data = await ok(`query($a: ID!, $bob: ID!) {
        restaurant(documentId: $a) {
          categories(filters: {name: {ne: "Xcat"}}) { name }
          sections(filters: {body: {eq: "s2"}}) { body author }
        }
        chef(documentId: $bob) { restaurants(filters: {kind: {eq: "cafe"}}) { name } }
      }`, { a: ids.Alpha, bob: ids['Bob Chef'] });
      assert.deepEqual(data, {
        restaurant: { categories: [{ name: 'Ycat' }], sections: [{ body: 's2', author: null }] },
        chef: { restaurants: [{ name: 'Charlie' }] },
      });
    });

    it('unknown filter fields, media and dynamic-zone filters are GRAPHQL_VALIDATION_FAILED (400)', async () => {
      for (const [field, type] of [['nope', 'RestaurantFiltersInput'], ['cover', 'RestaurantFiltersInput'], ['gallery', 'RestaurantFiltersInput'],
        ['blocks', 'RestaurantFiltersInput'], ['pin', 'RestaurantFiltersInput'], ['secret', 'RestaurantFiltersInput']] as const) {
        const res = await gql(`{ restaurants(filters: {${field}: {eq: "x"}}) { name } }`);
        const error = requestError(res, 400, 'GRAPHQL_VALIDATION_FAILED');
        assert.ok(error.message.startsWith(`Field "${field}" is not defined by type "${type}".`), error.message);
      }
      const op = await gql('{ restaurants(filters: {name: {nope: "x"}}) { name } }');
      assert.ok(requestError(op, 400, 'GRAPHQL_VALIDATION_FAILED').message.startsWith('Field "nope" is not defined by type "StringFilterInput".'));
    });

    it('uncastable filter values are BAD_USER_INPUT errors, never 500 (reference §11 #3)', async () => {
      for (const [filter, path] of [
        ['{openedOn: {eq: "not-a-date"}}', 'openedOn'],
        ['{lastVisit: {gt: "yesterday"}}', 'lastVisit'],
        ['{opensAt: {eq: "25:99"}}', 'opensAt'],
        ['{visits: {eq: "99999999999999999999"}}', 'visits'],
        ['{rating: {between: [1]}}', 'rating'],
        ['{rating: {between: [1, null]}}', 'rating'],
        ['{openedOn: {in: ["2020-02-30"]}}', 'openedOn'],
      ] as const) {
        const res = await gql(`{ restaurants(filters: ${filter}) { name } }`);
        assert.equal(res.statusCode < 500, true, show(res));
        const body = res.json() as GqlBody;
        assert.ok(body.errors?.length, show(res));
        const error = body.errors![0]!;
        if (res.statusCode === 200) {
          assert.equal(body.data, null, show(res));
          assert.equal(error.extensions?.code, 'BAD_USER_INPUT', show(res));
          assert.equal((error.extensions?.error as Json).name, 'ValidationError');
          assert.equal(((error.extensions?.error as Json).details as Json).path, path, show(res));
        } else {
          assert.equal(res.statusCode, 400, show(res));
          assert.ok(ALLOWED_400_CODES.has(String(error.extensions?.code)), show(res));
        }
      }
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('sort (reference §9.5, §3.3)', () => {
    const sorted = async (sort: string) =>
      ((await ok(`{ restaurants(sort: ${sort}) { name } }`)).restaurants as Array<{ name: string }>).map((r) => r.name);

    it('"name:desc", "name:DESC", "name", "name:asc"', async () => {
      assert.deepEqual(await sorted('"name:desc"'), [...SEED_NAMES].reverse());
      assert.deepEqual(await sorted('"name:DESC"'), [...SEED_NAMES].reverse());
      assert.deepEqual(await sorted('"name"'), SEED_NAMES);
      assert.deepEqual(await sorted('"name:asc"'), SEED_NAMES);
      assert.deepEqual(await sorted('["name:desc"]'), [...SEED_NAMES].reverse());
    });

    it('a list of keys; nulls last ascending, first descending; ties broken by id', async () => {
      assert.deepEqual(await sorted('["rating:desc", "name:asc"]'), ['Echo_x', 'Alpha', 'Bravo', 'Charlie', 'Delta 100%']);
      assert.deepEqual(await sorted('"rating"'), ['Delta 100%', 'Bravo', 'Charlie', 'Alpha', 'Echo_x']);
      assert.deepEqual(await sorted('["rating:asc", "name:desc"]'), ['Delta 100%', 'Charlie', 'Bravo', 'Alpha', 'Echo_x']);
      assert.deepEqual(await sorted('["kind:asc", "name:desc"]'), ['Echo_x', 'Alpha', 'Bravo', 'Charlie', 'Delta 100%']);
      assert.deepEqual(await sorted('"rating:desc,name:desc"'), ['Echo_x', 'Alpha', 'Charlie', 'Bravo', 'Delta 100%']);
    });

    it('via variables', async () => {
      const data = await ok('query($s: [String]) { restaurants(sort: $s) { name } }', { s: ['open:asc', 'name:desc'] });
      assert.deepEqual((data.restaurants as Array<{ name: string }>).map((r) => r.name), ['Echo_x', 'Bravo', 'Delta 100%', 'Charlie', 'Alpha']);
      const one = await ok('query($s: [String]) { restaurants(sort: $s) { name } }', { s: 'price:desc' });
      assert.deepEqual((one.restaurants as Array<{ name: string }>).map((r) => r.name), ['Delta 100%', 'Echo_x', 'Charlie', 'Alpha', 'Bravo']);
    });

    it('on fields reached through a relation or a component', async () => {
      assert.deepEqual(await sorted('["chef.name:desc", "name"]'), ['Delta 100%', 'Charlie', 'Echo_x', 'Alpha', 'Bravo']);
      assert.deepEqual(await sorted('["seo.metaTitle", "name"]'), ['Alpha', 'Bravo', 'Delta 100%', 'Charlie', 'Echo_x']);
    });

    it('on relation lists and repeatable components (field arguments)', async () => {
      const data = await ok(`query($a: ID!, $ann: ID!) {
        restaurant(documentId: $a) {
          desc: categories(sort: "name:desc") { name }
          asc: categories(sort: ["name:asc"]) { name }
          sections(sort: "body:desc") { body }
        }
        chef(documentId: $ann) { restaurants(sort: "name:desc") { name } }
      }`, { a: ids.Alpha, ann: ids['Ann Chef'] });
      assert.deepEqual(data, {
        restaurant: { desc: [{ name: 'Ycat' }, { name: 'Xcat' }], asc: [{ name: 'Xcat' }, { name: 'Ycat' }], sections: [{ body: 's2' }, { body: 's1' }] },
        chef: { restaurants: [{ name: 'Bravo' }, { name: 'Alpha' }] },
      });
    });

    it('a bad direction or an unknown key is a BAD_USER_INPUT resolver error (HTTP 200, data null)', async () => {
      const res = await gql('{ restaurants(sort: "name:sideways") { name } }');
      assert.equal(res.statusCode, 200, show(res));
      const message = 'Invalid order. order can only be one of asc|desc|ASC|DESC';
      assert.deepEqual(res.json(), {
        errors: [{ message, locations: [{ line: 1, column: 3 }], path: ['restaurants'], extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message, details: {} } } }],
        data: null,
      });
      for (const key of ['nope', 'pin', 'secret', 'cover', 'blocks']) {
        const unknown = await gql(`{ restaurants(sort: "${key}:asc") { name } }`);
        assert.equal(unknown.statusCode, 200, show(unknown));
        const body = unknown.json() as GqlBody;
        assert.equal(body.data, null);
        assert.equal(body.errors![0]!.message, `Invalid key ${key}`);
        assert.equal(body.errors![0]!.extensions!.code, 'BAD_USER_INPUT');
        const path = key === 'pin' || key === 'secret' ? key : null; // private and password keys name their own path
        assert.deepEqual((body.errors![0]!.extensions!.error as Json).details, { key, path, source: 'query', param: 'sort' });
      }
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('pagination (reference §9.5, spec §4.6)', () => {
    const PAGE_INFO = 'pageInfo { page pageSize pageCount total }';
    const conn = async (pagination: string) => {
      const data = await ok(`{ restaurants_connection(filters: ${lit(PAG)}, sort: "name"${pagination ? `, pagination: ${pagination}` : ''}) { nodes { name } ${PAGE_INFO} } }`);
      const c = data.restaurants_connection as { nodes: Array<{ name: string }>; pageInfo: Json };
      return { names: c.nodes.map((n) => n.name), pageInfo: c.pageInfo };
    };
    const flat = async (args: string) =>
      ((await ok(`{ restaurants(filters: ${lit(PAG)}, sort: "name"${args}) { name } }`)).restaurants as Array<{ name: string }>).map((r) => r.name);

    before(async () => {
      ids['Pag Chef'] = (await rest('/api/chefs', { name: 'Pag Chef' })).documentId;
      for (const name of PAG_NAMES) ids[name] = (await rest('/api/restaurants', { name, chef: ids['Pag Chef'] })).documentId;
    });

    it('defaults: 10 nodes, pageInfo {page 1, pageSize 10, pageCount, total} like REST total', async () => {
      const restTotal = (await p.api.get('/api/restaurants')).json().meta.pagination.total as number;
      assert.equal(restTotal, SEED_NAMES.length + PAG_NAMES.length);
      const data = await ok(`{ restaurants_connection { nodes { documentId } ${PAGE_INFO} } }`);
      const c = data.restaurants_connection as { nodes: unknown[]; pageInfo: Json };
      assert.equal(c.nodes.length, 10);
      assert.deepEqual(c.pageInfo, { page: 1, pageSize: 10, pageCount: Math.ceil(restTotal / 10), total: restTotal });
      assert.deepEqual(await conn(''), { names: PAG_NAMES.slice(0, 10), pageInfo: { page: 1, pageSize: 10, pageCount: 2, total: 12 } });
    });

    it('page / pageSize', async () => {
      assert.deepEqual(await conn('{page: 2, pageSize: 5}'), { names: PAG_NAMES.slice(5, 10), pageInfo: { page: 2, pageSize: 5, pageCount: 3, total: 12 } });
      assert.deepEqual(await conn('{page: 3, pageSize: 5}'), { names: PAG_NAMES.slice(10), pageInfo: { page: 3, pageSize: 5, pageCount: 3, total: 12 } });
      assert.deepEqual(await conn('{page: 9, pageSize: 5}'), { names: [], pageInfo: { page: 9, pageSize: 5, pageCount: 3, total: 12 } });
      assert.deepEqual(await conn('{page: 2}'), { names: PAG_NAMES.slice(10), pageInfo: { page: 2, pageSize: 10, pageCount: 2, total: 12 } });
      assert.deepEqual(await conn('{pageSize: 500}'), { names: PAG_NAMES, pageInfo: { page: 1, pageSize: 500, pageCount: 1, total: 12 } });
    });

    it('start / limit', async () => {
      assert.deepEqual(await conn('{start: 10, limit: 5}'), { names: PAG_NAMES.slice(10), pageInfo: { page: 3, pageSize: 5, pageCount: 3, total: 12 } });
      assert.deepEqual(await conn('{start: 3, limit: 2}'), { names: PAG_NAMES.slice(3, 5), pageInfo: { page: 2, pageSize: 2, pageCount: 6, total: 12 } });
      assert.deepEqual(await conn('{start: 4}'), { names: PAG_NAMES.slice(4, 12), pageInfo: { page: 1, pageSize: 10, pageCount: 2, total: 12 } });
      assert.deepEqual((await conn('{limit: 3}')).names, PAG_NAMES.slice(0, 3));
    });

    it('limit: -1 returns every row', async () => {
      assert.deepEqual(await conn('{limit: -1}'), { names: PAG_NAMES, pageInfo: { page: 1, pageSize: 12, pageCount: 1, total: 12 } });
      assert.deepEqual(await flat(', pagination: {limit: -1}'), PAG_NAMES);
    });

    it('pageSize / limit <= 0 → 1 row; page <= 0 and start < 0 → the first', async () => {
      assert.deepEqual(await conn('{pageSize: 0}'), { names: PAG_NAMES.slice(0, 1), pageInfo: { page: 1, pageSize: 1, pageCount: 12, total: 12 } });
      assert.deepEqual(await conn('{pageSize: -5}'), { names: PAG_NAMES.slice(0, 1), pageInfo: { page: 1, pageSize: 1, pageCount: 12, total: 12 } });
      assert.deepEqual((await conn('{limit: 0}')).names, PAG_NAMES.slice(0, 1));
      assert.deepEqual((await conn('{limit: -2}')).names, PAG_NAMES.slice(0, 1));
      assert.deepEqual(await conn('{page: 0, pageSize: 5}'), { names: PAG_NAMES.slice(0, 5), pageInfo: { page: 1, pageSize: 5, pageCount: 3, total: 12 } });
      assert.deepEqual((await conn('{start: -3, limit: 2}')).names, PAG_NAMES.slice(0, 2));
    });

    it('pagination via variables', async () => {
      const data = await ok(`query($p: PaginationArg, $f: RestaurantFiltersInput) { restaurants_connection(filters: $f, pagination: $p, sort: "name") { nodes { name } ${PAGE_INFO} } }`,
        { p: { page: 2, pageSize: 4 }, f: PAG });
      assert.deepEqual(data.restaurants_connection, { nodes: PAG_NAMES.slice(4, 8).map((name) => ({ name })), pageInfo: { page: 2, pageSize: 4, pageCount: 3, total: 12 } });
    });

    it('mixing page and start: STRAPI_PAGINATION_ERROR, HTTP 200, the field null', async () => {
      const message = 'Cannot use both page & offset pagination in the same query';
      const error = (path: string) => ({
        message, locations: [{ line: 1, column: 3 }], path: [path],
        extensions: { code: 'STRAPI_PAGINATION_ERROR', error: { name: 'PaginationError', message, details: {} } },
      });
      const c = await gql('{ restaurants_connection(pagination: {page: 1, start: 0}) { nodes { name } } }');
      assert.equal(c.statusCode, 200, show(c));
      assert.deepEqual(c.json(), { errors: [error('restaurants_connection')], data: { restaurants_connection: null } });
      // the flat list is non-null: the whole data is null
      const f = await gql('{ restaurants(pagination: {pageSize: 2, limit: 2}) { name } }');
      assert.equal(f.statusCode, 200, show(f));
      assert.deepEqual(f.json(), { errors: [error('restaurants')], data: null });
      // via variables
      const v = await gql('query($p: PaginationArg) { restaurants_connection(pagination: $p) { nodes { name } } }', { p: { page: 2, limit: 3 } });
      assert.equal(v.statusCode, 200, show(v));
      assert.equal((v.json() as GqlBody).errors![0]!.extensions!.code, 'STRAPI_PAGINATION_ERROR');
      assert.deepEqual((v.json() as GqlBody).data, { restaurants_connection: null });
      // inside a relation list
      const r = await gql('query($id: ID!) { chef(documentId: $id) { restaurants(pagination: {page: 1, limit: 3}) { name } } }', { id: ids['Pag Chef'] });
      assert.equal(r.statusCode, 200, show(r));
      assert.equal((r.json() as GqlBody).errors![0]!.extensions!.code, 'STRAPI_PAGINATION_ERROR', show(r));
    });

    it('flat lists honour pagination and default to 10', async () => {
      assert.deepEqual(await flat(''), PAG_NAMES.slice(0, 10));
      assert.deepEqual(await flat(', pagination: {page: 2, pageSize: 3}'), PAG_NAMES.slice(3, 6));
      assert.deepEqual(await flat(', pagination: {start: 11}'), PAG_NAMES.slice(11));
      assert.deepEqual(await flat(', pagination: {limit: 2}'), PAG_NAMES.slice(0, 2));
      const all = await ok('{ restaurants { documentId } }');
      assert.equal((all.restaurants as unknown[]).length, 10);
    });

    it('relation lists default to 10 and accept pagination, sort and filters', async () => {
      const data = await ok(`query($id: ID!) { chef(documentId: $id) {
        name
        plain: restaurants { name }
        sorted: restaurants(sort: "name") { name }
        all: restaurants(pagination: {limit: -1}, sort: "name:desc") { name }
        page2: restaurants(pagination: {page: 2, pageSize: 4}, sort: "name") { name }
        offset: restaurants(pagination: {start: 10}, sort: "name") { name }
        filtered: restaurants(filters: {name: {endsWith: "1"}}, sort: "name") { name }
        conn: restaurants_connection(sort: "name", pagination: {limit: 2}) { nodes { name } }
        connDefault: restaurants_connection { nodes { documentId } }
      } }`, { id: ids['Pag Chef'] });
      const chef = data.chef as Record<string, unknown>;
      const names = (k: string) => (chef[k] as Array<{ name: string }>).map((r) => r.name);
      assert.equal(chef.name, 'Pag Chef');
      assert.equal((chef.plain as unknown[]).length, 10, 'a relation list without pagination is capped at 10 (reference §11 #18)');
      for (const n of names('plain')) assert.ok(PAG_NAMES.includes(n));
      assert.deepEqual(names('sorted'), PAG_NAMES.slice(0, 10));
      assert.deepEqual(names('all'), [...PAG_NAMES].reverse());
      assert.deepEqual(names('page2'), PAG_NAMES.slice(4, 8));
      assert.deepEqual(names('offset'), PAG_NAMES.slice(10));
      assert.deepEqual(names('filtered'), ['Pag 01', 'Pag 11']);
      assert.deepEqual(chef.conn, { nodes: [{ name: 'Pag 01' }, { name: 'Pag 02' }] });
      assert.equal((chef.connDefault as { nodes: unknown[] }).nodes.length, 10);
    });

    it('categories_connection { nodes } on a restaurant; pageInfo only on top-level connections', async () => {
      const data = await ok(`query($id: ID!) { restaurant(documentId: $id) {
        categories_connection(sort: "name") { nodes { name documentId } }
        filtered: categories_connection(filters: {name: {eq: "Ycat"}}) { nodes { name } }
      } }`, { id: ids.Alpha });
      assert.deepEqual(data.restaurant, {
        categories_connection: { nodes: [{ name: 'Xcat', documentId: ids.Xcat }, { name: 'Ycat', documentId: ids.Ycat }] },
        filtered: { nodes: [{ name: 'Ycat' }] },
      });
      const res = await gql('{ restaurants { categories_connection { pageInfo { total } } } }');
      assert.equal(requestError(res, 400, 'GRAPHQL_VALIDATION_FAILED').message, 'Cannot query field "pageInfo" on type "CategoryRelationResponseCollection".');
    });

    it('top-level categories_connection', async () => {
      const data = await ok(`{ categories_connection(sort: "name:desc") { nodes { name } ${PAGE_INFO} } }`);
      assert.deepEqual(data.categories_connection, {
        nodes: [{ name: 'Zcat' }, { name: 'Ycat' }, { name: 'Xcat' }], pageInfo: { page: 1, pageSize: 10, pageCount: 1, total: 3 },
      });
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('dynamic zones and components (spec §4.6 rule 6, reference §9.1/§9.3)', () => {
    it('inline fragments, __typename, items in the order written, string component ids', async () => {
      const data = await ok(`query($id: ID!) { restaurant(documentId: $id) {
        blocks {
          __typename
          ... on ComponentSharedQuote { id body author }
          ... on ComponentSharedSeo { id metaTitle metaDescription }
        }
        sections { id body author }
        seo { id metaTitle metaDescription }
      } }`, { id: ids.Alpha });
      const r = data.restaurant as { blocks: Json[]; sections: Json[]; seo: Json };
      for (const item of [...r.blocks, ...r.sections, r.seo]) {
        assert.equal(typeof item.id, 'string', `component id is an ID string: ${JSON.stringify(item)}`);
        assert.match(String(item.id), /^\d+$/);
      }
      const noId = (x: Json) => ({ ...x, id: '' });
      assert.deepEqual({ blocks: r.blocks.map(noId), sections: r.sections.map(noId), seo: noId(r.seo) }, {
        blocks: [
          { __typename: 'ComponentSharedQuote', id: '', body: 'Q1', author: 'Ann' },
          { __typename: 'ComponentSharedSeo', id: '', metaTitle: 'Block SEO', metaDescription: null },
          { __typename: 'ComponentSharedQuote', id: '', body: 'Q2', author: null },
        ],
        sections: [{ id: '', body: 's1', author: 'A1' }, { id: '', body: 's2', author: null }],
        seo: { id: '', metaTitle: 'Alpha SEO', metaDescription: 'first' },
      });
    });

    it('a fragment on one member leaves the others as empty objects; __typename alone', async () => {
      const data = await ok(`query($id: ID!) { restaurant(documentId: $id) {
        quotes: blocks { ... on ComponentSharedQuote { body } }
        types: blocks { __typename }
      } }`, { id: ids.Alpha });
      assert.deepEqual(data.restaurant, {
        quotes: [{ body: 'Q1' }, {}, { body: 'Q2' }],
        types: [{ __typename: 'ComponentSharedQuote' }, { __typename: 'ComponentSharedSeo' }, { __typename: 'ComponentSharedQuote' }],
      });
    });

    it('empty zone, absent component and empty repeatable component', async () => {
      const data = await ok(`query($id: ID!) { restaurant(documentId: $id) { blocks { __typename } seo { metaTitle } sections { body } } }`, { id: ids.Charlie });
      assert.deepEqual(data.restaurant, { blocks: [], seo: null, sections: [] });
    });

    it('written through a mutation with __typename, read back in order', async () => {
      const before_ = await snapshot();
      const data = await ok(`mutation { createRestaurant(data: {name: "DZ Mutation", seo: {metaTitle: "T"}, blocks: [
          {__typename: "ComponentSharedSeo", metaTitle: "M1"}, {__typename: "ComponentSharedQuote", body: "M2", author: "Z"}]}) {
        name seo { metaTitle } blocks { __typename ... on ComponentSharedSeo { metaTitle } ... on ComponentSharedQuote { body author } } } }`);
      assert.deepEqual(data.createRestaurant, {
        name: 'DZ Mutation', seo: { metaTitle: 'T' },
        blocks: [{ __typename: 'ComponentSharedSeo', metaTitle: 'M1' }, { __typename: 'ComponentSharedQuote', body: 'M2', author: 'Z' }],
      });
      assert.notDeepEqual(await snapshot(), before_);
    });

    it('a zone item naming its component by __component (or an unknown type) is refused, nothing written', async () => {
      const before_ = await snapshot();
      const literal = await gql('mutation { createRestaurant(data: {name: "DZ Bad", blocks: [{__component: "shared.quote", body: "x"}]}) { name } }');
      const error = requestError(literal, 400, 'GRAPHQL_VALIDATION_FAILED');
      assert.ok(error.message.includes('Component not found. expected one of: ComponentSharedQuote, ComponentSharedSeo'), error.message);
      const unknown = await gql('mutation { createRestaurant(data: {name: "DZ Bad", blocks: [{__typename: "ComponentSharedNope"}]}) { name } }');
      assert.ok(requestError(unknown, 400, 'GRAPHQL_VALIDATION_FAILED').message.includes('ComponentSharedNope Component not found'));
      const variables = await gql('mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'DZ Bad', blocks: [{ __component: 'shared.quote' }] } });
      assert.ok(requestError(variables, 400, 'BAD_USER_INPUT').message.includes('Component not found. expected one of: ComponentSharedQuote, ComponentSharedSeo'));
      assert.deepEqual(await snapshot(), before_);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('locale and status (spec §4.6 rules 7-8, reference §4, §5, §9.2)', () => {
    before(async () => {
      ids['Loc EN'] = (await rest('/api/restaurants', { name: 'Loc EN', rating: 2 })).documentId;
      const fr = await p.api.put(`/api/restaurants/${ids['Loc EN']}?locale=fr`, { data: { name: 'Loc FR' } });
      assert.equal(fr.statusCode, 200, show(fr));
      ids['Status Doc'] = (await rest('/api/restaurants', { name: 'Status Doc', rating: 2 })).documentId;
      const draft = await p.api.put(`/api/restaurants/${ids['Status Doc']}?status=draft`, { data: { rating: 4 } });
      assert.equal(draft.statusCode, 200, show(draft));
      ids['Draft Only'] = (await rest('/api/restaurants?status=draft', { name: 'Draft Only', rating: 1 })).documentId;
    });
    const STATUS_FILTER = lit({ name: { in: ['Status Doc', 'Draft Only'] } });

    it('default and PUBLISHED: published rows only', async () => {
      for (const arg of ['', ', status: PUBLISHED']) {
        const data = await ok(`{ restaurants(filters: ${STATUS_FILTER}, sort: "name"${arg}) { name rating publishedAt } }`);
        const rows = data.restaurants as Json[];
        assert.equal(rows.length, 1, arg);
        assert.match(String(rows[0]!.publishedAt), ISO);
        assert.deepEqual({ ...rows[0], publishedAt: '' }, { name: 'Status Doc', rating: 2, publishedAt: '' });
      }
    });

    it('status: DRAFT returns the drafts, publishedAt null (lists, connections, one document)', async () => {
      const data = await ok(`query($d: ID!) {
        restaurants(filters: ${STATUS_FILTER}, sort: "name", status: DRAFT) { name rating publishedAt }
        restaurants_connection(filters: ${STATUS_FILTER}, status: DRAFT) { pageInfo { total } }
        one: restaurant(documentId: $d, status: DRAFT) { name publishedAt }
        published: restaurant(documentId: $d) { name }
      }`, { d: ids['Draft Only'] });
      assert.deepEqual(data, {
        restaurants: [{ name: 'Draft Only', rating: 1, publishedAt: null }, { name: 'Status Doc', rating: 4, publishedAt: null }],
        restaurants_connection: { pageInfo: { total: 2 } },
        one: { name: 'Draft Only', publishedAt: null },
        published: null,
      });
      const viaVariable = await ok('query($s: PublicationStatus) { restaurants(filters: {name: {eq: "Draft Only"}}, status: $s) { name } }', { s: 'DRAFT' });
      assert.deepEqual(viaVariable, { restaurants: [{ name: 'Draft Only' }] });
    });

    it('status on a type without draft & publish is ignored', async () => {
      const data = await ok('{ chefs(status: DRAFT, sort: "name", filters: {name: {endsWith: " Chef"}}) { name } }');
      assert.deepEqual(data, { chefs: [{ name: 'Ann Chef' }, { name: 'Bob Chef' }, { name: 'Pag Chef' }] });
    });

    it('locale: "fr" reads the fr version; default is the default locale; localizations', async () => {
      const data = await ok(`query($id: ID!) {
        en: restaurant(documentId: $id) { name locale rating localizations { locale name } }
        fr: restaurant(documentId: $id, locale: "fr") { name locale rating localizations { locale name } localizations_connection { nodes { locale } } }
        frList: restaurants(locale: "fr") { name locale }
        missing: restaurant(documentId: $id, locale: "de") { name }
        notEnabled: restaurants(locale: "de") { name }
      }`, { id: ids['Loc EN'] });
      assert.deepEqual(data, {
        en: { name: 'Loc EN', locale: 'en', rating: 2, localizations: [{ locale: 'fr', name: 'Loc FR' }] },
        fr: { name: 'Loc FR', locale: 'fr', rating: 2, localizations: [{ locale: 'en', name: 'Loc EN' }], localizations_connection: { nodes: [{ locale: 'en' }] } },
        frList: [{ name: 'Loc FR', locale: 'fr' }],
        missing: null,
        notEnabled: [],
      });
      const variable = await ok('query($l: I18NLocaleCode) { restaurants(locale: $l, filters: {name: {startsWith: "Loc"}}) { name } }', { l: 'fr' });
      assert.deepEqual(variable, { restaurants: [{ name: 'Loc FR' }] });
    });

    it('mutations: status DRAFT writes a draft; locale writes that locale; unknown documentId → null / {documentId}', async () => {
      const data = await ok(`mutation {
        draft: createRestaurant(status: DRAFT, data: {name: "Mut Draft", rating: 2}) { name rating publishedAt locale }
        fr: createRestaurant(data: {name: "Mut FR", publishedAt: "2001-01-01T00:00:00Z"}, locale: "fr") { name locale }
        none: updateRestaurant(documentId: "zzzzzzzzzzzzzzzzzzzzzzzz", data: {rating: 2}) { name }
        gone: deleteRestaurant(documentId: "zzzzzzzzzzzzzzzzzzzzzzzz") { documentId }
      }`);
      assert.deepEqual(data, {
        draft: { name: 'Mut Draft', rating: 2, publishedAt: null, locale: 'en' },
        fr: { name: 'Mut FR', locale: 'fr' },
        none: null,
        gone: { documentId: 'zzzzzzzzzzzzzzzzzzzzzzzz' },
      });
      const fr = await ok('{ restaurants(locale: "fr", filters: {name: {eq: "Mut FR"}}) { name publishedAt } }');
      const rows = fr.restaurants as Json[];
      assert.equal(rows.length, 1);
      assert.match(String(rows[0]!.publishedAt), ISO);
      assert.notEqual(rows[0]!.publishedAt, '2001-01-01T00:00:00.000Z', 'publishedAt in data is ignored');
      assert.deepEqual(await ok('{ restaurants(filters: {name: {eq: "Mut Draft"}}) { name } }'), { restaurants: [] });
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('hostile input: never a 5xx, never INTERNAL_SERVER_ERROR, never a partial write', () => {
    let baseline: Record<string, number>;
    before(async () => {
      baseline = await snapshot();
    });

    /** Every response to hostile input: < 500, JSON, no INTERNAL_SERVER_ERROR, 4xx codes from the known set. */
    function assertSafe(res: LightMyRequestResponse, what: string): GqlBody {
      assert.ok(res.statusCode < 500, `${what}: ${show(res)}`);
      let body: GqlBody & { error?: unknown };
      try {
        body = res.json();
      } catch {
        assert.fail(`${what}: not JSON: ${show(res)}`);
      }
      for (const e of body.errors ?? []) {
        assert.notEqual(e.extensions?.code, 'INTERNAL_SERVER_ERROR', `${what}: ${show(res)}`);
        if (res.statusCode === 400) assert.ok(ALLOWED_400_CODES.has(String(e.extensions?.code)), `${what}: ${show(res)}`);
      }
      if (res.statusCode === 200) assert.ok('data' in body, `${what}: ${show(res)}`);
      return body;
    }

    it('malformed JSON, non-object bodies, missing or empty query: 400', async () => {
      const raw = (payload: string, type = 'application/json') => p.api.raw('POST', '/graphql', { payload, headers: { 'content-type': type } });
      for (const payload of ['{"query": ', '{query: "{ restaurants { name } }"}', '{"query": "{ restaurants { name } }"}}', '\u0000']) {
        const res = await raw(payload);
        assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${show(res)}`);
        assert.doesNotThrow(() => res.json(), show(res));
      }
      for (const payload of ['[]', '"{ restaurants { name } }"', '42', 'null', 'true', '[{"query": "{ restaurants { name } }"}]']) {
        const res = await raw(payload);
        assert.equal(res.statusCode, 400, `${payload}: ${show(res)}`);
        assert.equal((res.json() as GqlBody).errors?.[0]?.extensions?.code, 'BAD_REQUEST', `${payload}: ${show(res)}`);
      }
      const missing = 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.';
      for (const body of [{}, { query: '' }, { query: 42 }, { query: null }, { query: ['{ restaurants { name } }'] }, { variables: {} }]) {
        const res = await p.api.post('/graphql', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${show(res)}`);
        assert.deepEqual(res.json(), { errors: [{ message: missing, extensions: { code: 'BAD_REQUEST' } }] }, JSON.stringify(body));
      }
      for (const body of [{ query: '{ restaurants { name } }', variables: [] }, { query: '{ restaurants { name } }', variables: 'x' },
        { query: '{ restaurants { name } }', operationName: 42 }]) {
        const res = await p.api.post('/graphql', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${show(res)}`);
        assert.equal((res.json() as GqlBody).errors?.[0]?.extensions?.code, 'BAD_REQUEST');
      }
      // a browser-forgeable POST (no JSON content type) is refused by CSRF prevention
      const form = await raw('query=%7B%20restaurants%20%7B%20name%20%7D%20%7D', 'text/plain');
      assert.equal(form.statusCode, 400, show(form));
      // over the 1 MB body limit
      const big = await p.api.post('/graphql', { query: `{ restaurants { name } } # ${'x'.repeat(1024 * 1024)}` });
      assert.equal(big.statusCode, 413, show(big));
    });

    const BAD_VARIABLES: Array<[string, Json, string]> = [
      ['query($r: Int) { restaurants(filters: {rating: {eq: $r}}) { name } }', { r: 'abc' },
        'Variable "$r" got invalid value "abc"; Int cannot represent non-integer value: "abc"'],
      ['query($r: Int) { restaurants(filters: {rating: {eq: $r}}) { name } }', { r: 2.5 },
        'Variable "$r" got invalid value 2.5; Int cannot represent non-integer value: 2.5'],
      ['query($r: Int) { restaurants(filters: {rating: {eq: $r}}) { name } }', { r: 2147483648 },
        'Variable "$r" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648'],
      ['query($id: ID!) { restaurant(documentId: $id) { name } }', {}, 'Variable "$id" of required type "ID!" was not provided.'],
      ['query($id: ID!) { restaurant(documentId: $id) { name } }', { id: null }, 'Variable "$id" of non-null type "ID!" must not be null.'],
      ['query($id: ID!) { restaurant(documentId: $id) { name } }', { id: {} }, 'Variable "$id" got invalid value {}; ID cannot represent value: {}'],
      ['query($f: RestaurantFiltersInput) { restaurants(filters: $f) { name } }', { f: { nope: { eq: 1 } } },
        'Variable "$f" got invalid value { nope: { eq: 1 } }; Field "nope" is not defined by type "RestaurantFiltersInput".'],
      ['query($f: RestaurantFiltersInput) { restaurants(filters: $f) { name } }', { f: { rating: { eq: 'x' } } },
        'Variable "$f" got invalid value "x" at "f.rating.eq"; Int cannot represent non-integer value: "x"'],
      ['query($f: RestaurantFiltersInput) { restaurants(filters: $f) { name } }', { f: 'name' },
        'Variable "$f" got invalid value "name"; Expected type "RestaurantFiltersInput" to be an object.'],
      ['query($s: PublicationStatus) { restaurants(status: $s) { name } }', { s: 'draft' },
        'Variable "$s" got invalid value "draft"; Value "draft" does not exist in "PublicationStatus" enum.'],
      ['query($s: PublicationStatus) { restaurants(status: $s) { name } }', { s: { $gt: 1 } },
        'Variable "$s" got invalid value { $gt: 1 }; Enum "PublicationStatus" cannot represent non-string value: { $gt: 1 }.'],
      ['query($p: PaginationArg) { restaurants(pagination: $p) { name } }', { p: { limit: '10' } },
        'Variable "$p" got invalid value "10" at "p.limit"; Int cannot represent non-integer value: "10"'],
      ['query($v: Long) { restaurants(filters: {visits: {eq: $v}}) { name } }', { v: 1.5 },
        'Variable "$v" got invalid value 1.5; Long cannot represent a non-integer value: 1.5'],
      ['query($d: Date) { restaurants(filters: {openedOn: {eq: $d}}) { name } }', { d: 20200115 },
        'Variable "$d" got invalid value 20200115; Date cannot represent a non-string value: 20200115'],
      ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Bad var', rating: 'x' } },
        'Variable "$d" got invalid value "x" at "d.rating"; Int cannot represent non-integer value: "x"'],
      ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Bad var', kind: 'diner' } },
        'Variable "$d" got invalid value "diner" at "d.kind"; Value "diner" does not exist in "ENUM_RESTAURANT_KIND" enum.'],
    ];
    const assertBadVariables = (res: LightMyRequestResponse, query: string, message: string) => {
      const got = requestError(res, 400, 'BAD_USER_INPUT').message;
      // graphql-js may append a "Did you mean …?" suggestion
      assert.ok(got === message || got.startsWith(`${message} Did you mean`), `${query}\n got: ${got}\nwant: ${message}`);
    };

    it('wrong variable types and missing required variables: 400 BAD_USER_INPUT (first request of a document)', async () => {
      for (const [query, variables, message] of BAD_VARIABLES) {
        const text = fresh(query);
        assertBadVariables(await gql(text, variables), query, message);
      }
      assert.deepEqual(await snapshot(), baseline);
    });

    it('the same document sent again with wrong variables is still 400 BAD_USER_INPUT', {
    }, async () => {
      const failures: string[] = [];
      for (const [query, variables, message] of BAD_VARIABLES) {
        const text = fresh(query);
        for (let attempt = 1; attempt <= 3; attempt++) {
          const res = await gql(text, variables);
          try {
            assertBadVariables(res, query, message);
          } catch {
            failures.push(`attempt ${attempt}: ${query} ${JSON.stringify(variables)} → ${show(res)}`);
          }
        }
      }
      assert.deepEqual(failures, []);
    });

    it('the same document with valid, then wrong, then valid variables', {
    }, async () => {
      const text = fresh('query($r: Int) { restaurants(filters: {rating: {eq: $r}}, sort: "name") { name } }');
      assert.deepEqual(await ok(text, { r: 5 }), { restaurants: [{ name: 'Alpha' }] });
      assertBadVariables(await gql(text, { r: 'x' }), text, 'Variable "$r" got invalid value "x"; Int cannot represent non-integer value: "x"');
      assert.deepEqual(await ok(text, { r: 1 }), { restaurants: [{ name: 'Delta 100%' }] });
      assertBadVariables(await gql(text, { r: 'y' }), text, 'Variable "$r" got invalid value "y"; Int cannot represent non-integer value: "y"');
    });

    it('variable validation rules (unused variable, variable in a wrong position) are GRAPHQL_VALIDATION_FAILED', {
    }, async () => {
      const unused = await gql('query($x: Int) { restaurants { name } }');
      assert.equal(requestError(unused, 400, 'GRAPHQL_VALIDATION_FAILED').message, 'Variable "$x" is never used.');
      const position = await gql('query($x: String) { restaurants(filters: {rating: {eq: $x}}) { name } }');
      assert.equal(requestError(position, 400, 'GRAPHQL_VALIDATION_FAILED').message, 'Variable "$x" of type "String" used in position expecting type "Int".');
      const undefinedVariable = await gql('{ restaurants(filters: {rating: {eq: $x}}) { name } }');
      assert.equal(requestError(undefinedVariable, 400, 'GRAPHQL_VALIDATION_FAILED').message, 'Variable "$x" is not defined.');
    });

    it('unknown fields and arguments: 400 GRAPHQL_VALIDATION_FAILED; syntax errors: 400 GRAPHQL_PARSE_FAILED', async () => {
      const validation: Array<[string, string]> = [
        ['{ restaurants { nope } }', 'Cannot query field "nope" on type "Restaurant".'],
        ['{ restaurants(nope: 1) { name } }', 'Unknown argument "nope" on field "Query.restaurants".'],
        ['{ nope }', 'Cannot query field "nope" on type "Query".'],
        ['{ restaurants }', 'Field "restaurants" of type "[Restaurant]!" must have a selection of subfields. Did you mean "restaurants { ... }"?'],
        ['{ restaurants(sort: 1) { name } }', 'String cannot represent a non string value: 1'],
        ['{ restaurants(status: draft) { name } }', 'Value "draft" does not exist in "PublicationStatus" enum. Did you mean the enum value "DRAFT"?'],
        ['{ restaurant { name } }', 'Field "restaurant" argument "documentId" of type "ID!" is required, but it was not provided.'],
        ['fragment A on Restaurant { chef { restaurants { ...A } } } { restaurants { ...A } }', 'Cannot spread fragment "A" within itself via "A".'],
        ['{ chefs(locale: "en") { name } }', 'Unknown argument "locale" on field "Query.chefs".'],
        ['{ chefs { restaurants(status: DRAFT) { name } } }', 'Unknown argument "status" on field "Chef.restaurants".'],
        ['{ restaurants { categories(locale: "fr") { name } } }', 'Unknown argument "locale" on field "Restaurant.categories".'],
        ['{ restaurants { blocks { ... on ComponentSharedQuote { x: body } ... on ComponentSharedSeo { x: id } } } }',
          'Fields "x" conflict because they return conflicting types "String" and "ID!".'],
        ['{ restaurants { blocks { ... on Chef { name } } } }', 'Fragment cannot be spread here as objects of type "RestaurantBlocksDynamicZone" can never be of type "Chef".'],
        ['mutation { createHomepage(data: {title: "x"}) { title } }', 'Cannot query field "createHomepage" on type "Mutation".'],
      ];
      for (const [query, message] of validation) {
        const res = await gql(query);
        assert.ok(requestError(res, 400, 'GRAPHQL_VALIDATION_FAILED').message.startsWith(message.replace(/ via "A"\.$/, '')), `${query}: ${show(res)}`);
      }
      const parse: Array<[string, string, { line: number; column: number }]> = [
        ['{ restaurants { name }', 'Syntax Error: Expected Name, found <EOF>.', { line: 1, column: 23 }],
        ['{ restaurants(filters: {name: {eq: "x}}) { name } }', 'Syntax Error: Unterminated string.', { line: 1, column: 52 }],
        ['query { restaurants(sort: "name" "x") { name } }', 'Syntax Error: Expected Name, found String "x".', { line: 1, column: 34 }],
        ['}', 'Syntax Error: Unexpected "}".', { line: 1, column: 1 }],
      ];
      for (const [query, message, location] of parse) {
        const res = await gql(query);
        assert.equal(res.statusCode, 400, show(res));
        assert.deepEqual(res.json(), { errors: [{ message, locations: [location], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] }, query);
      }
    });

    it('operations beyond the depth limit are refused before execution', async () => {
      let selection = 'name';
      for (let i = 0; i < 8; i++) selection = `chef { restaurants { ${selection} } }`;
      const res = await gql(`{ restaurants { ${selection} } }`);
      assertSafe(res, 'deep selection');
      assert.equal(res.statusCode, 400, show(res));
      assert.equal((res.json() as GqlBody).data, undefined);
    });

    it('operationName selects the operation', async () => {
      const res = await gql('query A { restaurants(filters: {name: {eq: "Alpha"}}) { name } } query B { chefs(sort: "name", pagination: {limit: 1}) { name } }', undefined, p.api, { operationName: 'B' });
      assert.equal(res.statusCode, 200, show(res));
      assert.deepEqual(res.json(), { data: { chefs: [{ name: 'Ann Chef' }] } });
    });

    it('an ambiguous or unknown operationName is a 400 request error, not INTERNAL_SERVER_ERROR', {
    }, async () => {
      for (const [query, operationName, message] of [
        ['query A { restaurants { name } } query B { chefs { name } }', undefined, 'Must provide operation name if query contains multiple operations.'],
        ['query A { restaurants { name } }', 'B', 'Unknown operation named "B".'],
        ['query A { restaurants { name } } query B { chefs { name } }', 'C', 'Unknown operation named "C".'],
      ] as const) {
        const res = await gql(query, undefined, p.api, operationName ? { operationName } : {});
        assertSafe(res, `${query} / ${operationName}`);
        assert.equal(res.statusCode, 400, show(res));
        const body = res.json() as GqlBody;
        assert.equal(body.errors![0]!.message, message);
        // Apollo Server 4 (Strapi 5): OPERATION_RESOLUTION_FAILURE
        assert.ok(['OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST'].includes(String(body.errors![0]!.extensions?.code)), show(res));
      }
    });

    const INJECTIONS = [
      "'; DROP TABLE ct_restaurant; --", "' OR '1'='1", "\" OR \"\"=\"", 'x) OR 1=1 --', "Robert'); DELETE FROM ct_chef; --",
      '%', '_', '\\', "\\'; SELECT pg_sleep(5); --", '$1', '::text', '/* */', "1'::int", 'name:asc; DROP TABLE x',
    ];

    it('SQL-injection-looking filter values are data', async () => {
      for (const value of INJECTIONS) {
        for (const op of ['eq', 'eqi', 'ne', 'contains', 'containsi', 'notContainsi', 'startsWith', 'endsWith', 'gt', 'in']) {
          const filters = { name: { [op]: op === 'in' ? [value, "' OR 1=1"] : value } };
          for (const [label, res] of [['literal', await gql(`{ restaurants(filters: ${lit(filters)}, pagination: {limit: -1}) { name } }`)],
            ['variables', await gql('query($f: RestaurantFiltersInput) { restaurants(filters: $f, pagination: {limit: -1}) { name } }', { f: filters })]] as const) {
            const body = assertSafe(res, `${label} ${op} ${value}`);
            assert.equal(res.statusCode, 200, show(res));
            assert.equal(body.errors, undefined, show(res));
            const names = (body.data!.restaurants as Array<{ name: string }>).map((r) => r.name);
            // Only 'Delta 100%' holds a '%' and only 'Echo_x' a '_': anything else matches nothing.
            const expected: Record<string, string[] | undefined> = {
              eq: [], eqi: [], in: [], startsWith: [],
              endsWith: value === '%' ? ['Delta 100%'] : [],
              contains: value === '%' ? ['Delta 100%'] : value === '_' ? ['Echo_x'] : [],
              containsi: value === '%' ? ['Delta 100%'] : value === '_' ? ['Echo_x'] : [],
            };
            if (expected[op]) assert.deepEqual(names, expected[op], `${label} ${op} ${value}`);
          }
        }
      }
      // other string-typed inputs: documentId, locale, chef name, component field, Long / Date strings
      for (const value of INJECTIONS) {
        const data = await ok(`query($v: String, $j: JSON, $id: ID!, $l: I18NLocaleCode) {
          one: restaurant(documentId: $id) { name }
          loc: restaurants(locale: $l) { name }
          rel: restaurants(filters: {chef: {name: {eq: $v}}, seo: {metaTitle: {ne: $v}}}) { name }
          ids: restaurants(filters: {documentId: {in: [$id]}}) { name }
          json: restaurants(filters: {tags: {containsi: $j}}) { name }
        }`, { v: value, j: value, id: value, l: value });
        assert.deepEqual(data, { one: null, loc: [], rel: [], ids: [], json: [] }, value);
      }
      assert.deepEqual(await snapshot(), baseline, 'nothing was written or dropped');
    });

    it('SQL-injection-looking sort values are refused as BAD_USER_INPUT, never executed', async () => {
      for (const sort of ['name; DROP TABLE ct_restaurant', 'name:asc; DROP TABLE ct_restaurant', 'name) desc --', '(SELECT 1)', 'name:desc nulls first',
        'name:asc,(select pg_sleep(5))', 'chef.name; --:asc', '1', 'name COLLATE "C"', '"name"', 'name:asc:desc', 'id; --']) {
        for (const res of [await gql(`{ restaurants(sort: ${JSON.stringify(sort)}) { name } }`), await gql('query($s: [String]) { restaurants(sort: $s) { name } }', { s: [sort] })]) {
          const body = assertSafe(res, sort);
          assert.equal(res.statusCode, 200, show(res));
          assert.equal(body.data, null, `${sort}: ${show(res)}`);
          assert.equal(body.errors![0]!.extensions!.code, 'BAD_USER_INPUT', `${sort}: ${show(res)}`);
        }
      }
      assert.deepEqual(await snapshot(), baseline);
    });

    it('a NUL character in a filter value is refused or matches nothing, never a 500 (reference §11 #19)', async () => {
      for (const value of ['a\u0000b', '\u0000', 'Alpha\u0000']) {
        for (const op of ['eq', 'containsi', 'in']) {
          const filters = { name: { [op]: op === 'in' ? [value] : value } };
          const res = await gql('query($f: RestaurantFiltersInput) { restaurants(filters: $f) { name } }', { f: filters });
          const body = assertSafe(res, `${op} ${JSON.stringify(value)}`);
          assert.equal(res.statusCode, 200, show(res));
          if (body.errors) assert.equal(body.errors[0]!.extensions!.code, 'BAD_USER_INPUT', show(res));
          else assert.deepEqual(body.data, { restaurants: [] });
        }
      }
    });

    it('deeply nested and/or/not filters via variables are refused with BAD_USER_INPUT; shallow ones work', async () => {
      const leaf = '{"name":{"eq":"Alpha"}}';
      const open = { and: '{"and":[', or: '{"or":[', not: '{"not":{"not":' } as const;
      const close = { and: ']}', or: ']}', not: '}}' } as const;
      const nested = (depth: number, key: 'and' | 'or' | 'not') => `${open[key].repeat(depth)}${leaf}${close[key].repeat(depth)}`;
      const q = 'query($f: RestaurantFiltersInput) { restaurants(filters: $f) { name } }';
      // The JSON text is built by hand: JSON.stringify itself overflows on the deepest ones.
      const send = (filtersJson: string) => p.api.raw('POST', '/graphql', {
        payload: `{"query":${JSON.stringify(fresh(q))},"variables":{"f":${filtersJson}}}`, headers: { 'content-type': 'application/json' },
      });
      for (const key of ['and', 'or', 'not'] as const) {
        const shallow = await send(nested(4, key));
        assert.equal(shallow.statusCode, 200, show(shallow));
        assert.deepEqual(shallow.json(), { data: { restaurants: [{ name: 'Alpha' }] } }, key);
        for (const depth of [13, 50, 500, 3000, 6000]) {
          const res = await send(nested(depth, key));
          const body = assertSafe(res, `${key} x${depth}`);
          assert.ok(body.errors?.length, `${key} x${depth}: ${show(res)}`);
          // Past 100 levels of JSON the variables are refused before coercion (400); below, the
          // filter planner refuses them (200, the field null). Both are bad input.
          assert.equal(body.errors![0]!.extensions!.code, 'BAD_USER_INPUT', `${key} x${depth}: ${show(res)}`);
          if (res.statusCode === 200) {
            assert.deepEqual(body.data, null);
            assert.equal(body.errors![0]!.message, 'filters are nested too deeply');
          } else {
            assert.equal(res.statusCode, 400, show(res));
            assert.equal(body.errors![0]!.message, 'Variables are nested more than 100 levels deep');
          }
        }
      }
      // nesting inside a scalar's filter input
      const scalar = await send(`{"rating":${'{"not":'.repeat(200)}{"eq":3}${'}'.repeat(200)}}`);
      const scalarBody = assertSafe(scalar, 'scalar not x200');
      if (scalarBody.errors) assert.equal(scalarBody.errors[0]!.extensions!.code, 'BAD_USER_INPUT', show(scalar));
      // a wide filter: many conditions
      const wide = { or: Array.from({ length: 2000 }, (_, i) => ({ name: { eq: `n${i}` } })) };
      const res = await send(JSON.stringify(wide));
      const body = assertSafe(res, 'wide or');
      if (!body.errors) assert.deepEqual(body.data, { restaurants: [] });
      else assert.equal(body.errors[0]!.extensions!.code, 'BAD_USER_INPUT');
      assert.deepEqual(await snapshot(), baseline);
    });

    it('very deep filter variables (1,000+ levels) are refused as bad input, not with an engine error', {
    }, async () => {
      for (const [key, depth] of [['and', 2000], ['or', 1000], ['not', 2000]] as const) {
        const open = key === 'not' ? '{"not":{"not":' : `{"${key}":[`;
        const close = key === 'not' ? '}}' : ']}';
        const q = fresh('query($f: RestaurantFiltersInput) { restaurants(filters: $f) { name } }');
        const res = await p.api.raw('POST', '/graphql', {
          payload: `{"query":${JSON.stringify(q)},"variables":{"f":${open.repeat(depth)}{"name":{"eq":"Alpha"}}${close.repeat(depth)}}}`,
          headers: { 'content-type': 'application/json' },
        });
        const body = assertSafe(res, `${key} x${depth}`);
        assert.equal(body.errors![0]!.extensions!.code, 'BAD_USER_INPUT', `${key} x${depth}: ${show(res)}`);
        assert.doesNotMatch(body.errors![0]!.message, /call stack/i, `${key} x${depth}: ${show(res)}`);
      }
    });

    it('huge in lists give the right answer or a BAD_USER_INPUT, never a 500', async () => {
      const q = 'query($f: RestaurantFiltersInput) { restaurants(filters: $f, sort: "name") { name } }';
      for (const size of [1000, 20_000]) {
        const names = Array.from({ length: size }, (_, i) => `name-${i}`);
        names[size - 1] = 'Bravo';
        const ints = Array.from({ length: size }, (_, i) => i - size / 2);
        const cases: Array<[Json, string[]]> = [
          [{ name: { in: names } }, ['Bravo']],
          [{ name: { notIn: names }, rating: { eq: 3 } }, ['Charlie']],
          [{ documentId: { in: names } }, []],
          [{ rating: { in: ints }, name: { in: SEED_NAMES } }, ['Alpha', 'Bravo', 'Charlie', 'Delta 100%']],
        ];
        for (const [f, expected] of cases) {
          const res = await gql(q, { f });
          const what = `${Object.keys(f).join('+')} x${size}`;
          const body = assertSafe(res, what);
          if (body.errors) {
            assert.equal(body.errors[0]!.extensions!.code, 'BAD_USER_INPUT', show(res));
            continue;
          }
          assert.deepEqual((body.data!.restaurants as Array<{ name: string }>).map((r) => r.name), expected, what);
        }
      }
      const literalList = `{ restaurants(filters: {name: {in: [${Array.from({ length: 5000 }, (_, i) => `"v${i}"`).join(',')}, "Alpha"]}}) { name } }`;
      const body = assertSafe(await gql(literalList), 'literal in x5000');
      if (!body.errors) assert.deepEqual(body.data, { restaurants: [{ name: 'Alpha' }] });
    });

    it('writes that fail validation write nothing (GraphQL mutations)', async () => {
      const cases: Array<[string, Json]> = [
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Partial 1', rating: 99, seo: { metaTitle: 'x' }, sections: [{ body: 'a' }] } }],
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Partial 2', email: 'bad', categories: [ids.Xcat], chef: ids['Ann Chef'] } }],
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { rating: 2, blocks: [{ __typename: 'ComponentSharedQuote', body: 'q' }] } }],
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Partial 3', categories: ['nope-nope-nope'] } }],
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Partial 4', seo: { metaDescription: 'no title' } } }],
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d) { name } }', { d: { name: 'Alpha' } }],
        ['mutation($d: RestaurantInput!) { createRestaurant(data: $d, locale: "xx") { name } }', { d: { name: 'Partial 5' } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { rating: 0, code: 'lower' } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { name: 'Bravo', sections: [] } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { visits: '99999999999999999999999' } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { rating: 2.5, sections: [] } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { name: 'x\u0000y' } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { openedOn: '2020-02-30' } }],
        ['mutation($d: RestaurantInput!, $id: ID!) { updateRestaurant(documentId: $id, data: $d) { name } }', { id: ids.Alpha, d: { blocks: Array(4).fill({ __typename: 'ComponentSharedQuote' }) } }],
      ];
      const alphaBefore = await ok(`query($id: ID!) { restaurant(documentId: $id) { name rating code visits price openedOn sections { body } blocks { __typename } } }`, { id: ids.Alpha });
      for (const [query, variables] of cases) {
        const res = await gql(fresh(query), variables);
        const body = assertSafe(res, `${query} ${JSON.stringify(variables)}`);
        assert.ok(body.errors?.length, `${JSON.stringify(variables)} must fail: ${show(res)}`);
        if (res.statusCode === 200) assert.equal(body.errors![0]!.extensions!.code, 'BAD_USER_INPUT', `${JSON.stringify(variables)}: ${show(res)}`);
      }
      assert.deepEqual(await snapshot(), baseline, 'no row written');
      assert.deepEqual(await ok(`query($id: ID!) { restaurant(documentId: $id) { name rating code visits price openedOn sections { body } blocks { __typename } } }`, { id: ids.Alpha }), alphaBefore);
    });

    // ---------------------------------------------------------------------------------------
    // Seeded fuzz: random operations over the schema, valid and not, literal and via variables.
    type FuzzOp = { query: string; variables?: Json };

    /** `count` random operations over the schema, valid and not, literal and via variables (seeded: reproducible). */
    function generateFuzz(count: number): FuzzOp[] {
      const rnd = prng(0xc0ffee);
      const int = (n: number) => Math.floor(rnd() * n);
      const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
      const chance = (x: number) => rnd() < x;

      const STRINGS = ['', 'Alpha', 'alpha', 'Ann Chef', 'Xcat', 'bistro', "'", '"', '\\', '%', '_', '%_%', "'; DROP TABLE ct_restaurant; --", '😀', 'é', '\u202e',
        'x'.repeat(5000), ' ', '\n', 'null', 'NULL', 'true', '0', '-1', '1e999', 'NaN', '2020-01-15', '{"a":1}', '[1]', '*', '$eq', '__proto__', 'constructor'];
      const randomString = () => {
        if (chance(0.6)) return pick(STRINGS);
        const pool = "abcXYZ019 '\"\\%_-:;,.()[]{}$*/\u00e9\u4e2d\u{1f600}\t";
        const chars = [...pool];
        return Array.from({ length: int(20) }, () => pick(chars)).join('');
      };
      type Kind = 'String' | 'Int' | 'Long' | 'Float' | 'Boolean' | 'Date' | 'DateTime' | 'Time' | 'ID' | 'JSON';
      const scalarValue = (kind: Kind): unknown => {
        switch (kind) {
          case 'String': return randomString();
          case 'ID': return chance(0.5) ? pick(Object.values(ids)) : randomString();
          case 'Int': return pick([0, 1, -1, 3, 5, 2147483647, -2147483648, int(1000) - 500]);
          case 'Long': return pick(['9007199254740993', '9223372036854775807', '9223372036854775808', '-9223372036854775809', '0', '-7', 5, int(1e6), '00012']);
          case 'Float': return pick([0, 0.5, -1.25, 12.5, 1e308, -1e308, 5e-324, 1e21, int(100) / 7, 99.99]);
          case 'Boolean': return chance(0.5);
          case 'Date': return pick(['2020-01-15', '2020-02-30', '0000-01-01', '9999-12-31', '2020-1-1', 'garbage', '2020-01-15T10:00:00Z', '', '+002020-01-01']);
          case 'DateTime': return pick(['2024-01-01T10:00:00.000Z', '2024-01-01', '1700000000000', '2024-13-01T00:00:00Z', '+275760-09-13T00:00:00Z',
            'garbage', '2024-01-01T10:00:00+14:00', '2024-01-01T10:00:00+99:99', '99999999999999999999', '-1']);
          case 'Time': return pick(['10:30:00', '10:30', '24:00:00', '10:30:00.123456', 'garbage', '23:59:59.999', '1:2:3']);
          case 'JSON': return pick([{}, [], 1, 'x', null, { a: [1, 2] }, [{ b: null }], true]);
        }
      };
      const anyValue = (): unknown => pick<unknown>([null, 1, -1.5, 'x', true, [], {}, [1, 'a'], { eq: 1 }, { $gt: 1 }, 'a'.repeat(100)]);

      type TypeDef = { scalars: Record<string, Kind>; links: Record<string, string> };
      const TS: Record<string, TypeDef> = {
        Restaurant: {
          scalars: { documentId: 'ID', name: 'String', description: 'JSON', rating: 'Int', price: 'Float', open: 'Boolean', openedOn: 'Date', opensAt: 'Time',
            lastVisit: 'DateTime', visits: 'Long', score: 'Float', email: 'String', kind: 'String', code: 'String', tags: 'JSON', createdAt: 'DateTime',
            updatedAt: 'DateTime', publishedAt: 'DateTime', locale: 'String' },
          links: { chef: 'Chef', categories: 'Category', seo: 'ComponentSharedSeo', sections: 'ComponentSharedQuote', localizations: 'Restaurant' },
        },
        Chef: { scalars: { documentId: 'ID', name: 'String', createdAt: 'DateTime', publishedAt: 'DateTime' }, links: { restaurants: 'Restaurant' } },
        Category: { scalars: { documentId: 'ID', name: 'String', slug: 'String', updatedAt: 'DateTime' }, links: { restaurants: 'Restaurant' } },
        ComponentSharedSeo: { scalars: { metaTitle: 'String', metaDescription: 'String' }, links: {} },
        ComponentSharedQuote: { scalars: { body: 'String', author: 'String' }, links: {} },
      };
      const OPS = ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte',
        'null', 'notNull', 'in', 'notIn', 'between', 'and', 'or', 'not'];

      const scalarFilter = (kind: Kind, depth: number): Json => {
        const out: Json = {};
        for (let i = 0, n = 1 + int(2); i < n; i++) {
          const op = pick(OPS);
          let v: unknown;
          if (op === 'null' || op === 'notNull') v = chance(0.5);
          else if (op === 'in' || op === 'notIn' || op === 'and' || op === 'or') v = Array.from({ length: int(5) }, () => scalarValue(kind));
          else if (op === 'between') v = Array.from({ length: chance(0.8) ? 2 : int(4) }, () => scalarValue(kind));
          else if (op === 'not') v = depth < 3 ? scalarFilter(kind, depth + 1) : { eq: scalarValue(kind) };
          else v = chance(0.1) ? null : scalarValue(kind);
          out[op] = chance(0.04) ? anyValue() : v;
        }
        return out;
      };
      const typeFilter = (type: string, depth: number): Json => {
        const def = TS[type]!;
        const out: Json = {};
        for (let i = 0, n = 1 + int(3); i < n; i++) {
          const r = rnd();
          if (r < 0.12 && depth < 4) out[pick(['and', 'or'])] = Array.from({ length: int(3) }, () => typeFilter(type, depth + 1));
          else if (r < 0.2 && depth < 4) out.not = typeFilter(type, depth + 1);
          else if (r < 0.35 && depth < 3 && Object.keys(def.links).length) {
            const link = pick(Object.keys(def.links));
            out[link] = typeFilter(def.links[link]!, depth + 1);
          } else {
            const field = pick(Object.keys(def.scalars));
            out[field] = scalarFilter(def.scalars[field]!, depth);
          }
        }
        if (chance(0.03)) out[pick(['nope', 'cover', 'blocks', 'pin'])] = { eq: 1 };
        return out;
      };
      const SORTS = ['name', 'name:desc', 'rating:DESC', 'price:asc', 'chef.name:desc', 'seo.metaTitle', 'createdAt:desc', 'documentId', 'visits', 'openedOn:asc',
        'nope', 'name:sideways', 'name; DROP TABLE x', 'categories.name', 'blocks', 'cover', 'pin', 'secret', '', ':', 'name:asc:desc', 'localizations.name',
        '__proto__', 'constructor.prototype', 'chef', 'seo', 'id', 'locale:desc', 'tags', 'description', 'rating,name:desc', 'chef.restaurants.name'];
      const sortValue = () => (chance(0.4) ? pick(SORTS) : Array.from({ length: int(4) }, () => pick(SORTS)));
      const PAGE_VALUES = [-1, 0, 1, 2, 5, 10, 100, 2147483647, -2147483648, 1000000, 3];
      const paginationValue = (): Json => {
        const out: Json = {};
        for (const key of ['page', 'pageSize', 'start', 'limit']) if (chance(0.35)) out[key] = pick(PAGE_VALUES);
        return out;
      };
      const LOCALES = ['en', 'fr', '*', 'xx', "'; DROP TABLE x; --", '', 'a'.repeat(300), 'EN', 'fr-FR'];

      const selection = (type: string, depth: number, mode: 'literal' | 'variables'): string => {
        const def = TS[type]!;
        const parts = new Set<string>();
        for (const [field] of Object.entries(def.scalars)) if (chance(0.25)) parts.add(field);
        if (type === 'Restaurant' && chance(0.2)) parts.add('blocks { __typename ... on ComponentSharedQuote { id body } ... on ComponentSharedSeo { metaTitle } }');
        if (depth < 3) {
          for (const [link, target] of Object.entries(def.links)) {
            if (!chance(0.2)) continue;
            const many = !(link === 'chef' || link === 'seo');
            const args: string[] = [];
            if (many && mode === 'literal') {
              if (chance(0.4)) args.push(`filters: ${lit(typeFilter(target, 2))}`);
              if (chance(0.4)) args.push(`pagination: ${lit(paginationValue())}`);
              if (chance(0.4)) args.push(`sort: ${lit(sortValue())}`);
            }
            const sub = selection(target, depth + 1, mode);
            const connection = many && link !== 'sections' && chance(0.3);
            parts.add(`${link}${connection ? '_connection' : ''}${args.length ? `(${args.join(', ')})` : ''} { ${connection ? `nodes { ${sub} }` : sub} }`);
          }
        }
        if (parts.size === 0) parts.add(type.startsWith('Component') ? 'id' : 'documentId');
        return [...parts].join(' ');
      };

      const generate = (): FuzzOp => {
        const mode = chance(0.5) ? 'literal' : 'variables';
        const root = pick(['restaurants', 'restaurants_connection', 'restaurant', 'chefs', 'categories_connection', 'chef', 'homepage']);
        const type = root.startsWith('restaurant') ? 'Restaurant' : root.startsWith('chef') ? 'Chef' : root.startsWith('categor') ? 'Category' : 'Homepage';
        const sel = type === 'Homepage' ? 'title locale publishedAt' : selection(type, 0, mode);
        const listRoot = root.endsWith('s') || root.endsWith('_connection');
        const body = root.endsWith('_connection') ? `nodes { ${sel} } pageInfo { page pageSize pageCount total }` : sel;
        const localized = type === 'Restaurant' || type === 'Homepage';
        const filters = listRoot && chance(0.8) ? typeFilter(type, 0) : undefined;
        const pagination = listRoot && chance(0.4) ? paginationValue() : undefined;
        const sort = listRoot && chance(0.4) ? sortValue() : undefined;
        const locale = localized && chance(0.3) ? pick(LOCALES) : undefined;
        const status = chance(0.2) ? pick(['DRAFT', 'PUBLISHED']) : undefined;
        const documentId = root === 'restaurant' || root === 'chef' ? (chance(0.7) ? pick(Object.values(ids)) : randomString()) : undefined;
        if (mode === 'literal') {
          const args: string[] = [];
          if (documentId !== undefined) args.push(`documentId: ${lit(documentId)}`);
          if (filters) args.push(`filters: ${lit(filters)}`);
          if (pagination) args.push(`pagination: ${lit(pagination)}`);
          if (sort !== undefined) args.push(`sort: ${lit(sort)}`);
          if (locale !== undefined) args.push(`locale: ${lit(locale)}`);
          if (status) args.push(`status: ${status}`);
          return { query: `{ ${root}${args.length ? `(${args.join(', ')})` : ''} { ${body} } }` };
        }
        const filterType = `${type}FiltersInput`;
        const defs: string[] = [];
        const args: string[] = [];
        const variables: Json = {};
        const add = (name: string, gqlType: string, arg: string, value: unknown) => {
          defs.push(`$${name}: ${gqlType}`);
          args.push(`${arg}: $${name}`);
          if (value !== undefined) variables[name] = chance(0.03) ? anyValue() : value;
        };
        if (documentId !== undefined) add('id', 'ID!', 'documentId', documentId);
        if (listRoot) {
          add('f', filterType, 'filters', filters);
          add('p', 'PaginationArg', 'pagination', pagination);
          add('s', '[String]', 'sort', sort);
        }
        if (localized) add('l', 'I18NLocaleCode', 'locale', locale);
        add('st', 'PublicationStatus', 'status', status);
        return { query: `query Fuzz(${defs.join(', ')}) { ${root}(${args.join(', ')}) { ${body} } }`, variables };
      };
      const mangle = (query: string): string => {
        let q = query;
        for (let i = 0, n = 1 + int(3); i < n; i++) {
          const at = int(q.length + 1);
          const r = rnd();
          if (r < 0.4) q = q.slice(0, at) + q.slice(at + 1 + int(5));
          else if (r < 0.8) q = q.slice(0, at) + pick(['{', '}', '(', ')', '[', ']', ':', '$', '"', '!', '@', '#', '\\', '...', 'on', ' ', '\u0000', '\uffff']) + q.slice(at);
          else q = q.slice(0, at) + q.slice(at, at + 10) + q.slice(at);
        }
        return q;
      };

      const ops: FuzzOp[] = [];
      for (let i = 0; i < count; i++) {
        const op = generate();
        if (i % 5 === 4) op.query = mangle(op.query);
        ops.push(op);
      }
      return ops;
    }

    /** Sends every operation `times` times (one new document text each); returns the unsafe answers. */
    async function runFuzz(ops: FuzzOp[], times: number): Promise<{ failures: string[]; statuses: Record<number, number> }> {
      const failures: string[] = [];
      const statuses: Record<number, number> = {};
      for (const [i, op] of ops.entries()) {
        const text = fresh(op.query);
        for (let attempt = 1; attempt <= times; attempt++) {
          const res = await gql(text, op.variables);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          try {
            assertSafe(res, `#${i}`);
          } catch (err) {
            failures.push(`#${i} attempt ${attempt}: ${op.query} ${JSON.stringify(op.variables ?? {}).slice(0, 500)} → ${show(res)} (${(err as Error).message.split('\n')[0]!.slice(0, 200)})`);
          }
        }
      }
      return { failures, statuses };
    }

    it('a seeded fuzz of 400 random operations: every status < 500, no INTERNAL_SERVER_ERROR, nothing written', async () => {
      const { failures, statuses } = await runFuzz(generateFuzz(400), 1);
      assert.deepEqual(failures, [], `${failures.length} unsafe answers:\n${failures.slice(0, 10).join('\n\n')}`);
      assert.ok((statuses[200] ?? 0) > 100, `enough operations executed: ${JSON.stringify(statuses)}`);
      assert.deepEqual(await snapshot(), baseline, 'queries wrote nothing');
    });

    it('the same fuzz with every document sent three times (cached / compiled documents)', {
    }, async () => {
      const { failures } = await runFuzz(generateFuzz(400), 3);
      assert.deepEqual(failures, [], `${failures.length} unsafe answers:\n${failures.slice(0, 10).join('\n\n')}`);
      assert.deepEqual(await snapshot(), baseline, 'queries wrote nothing');
    });
  });
});
