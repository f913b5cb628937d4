// Filters against the real Postgres: every operator on every scalar type it
// applies to, logical nesting, deep relation and component filters, media, `_q`.
// Published English restaurants: 10 Pasta Place, 20 Bistro Bob, 40 "cafe 50%_off\" (all null), 50 Zed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHEF } from './helpers/model.ts';
import { createFixture, ids, list, type Fixture, type QueryOptions } from './helpers/fixture.ts';

let f: Fixture;
before(async () => {
  f = await createFixture('query_filters');
});
after(async () => {
  await f.db.drop();
});

async function expectIds(query: string, expected: number[], options?: QueryOptions) {
  const { data } = await list(f, query, options);
  assert.deepEqual(ids(data), expected, query);
}

const enc = encodeURIComponent;

describe('filters: string operators (name)', () => {
  it('equality, case-insensitive equality and negations', async () => {
    await expectIds('filters[name][$eq]=Zed', [50]);
    await expectIds('filters[name]=Zed', [50]);
    await expectIds('filters[name][$eq]=zed', []);
    await expectIds('filters[name][$eqi]=zED', [50]);
    await expectIds('filters[name][$ne]=Zed', [10, 20, 40]);
    await expectIds('filters[name][$nei]=ZED', [10, 20, 40]);
  });
  it('contains / starts / ends, case-sensitive and not', async () => {
    await expectIds('filters[name][$contains]=Place', [10]);
    await expectIds('filters[name][$contains]=place', []);
    await expectIds('filters[name][$containsi]=place', [10]);
    await expectIds('filters[name][$notContains]=o', [10, 50]);
    await expectIds('filters[name][$notContainsi]=B', [10, 40, 50]);
    await expectIds('filters[name][$startsWith]=Bis', [20]);
    await expectIds('filters[name][$startsWith]=bis', []);
    await expectIds('filters[name][$startsWithi]=bis', [20]);
    await expectIds('filters[name][$endsWith]=Bob', [20]);
    await expectIds('filters[name][$endsWithi]=BOB', [20]);
  });
  it('matches %, _ and \\ literally in LIKE values', async () => {
    await expectIds(`filters[name][$contains]=${enc('%')}`, [40]);
    await expectIds('filters[name][$contains]=_', [40]);
    await expectIds(`filters[name][$contains]=${enc('\\')}`, [40]);
    await expectIds(`filters[name][$contains]=${enc('50%_')}`, [40]);
    await expectIds(`filters[name][$startsWith]=${enc('%')}`, []);
    await expectIds(`filters[name][$endsWith]=${enc('\\')}`, [40]);
    await expectIds(`filters[name][$containsi]=${enc('%_OFF')}`, [40]);
    await expectIds(`filters[name][$startsWith]=${enc('P_sta')}`, []);
  });
  it('lists, ranges and nulls', async () => {
    await expectIds('filters[name][$in][0]=Zed&filters[name][$in][1]=Bistro Bob', [20, 50]);
    await expectIds('filters[name][$in]=Zed', [50]);
    await expectIds('filters[name][0]=Zed&filters[name][1]=Bistro Bob', [20, 50]);
    await expectIds('filters[name][$notIn][0]=Zed', [10, 20, 40]);
    await expectIds('filters[name][$lt]=Bz', [20]);
    await expectIds('filters[name][$between][0]=B&filters[name][$between][1]=Q', [10, 20]);
    await expectIds('filters[email][$null]=true', [20, 40]);
    await expectIds('filters[email][$null]=false', [10, 50]);
    await expectIds('filters[email][$notNull]=true', [10, 50]);
    await expectIds('filters[email][$notNull]=f', [20, 40]);
    await expectIds('filters[email][$endsWith]=@example.com', [10, 50]);
    await expectIds('filters[kind][$eq]=cafe', [50]);
    await expectIds('filters[kind][$in][0]=cafe&filters[kind][$in][1]=bistro', [10, 50]);
  });
});

