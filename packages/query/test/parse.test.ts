import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery, parseQueryString } from '../src/index.ts';

const opts = { defaultLimit: 25, maxLimit: 100 };
const q = (s: string) => parseQuery(parseQueryString(s), opts);
const fails = (s: string, expected: { status?: number; name?: string; message?: string | RegExp; details?: unknown }) => {
  assert.throws(() => q(s), (err: any) => {
    if (expected.name) assert.equal(err.name, expected.name, s);
    if (expected.status) assert.equal(err.status, expected.status, s);
    if (typeof expected.message === 'string') assert.equal(err.message, expected.message, s);
    if (expected.message instanceof RegExp) assert.match(err.message, expected.message, s);
    if (expected.details) assert.deepEqual(err.details, expected.details, s);
    return true;
  });
};

describe('parse: filters', () => {
  it('reads field/operator pairs, implicit $eq and implicit $in', () => {
    assert.deepEqual(q('filters[name][$eq]=x').filters, { kind: 'compare', path: ['name'], op: '$eq', value: 'x' });
    assert.deepEqual(q('filters[name]=x').filters, { kind: 'compare', path: ['name'], op: '$eq', value: 'x' });
    assert.deepEqual(q('filters[id][$in][0]=1&filters[id][$in][1]=5').filters, { kind: 'compare', path: ['id'], op: '$in', value: ['1', '5'] });
    assert.deepEqual(q('filters[id][$in]=3').filters, { kind: 'compare', path: ['id'], op: '$in', value: ['3'] });
    assert.deepEqual(q('filters[id][0]=3&filters[id][1]=4').filters, { kind: 'compare', path: ['id'], op: '$in', value: ['3', '4'] });
  });

  it('reads every comparison operator', () => {
    for (const op of ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$contains', '$notContains', '$containsi',
      '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi']) {
      assert.deepEqual(q(`filters[f][${op}]=v`).filters, { kind: 'compare', path: ['f'], op, value: 'v' });
    }
    assert.deepEqual(q('filters[f][$null]=true').filters, { kind: 'compare', path: ['f'], op: '$null', value: true });
    assert.deepEqual(q('filters[f][$notNull]=f').filters, { kind: 'compare', path: ['f'], op: '$notNull', value: false });
    assert.deepEqual(q('filters[f][$between][0]=1&filters[f][$between][1]=9').filters, { kind: 'compare', path: ['f'], op: '$between', value: ['1', '9'] });
    assert.deepEqual(q('filters[f][$notIn][0]=a').filters, { kind: 'compare', path: ['f'], op: '$notIn', value: ['a'] });
  });

  it('reads $or/$and lists, $not at the top and under a field, and relation paths', () => {
    assert.deepEqual(q('filters[$or][0][a][$eq]=1&filters[$or][1][b][$eq]=2').filters, {
      kind: 'or', children: [{ kind: 'compare', path: ['a'], op: '$eq', value: '1' }, { kind: 'compare', path: ['b'], op: '$eq', value: '2' }],
    });
    assert.deepEqual(q('filters[$not][a][$eq]=1').filters, { kind: 'not', child: { kind: 'compare', path: ['a'], op: '$eq', value: '1' } });
    assert.deepEqual(q('filters[rating][$not][$eq]=0').filters, { kind: 'not', child: { kind: 'compare', path: ['rating'], op: '$eq', value: '0' } });
    assert.deepEqual(q('filters[chef][restaurants][name][$eq]=x').filters, { kind: 'compare', path: ['chef', 'restaurants', 'name'], op: '$eq', value: 'x' });
    assert.deepEqual(q('filters[a][$eq]=1&filters[b][$gt]=2').filters, {
      kind: 'and', children: [{ kind: 'compare', path: ['a'], op: '$eq', value: '1' }, { kind: 'compare', path: ['b'], op: '$gt', value: '2' }],
    });
    assert.deepEqual(q('filters[chef][$or][0][name][$eq]=a').filters, { kind: 'or', children: [{ kind: 'compare', path: ['chef', 'name'], op: '$eq', value: 'a' }] });
  });

  it('refuses unknown operators with Strapi details', () => {
    fails('filters[name][$nope]=1', {
      status: 400, name: 'ValidationError', message: 'Invalid key $nope at name',
      details: { key: '$nope', path: 'name', source: 'query', param: 'filters' },
    });
    fails('filters[$nope]=1', { message: 'Invalid key $nope', details: { key: '$nope', path: null, source: 'query', param: 'filters' } });
    fails('filters[a b][$eq]=1', { message: 'Invalid key a b' });
    fails('filters=abc', { name: 'ValidationError' });
    fails('filters[f][$between][0]=1', { name: 'ValidationError', message: /exactly two/ });
    fails('filters[f][$null]=maybe', { name: 'ValidationError' });
  });

  it('bounds depth, size and values, and refuses NUL bytes', () => {
    fails(`filters${'[a]'.repeat(19)}[$eq]=1`, { name: 'ValidationError', message: /too deeply/ });
    const many = Array.from({ length: 401 }, (_, i) => `filters[f${i}][$eq]=1`).join('&');
    fails(many, { name: 'ValidationError', message: /too many/ });
    fails(`filters[f][$eq]=${'x'.repeat(10_001)}`, { name: 'ValidationError', message: /too long/ });
    fails('filters[f][$eq]=a%00b', { name: 'ValidationError', message: /NUL/ });
    const ids = Array.from({ length: 1001 }, (_, i) => `filters[id][$in][${i}]=${i}`).join('&');
    fails(ids, { name: 'ValidationError', message: /Too many values/ });
  });
});