describe('filters: numbers', () => {
  it('integer', async () => {
    await expectIds('filters[rating][$eq]=5', [10]);
    await expectIds('filters[rating][$ne]=5', [20, 50]);
    await expectIds('filters[rating][$lt]=4', [20]);
    await expectIds('filters[rating][$lte]=4', [20, 50]);
    await expectIds('filters[rating][$gt]=3', [10, 50]);
    await expectIds('filters[rating][$gte]=3', [10, 20, 50]);
    await expectIds('filters[rating][$in][0]=3&filters[rating][$in][1]=5', [10, 20]);
    await expectIds('filters[rating][$notIn][0]=3', [10, 50]);
    await expectIds('filters[rating][$between][0]=3&filters[rating][$between][1]=4', [20, 50]);
    await expectIds('filters[rating][$null]=true', [40]);
    await expectIds('filters[rating][$notNull]=true', [10, 20, 50]);
    await expectIds('filters[rating][$eqi]=5', [10]);
    await expectIds('filters[rating][$contains]=5', [10]);
    await expectIds('filters[rating][$eq]=+5', [10]);
  });
  it('decimal', async () => {
    await expectIds('filters[price][$eq]=12.5', [10]);
    await expectIds('filters[price][$eq]=12.500', [10]);
    await expectIds('filters[price][$gt]=10', [10, 20]);
    await expectIds('filters[price][$lt]=12.5', [50]);
    await expectIds('filters[price][$lte]=1.25e1', [10, 50]);
    await expectIds('filters[price][$between][0]=7.25&filters[price][$between][1]=12.5', [10, 50]);
    await expectIds('filters[price][$in][0]=20&filters[price][$in][1]=7.25', [20, 50]);
    await expectIds('filters[price][$null]=true', [40]);
  });
  it('float and biginteger (beyond 2^53 exactly)', async () => {
    await expectIds('filters[score][$gt]=4', [10, 50]);
    await expectIds('filters[score][$eq]=2.25', [20]);
    await expectIds('filters[score][$lte]=4.5', [10, 20]);
    await expectIds('filters[visits][$eq]=9007199254740993', [10]);
    await expectIds('filters[visits][$eq]=9007199254740992', []);
    await expectIds('filters[visits][$gt]=99', [10, 50]);
    await expectIds('filters[visits][$lt]=9007199254740993', [20, 50]);
    await expectIds('filters[visits][$in][0]=1&filters[visits][$in][1]=100', [20, 50]);
  });
  it('id and documentId', async () => {
    await expectIds('filters[id][$eq]=20', [20]);
    await expectIds('filters[id][$in][0]=10&filters[id][$in][1]=50', [10, 50]);
    await expectIds('filters[id][$gt]=20', [40, 50]);
    await expectIds('filters[id][$eq]=11', []);
    await expectIds('filters[documentId][$eq]=restb', [20]);
    await expectIds('filters[documentId][$in][0]=resta&filters[documentId][$in][1]=reste', [10, 50]);
  });
});

describe('filters: booleans, dates, times, datetimes, json', () => {
  it('boolean accepts true/false/1/0/t/f', async () => {
    await expectIds('filters[open][$eq]=true', [10, 50]);
    await expectIds('filters[open][$eq]=f', [20]);
    await expectIds('filters[open][$eq]=0', [20]);
    await expectIds('filters[open][$eq]=1', [10, 50]);
    await expectIds('filters[open][$eq]=TRUE', [10, 50]);
    await expectIds('filters[open][$ne]=true', [20]);
    await expectIds('filters[open][$null]=true', [40]);
    await expectIds('filters[open][$in][0]=t', [10, 50]);
  });
  it('date', async () => {
    await expectIds('filters[openedOn][$eq]=2020-05-17', [10]);
    await expectIds('filters[openedOn][$gt]=2020-01-01', [10, 50]);
    await expectIds('filters[openedOn][$lt]=2020-05-17', [20]);
    await expectIds('filters[openedOn][$lte]=2020-05-17', [10, 20]);
    await expectIds('filters[openedOn][$between][0]=2019-01-01&filters[openedOn][$between][1]=2020-05-17', [10, 20]);
    await expectIds('filters[openedOn][$gte]=2020-05-17T22:00:00Z', [10, 50]);
    await expectIds('filters[openedOn][$in][0]=2019-01-01&filters[openedOn][$in][1]=2021-03-03', [20, 50]);
    await expectIds('filters[openedOn][$null]=true', [40]);
  });
  it('datetime: ISO with or without zone, date only, epoch milliseconds', async () => {
    await expectIds('filters[lastVisit][$eq]=2024-02-03T04:05:06.789Z', [10]);
    await expectIds('filters[lastVisit][$gt]=2024-01-01', [10]);
    await expectIds('filters[lastVisit][$gte]=2024-01-01', [10, 50]);
    await expectIds(`filters[lastVisit][$lt]=${enc('2024-01-01T01:00:00+02:00')}`, [20]);
    await expectIds('filters[lastVisit][$eq]=2024-01-01T00:00:00', [50]);
    await expectIds('filters[lastVisit][$eq]=1704067200000', [50]);
    await expectIds('filters[lastVisit][$between][0]=2023-01-01&filters[lastVisit][$between][1]=2024-01-01T00:00:00.000Z', [20, 50]);
    await expectIds('filters[createdAt][$eq]=2024-01-01T10:00:00.000Z', [10, 20, 40, 50]);
    await expectIds('filters[updatedAt][$gt]=2024-01-02T10:00:00.000Z', []);
    await expectIds('filters[publishedAt][$notNull]=true', [10, 20, 40, 50]);
    await expectIds('filters[publishedAt][$null]=true', [11, 21, 30, 41, 51], { status: 'draft' });
  });
  it('time', async () => {
    await expectIds('filters[opensAt][$eq]=10:30:00', [10]);
    await expectIds('filters[opensAt][$eq]=10:30', [10]);
    await expectIds('filters[opensAt][$lt]=09:00', [20]);
    await expectIds('filters[opensAt][$gt]=08:15:30.250', [10]);
    await expectIds('filters[opensAt][$gte]=08:15:30.250', [10, 20]);
  });
  it('json and blocks compare as text', async () => {
    await expectIds('filters[tags][$contains]="a"', [10]);
    await expectIds('filters[tags][$null]=true', [20, 40, 50]);
    await expectIds('filters[description][$containsi]=HELLO', [10]);
  });
  it('locale is filterable (with locale=*)', async () => {
    await expectIds('filters[locale][$eq]=fr', [12], { locale: '*' });
    await expectIds('filters[locale][$ne]=fr', [10, 20, 40, 50], { locale: '*' });
  });
});