describe('parse: sort', () => {
  it('reads every form', () => {
    assert.deepEqual(q('sort=name').sort, [{ path: ['name'], direction: 'asc' }]);
    assert.deepEqual(q('sort=name:DESC').sort, [{ path: ['name'], direction: 'desc' }]);
    assert.deepEqual(q('sort=rating:desc,name:asc').sort, [{ path: ['rating'], direction: 'desc' }, { path: ['name'], direction: 'asc' }]);
    assert.deepEqual(q('sort[0]=name:desc&sort[1]=id:asc').sort, [{ path: ['name'], direction: 'desc' }, { path: ['id'], direction: 'asc' }]);
    assert.deepEqual(q('sort[name]=desc').sort, [{ path: ['name'], direction: 'desc' }]);
    assert.deepEqual(q('sort[chef][name]=desc').sort, [{ path: ['chef', 'name'], direction: 'desc' }]);
    assert.deepEqual(q('sort[0][chef][name]=asc').sort, [{ path: ['chef', 'name'], direction: 'asc' }]);
    assert.deepEqual(q('sort=chef.name:desc').sort, [{ path: ['chef', 'name'], direction: 'desc' }]);
  });
  it('refuses bad directions with the Strapi message', () => {
    fails('sort=name:sideways', { status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} });
  });
});

describe('parse: fields', () => {
  it('reads arrays and comma lists; * means all', () => {
    assert.deepEqual(q('fields[0]=name&fields[1]=rating').fields, ['name', 'rating']);
    assert.deepEqual(q('fields=name,rating').fields, ['name', 'rating']);
    assert.equal(q('fields=*').fields, undefined);
    fails('fields[0]=__proto__.x', { message: 'Invalid key __proto__.x', details: { key: '__proto__.x', path: '__proto__.x', source: 'query', param: 'fields' } });
  });
});