// Every operator on string, integer, decimal, boolean, date and datetime attributes. Values are
// [field, operator, value(s), expected ids]; case-insensitive and LIKE operators see the text the
// JSON answer shows (`12.5`, `2024-02-03T04:05:06.789Z`).
const MATRIX: Array<[string, string, string | string[], number[]]> = [
  ['name', '$eq', 'Zed', [50]], ['name', '$eqi', 'zed', [50]], ['name', '$ne', 'Zed', [10, 20, 40]], ['name', '$nei', 'zED', [10, 20, 40]],
  ['name', '$lt', 'Bz', [20]], ['name', '$lte', 'Bistro Bob', [20]], ['name', '$gt', 'Pasta Place', [40, 50]], ['name', '$gte', 'Pasta Place', [10, 40, 50]],
  ['name', '$in', ['Zed', 'x'], [50]], ['name', '$notIn', ['Zed', 'x'], [10, 20, 40]], ['name', '$between', ['B', 'Q'], [10, 20]],
  ['name', '$contains', 'ast', [10]], ['name', '$notContains', 'ast', [20, 40, 50]], ['name', '$containsi', 'AST', [10]],
  ['name', '$notContainsi', 'AST', [20, 40, 50]], ['name', '$startsWith', 'Z', [50]], ['name', '$startsWithi', 'z', [50]],
  ['name', '$endsWith', 'Bob', [20]], ['name', '$endsWithi', 'bOB', [20]], ['email', '$null', 'true', [20, 40]], ['email', '$notNull', 'true', [10, 50]],

  ['rating', '$eq', '5', [10]], ['rating', '$eqi', '5', [10]], ['rating', '$ne', '5', [20, 50]], ['rating', '$nei', '5', [20, 50]],
  ['rating', '$lt', '4', [20]], ['rating', '$lte', '4', [20, 50]], ['rating', '$gt', '3', [10, 50]], ['rating', '$gte', '3', [10, 20, 50]],
  ['rating', '$in', ['3', '5'], [10, 20]], ['rating', '$notIn', ['3'], [10, 50]], ['rating', '$between', ['3', '4'], [20, 50]],
  ['rating', '$contains', '5', [10]], ['rating', '$notContains', '5', [20, 50]], ['rating', '$containsi', '4', [50]],
  ['rating', '$notContainsi', '3', [10, 50]], ['rating', '$startsWith', '3', [20]], ['rating', '$startsWithi', '4', [50]],
  ['rating', '$endsWith', '5', [10]], ['rating', '$endsWithi', '3', [20]], ['rating', '$null', 'true', [40]], ['rating', '$notNull', 'true', [10, 20, 50]],

  ['price', '$eq', '12.5', [10]], ['price', '$eqi', '12.5', [10]], ['price', '$ne', '20', [10, 50]], ['price', '$nei', '12.5', [20, 50]],
  ['price', '$lt', '12.5', [50]], ['price', '$lte', '7.25', [50]], ['price', '$gt', '10', [10, 20]], ['price', '$gte', '12.5', [10, 20]],
  ['price', '$in', ['20', '7.25'], [20, 50]], ['price', '$notIn', ['20'], [10, 50]], ['price', '$between', ['7.25', '12.5'], [10, 50]],
  ['price', '$contains', '.2', [50]], ['price', '$notContains', '.', [20]], ['price', '$containsi', '2', [10, 20, 50]],
  ['price', '$notContainsi', '7', [10, 20]], ['price', '$startsWith', '7', [50]], ['price', '$startsWithi', '1', [10]],
  ['price', '$endsWith', '.5', [10]], ['price', '$endsWithi', '0', [20]], ['price', '$null', 'true', [40]], ['price', '$notNull', 'true', [10, 20, 50]],

  ['open', '$eq', 'true', [10, 50]], ['open', '$eqi', 'TRUE', [10, 50]], ['open', '$ne', 'false', [10, 50]], ['open', '$nei', 'true', [20]],
  ['open', '$lt', 'true', [20]], ['open', '$lte', 'false', [20]], ['open', '$gt', 'false', [10, 50]], ['open', '$gte', 'false', [10, 20, 50]],
  ['open', '$in', ['true'], [10, 50]], ['open', '$notIn', ['true'], [20]], ['open', '$between', ['false', 'true'], [10, 20, 50]],
  ['open', '$contains', 'ru', [10, 50]], ['open', '$notContains', 'ru', [20]], ['open', '$containsi', 'AL', [20]],
  ['open', '$notContainsi', 'E', []], ['open', '$startsWith', 't', [10, 50]], ['open', '$startsWithi', 'F', [20]],
  ['open', '$endsWith', 'se', [20]], ['open', '$endsWithi', 'UE', [10, 50]], ['open', '$null', 'true', [40]], ['open', '$notNull', 'true', [10, 20, 50]],

  ['openedOn', '$eq', '2020-05-17', [10]], ['openedOn', '$eqi', '2020-05-17', [10]], ['openedOn', '$ne', '2020-05-17', [20, 50]],
  ['openedOn', '$nei', '2020-05-17', [20, 50]], ['openedOn', '$lt', '2020-05-17', [20]], ['openedOn', '$lte', '2020-05-17', [10, 20]],
  ['openedOn', '$gt', '2020-05-17', [50]], ['openedOn', '$gte', '2020-05-17', [10, 50]], ['openedOn', '$in', ['2019-01-01', '2021-03-03'], [20, 50]],
  ['openedOn', '$notIn', ['2019-01-01'], [10, 50]], ['openedOn', '$between', ['2019-01-02', '2021-03-03'], [10, 50]],
  ['openedOn', '$contains', '-05-', [10]], ['openedOn', '$notContains', '2019', [10, 50]], ['openedOn', '$containsi', '-03', [50]],
  ['openedOn', '$notContainsi', '0', []], ['openedOn', '$startsWith', '2019', [20]], ['openedOn', '$startsWithi', '2021', [50]],
  ['openedOn', '$endsWith', '17', [10]], ['openedOn', '$endsWithi', '01', [20]], ['openedOn', '$null', 'true', [40]], ['openedOn', '$notNull', 'true', [10, 20, 50]],

  ['lastVisit', '$eq', '2024-02-03T04:05:06.789Z', [10]], ['lastVisit', '$eqi', '2024-02-03t04:05:06.789z', [10]],
  ['lastVisit', '$ne', '2024-01-01', [10, 20]], ['lastVisit', '$nei', '2024-02-03T04:05:06.789Z', [20, 50]],
  ['lastVisit', '$lt', '2024-01-01T00:00:00.001Z', [20, 50]], ['lastVisit', '$lte', '2024-01-01T00:00:00Z', [20, 50]],
  ['lastVisit', '$gt', '2024-01-01', [10]], ['lastVisit', '$gte', '2024-01-01', [10, 50]],
  ['lastVisit', '$in', ['2024-02-03T04:05:06.789Z', '2024-01-01'], [10, 50]], ['lastVisit', '$notIn', ['2023-06-01T12:00:00Z'], [10, 50]],
  ['lastVisit', '$between', ['2023-06-01T12:00:00Z', '2024-01-01'], [20, 50]],
  ['lastVisit', '$contains', 'T12:', [20]], ['lastVisit', '$notContains', '2024', [20]], ['lastVisit', '$containsi', 't04:05', [10]],
  ['lastVisit', '$notContainsi', '.000z', [10]], ['lastVisit', '$startsWith', '2024-0', [10, 50]], ['lastVisit', '$startsWithi', '2023', [20]],
  ['lastVisit', '$endsWith', '.789Z', [10]], ['lastVisit', '$endsWithi', 't00:00:00.000z', [50]], ['lastVisit', '$null', 'true', [40]],
  ['lastVisit', '$notNull', 'true', [10, 20, 50]],
];

describe('filters: operator matrix', () => {
  for (const type of ['name', 'rating', 'price', 'open', 'openedOn', 'lastVisit']) {
    it(`every operator on ${type}`, async () => {
      const rows = MATRIX.filter(([field]) => field === type || (type === 'name' && field === 'email'));
      assert.equal(new Set(rows.map(([, op]) => op)).size, 21, 'all 21 comparison operators');
      for (const [field, op, value, expected] of rows) {
        const query = Array.isArray(value)
          ? value.map((v, i) => `filters[${field}][${op}][${i}]=${enc(v)}`).join('&')
          : `filters[${field}][${op}]=${enc(value)}`;
        await expectIds(query, expected);
      }
    });
  }
});

describe('filters: $and / $or / $not at any level', () => {
  it('combines', async () => {
    await expectIds('filters[$or][0][rating][$eq]=5&filters[$or][1][name][$eq]=Zed', [10, 50]);
    await expectIds('filters[$and][0][rating][$gte]=3&filters[$and][1][open][$eq]=true', [10, 50]);
    await expectIds('filters[rating][$gte]=3&filters[open][$eq]=false', [20]);
    await expectIds('filters[$or][0][$and][0][rating][$gte]=4&filters[$or][0][$and][1][open]=true&filters[$or][1][name][$eq]=Bistro Bob', [10, 20, 50]);
    await expectIds('filters[rating][$or][0][$eq]=3&filters[rating][$or][1][$eq]=4', [20, 50]);
  });
  it('$not excludes rows where the column is NULL, top level or under a field', async () => {
    await expectIds('filters[$not][rating][$gt]=3', [20]);
    await expectIds('filters[rating][$not][$eq]=5', [20, 50]);
    await expectIds('filters[$not][$or][0][rating][$eq]=5&filters[$not][$or][1][rating][$eq]=3', [50]);
    await expectIds('filters[$not][$not][rating][$eq]=5', [10]);
    await expectIds('filters[$not][$and][0][rating][$eq]=5&filters[$not][$and][1][open][$eq]=true', [20, 50]);
    await expectIds('filters[name][$not][$containsi]=a', [20, 50]);
  });
});