describe('parse: pagination', () => {
  it('applies Strapi defaults, clamps and the offset form', () => {
    assert.equal(q('').pagination, undefined);
    assert.deepEqual(q('pagination[page]=2&pagination[pageSize]=10').pagination, { kind: 'page', page: 2, pageSize: 10, withCount: true });
    assert.deepEqual(q('pagination[pageSize]=1000').pagination, { kind: 'page', page: 1, pageSize: 100, withCount: true });
    assert.deepEqual(q('pagination[start]=1&pagination[limit]=2').pagination, { kind: 'offset', start: 1, limit: 2, withCount: true });
    assert.deepEqual(q('pagination[withCount]=false').pagination, { kind: 'page', page: 1, pageSize: 25, withCount: false });
    assert.deepEqual(q('pagination[page]=0').pagination, { kind: 'page', page: 1, pageSize: 25, withCount: true });
    assert.deepEqual(q('pagination[pageSize]=0').pagination, { kind: 'page', page: 1, pageSize: 1, withCount: true });
    assert.deepEqual(q('pagination[limit]=-1').pagination, { kind: 'offset', start: 0, limit: 1, withCount: true });
  });
  it('refuses mixing and malformed values', () => {
    fails('pagination[page]=1&pagination[start]=0', { status: 400, name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query' });
    fails('pagination[page]=abc', { name: 'ValidationError', message: 'convertStartQueryParams expected a positive integer got NaN', details: {} });
    fails('pagination[start]=abc', { name: 'ValidationError', message: 'convertStartQueryParams expected a positive integer got NaN' });
    fails('pagination[pageSize]=abc', { name: 'ValidationError' });
    fails('pagination[withCount]=maybe', { message: 'Invalid withCount parameter. Expected "t","1","true","false","0","f"' });
    fails('pagination[page]=99999999999999999999', { name: 'ValidationError' });
  });
});

describe('parse: populate', () => {
  it('reads every form', () => {
    assert.equal(q('populate=*').populate, '*');
    assert.deepEqual(q('populate=chef,seo').populate, { chef: {}, seo: {} });
    assert.deepEqual(q('populate[0]=chef&populate[1]=categories').populate, { chef: {}, categories: {} });
    assert.deepEqual(q('populate[chef]=true').populate, { chef: {} });
    assert.deepEqual(q('populate[seo]=*').populate, { seo: { populate: '*' } });
    assert.deepEqual(q('populate[chef][fields][0]=name').populate, { chef: { fields: ['name'] } });
    assert.deepEqual(q('populate[categories][filters][name][$eq]=x').populate, {
      categories: { filters: { kind: 'compare', path: ['name'], op: '$eq', value: 'x' } },
    });
    assert.deepEqual(q('populate[categories][sort]=name:desc').populate, { categories: { sort: [{ path: ['name'], direction: 'desc' }] } });
    assert.deepEqual(q('populate[mentor][populate][restaurants][fields][0]=name').populate, {
      mentor: { populate: { restaurants: { fields: ['name'] } } },
    });
    assert.deepEqual(q('populate[chef][populate]=*').populate, { chef: { populate: '*' } });
    assert.deepEqual(q('populate[restaurants][count]=true').populate, { restaurants: { count: true } });
    assert.deepEqual(q('populate[blocks][on][shared.quote][fields][0]=body').populate, { blocks: { on: { 'shared.quote': { fields: ['body'] } } } });
    assert.deepEqual(q('populate=chef.restaurants').populate, { chef: { populate: { restaurants: {} } } });
  });
  it('refuses unknown keys inside an entry with the Strapi message', () => {
    fails('populate[categories][pagination][limit]=1', {
      message: 'Invalid key pagination at categories', details: { key: 'pagination', path: 'categories', source: 'query', param: 'populate' },
    });
    fails(`populate${'[x][populate]'.repeat(9)}[x]=true`, { message: /too deeply/ });
  });
});

describe('parse: locale, status, unknown keys', () => {
  it('reads locale/status, ignores unknown top-level keys, refuses bad status', () => {
    assert.deepEqual(q('locale=fr&status=draft&foo=bar'), { sort: [], locale: 'fr', status: 'draft' });
    fails('status=bogus', { status: 400, name: 'ValidationError' });
    fails('locale[0]=fr', { name: 'ValidationError' });
  });
});