describe('filters: relations, components, media', () => {
  it('to-one relation fields, through status rules', async () => {
    await expectIds('filters[chef][name][$eq]=Alice', [10]);
    await expectIds('filters[chef][name][$eq]=Alice', [11, 30], { status: 'draft' });
    await expectIds('filters[chef][name][$eq]=Carol', [40]);
    await expectIds('filters[chef][documentId][$eq]=chefb', [20]);
    await expectIds('filters[chef][age][$gte]=35', [10, 20]);
  });
  it('a relation with no related row matches conditions true on NULL (LEFT JOIN semantics)', async () => {
    await expectIds('filters[chef][id][$null]=true', [50]);
    await expectIds('filters[chef][id][$notNull]=true', [10, 20, 40]);
    await expectIds('filters[chef][age][$null]=true', [40, 50]);
  });
  it('to-many: matches when any related row matches; one row must satisfy an AND', async () => {
    await expectIds('filters[categories][name][$eq]=Italian', [10, 50]);
    await expectIds('filters[categories][name][$containsi]=organic', [10]);
    await expectIds('filters[categories][name][$eq]=Italian&filters[categories][id][$eq]=3', []);
    await expectIds('filters[categories][name][$eq]=Italian&filters[categories][id][$eq]=1', [10, 50]);
    await expectIds('filters[$or][0][categories][name][$eq]=French&filters[$or][1][chef][name][$eq]=Carol', [20, 40]);
  });
  it('$not through a relation means "a related row that does not match"', async () => {
    await expectIds('filters[$not][chef][name][$eq]=Alice', [20, 40]);
    await expectIds('filters[chef][$not][name][$eq]=Alice', [20, 40]);
    await expectIds('filters[$not][categories][name][$eq]=Italian', [10, 20]);
  });
  it('any depth, inverse sides, and the locale of inverse rows', async () => {
    await expectIds('filters[chef][mentor][name][$eq]=Alice', [20]);
    await expectIds('filters[chef][restaurants][name][$eq]=Bistro Bob', [20]);
    await expectIds('filters[categories][restaurants][name][$eq]=Zed', [10, 50]);
    await expectIds('filters[restaurants][name][$startsWith]=Pasta', [1], { uid: CHEF });
    await expectIds('filters[restaurants][name][$eq]=Draft Diner', [], { uid: CHEF });
    await expectIds('filters[restaurants][name][$eq]=Draft Diner', [1], { uid: CHEF, status: 'draft' });
    // Every linked locale row, whatever the request's locale (the parent is not localized).
    await expectIds(`filters[restaurants][name][$eq]=${enc('Lieu des Pâtes')}`, [1], { uid: CHEF, locale: 'fr' });
    await expectIds(`filters[restaurants][name][$eq]=${enc('Lieu des Pâtes')}`, [1], { uid: CHEF });
    await expectIds('filters[favorite][name][$eq]=Draft Diner', [], { uid: CHEF });
    await expectIds('filters[favorite][name][$eq]=Draft Diner', [1], { uid: CHEF, status: 'draft' });
  });
  it('components, nested components and relations inside components', async () => {
    await expectIds('filters[seo][metaTitle][$eq]=T', [10]);
    await expectIds('filters[seo][metaTitle][$eq]=T draft', [11], { status: 'draft' });
    await expectIds('filters[seo][social][network][$eq]=x', [10]);
    await expectIds('filters[seo][featuredChef][name][$eq]=Bob', [10]);
    await expectIds('filters[seo][id][$null]=true', [20, 40, 50]);
    await expectIds('filters[sections][body][$eq]=s2', [60], { uid: 'api::article.article' });
  });
  it('media filters are accepted and match nothing', async () => {
    await expectIds('filters[cover][name][$eq]=photo.png', []);
    await expectIds('filters[$or][0][cover][url][$eq]=x&filters[$or][1][name][$eq]=Zed', [50]);
  });
  it('localizations of a localized type', async () => {
    await expectIds('filters[localizations][locale][$eq]=fr', [10]);
  });
});

describe('_q search', () => {
  it('is a case-insensitive contains over id and string fields (numbers too when numeric)', async () => {
    await expectIds('_q=pasta', [10]);
    await expectIds('_q=BOB', [20]);
    await expectIds(`_q=${enc('%')}`, [40]);
    await expectIds('_q=9.75', [50]);
    await expectIds('_q=12', [10]);
    await expectIds('_q=1', [10, 20, 50]);
    await expectIds('_q=', [10, 20, 40, 50]);
    await expectIds('_q=zed&filters[rating][$eq]=5', []);
  });
});
