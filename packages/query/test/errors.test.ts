// Refusals of the plan stage: Strapi's name, message and details,
// always before any SQL exists.
import { after, before, describe, it } from 'node:test';
import { ARTICLE } from './helpers/model.ts';
import { planQuery } from '../src/index.ts';
import { context, createFixture, plan, rejects, type Fixture } from './helpers/fixture.ts';

let f: Fixture;
before(async () => {
  f = await createFixture('query_errors');
});
after(async () => {
  await f.db.drop();
});

const key = (k: string, param: string, path: string | null) => ({ key: k, path, source: 'query', param });
const invalid = (query: string, message: string, details: unknown, uid?: string) =>
  rejects(() => plan(f, query, uid ? { uid } : {}), { name: 'ValidationError', status: 400, message, details });

describe('errors: filters', () => {
  it('unknown, password and private keys', () => {
    invalid('filters[nope][$eq]=1', 'Invalid key nope', key('nope', 'filters', null));
    invalid('filters[pin][$eq]=x', 'Invalid key pin', key('pin', 'filters', 'pin'));
    invalid('filters[secret][$eq]=x', 'Invalid key secret', key('secret', 'filters', 'secret'));
    invalid('filters[$or][0][nope]=1', 'Invalid key nope', key('nope', 'filters', null));
    invalid('filters[chef][nope][$eq]=1', 'Invalid key nope at chef', key('nope', 'filters', 'chef'));
    invalid('filters[chef][restaurants][pin][$eq]=1', 'Invalid key pin at chef.restaurants.pin', key('pin', 'filters', 'chef.restaurants.pin'));
    invalid('filters[name][sub][$eq]=1', 'Invalid key sub at name', key('sub', 'filters', 'name'));
    // qs drops `__proto__`; a GraphQL-built AST may still carry it
    rejects(() => planQuery({ sort: [], filters: { kind: 'compare', path: ['__proto__'], op: '$eq', value: '1' } }, context(f)), {
      message: 'Invalid key __proto__', details: key('__proto__', 'filters', null),
    });
    rejects(() => planQuery({ sort: [], populate: { toString: {} } }, context(f)), { message: 'Invalid key toString' });
  });
  it('dynamic zones cannot be filtered', () => {
    invalid('filters[blocks][body][$eq]=x', 'Invalid key blocks', key('blocks', 'filters', null), ARTICLE);
  });
  it('operators on relations, components and media (ours: 400, Strapi 500)', () => {
    invalid('filters[chef][$eq]=1', 'Invalid key $eq at chef', key('$eq', 'filters', 'chef'));
    invalid('filters[chef]=1', 'Invalid key $eq at chef', key('$eq', 'filters', 'chef'));
    invalid('filters[categories][$in][0]=1', 'Invalid key $in at categories', key('$in', 'filters', 'categories'));
    invalid('filters[seo][$null]=true', 'Invalid key $null at seo', key('$null', 'filters', 'seo'));
    invalid('filters[cover][$eq]=1', 'Invalid key $eq at cover', key('$eq', 'filters', 'cover'));
  });
  it('relations to types the caller may not find', () => {
    invalid('filters[supplier][name][$eq]=x', 'Invalid key supplier', key('supplier', 'filters', null));
  });
  it('uncastable values are a 400 ValidationError with {key, path, source, param}', () => {
    const bad = (query: string, k: string, path: string) =>
      rejects(() => plan(f, query), { name: 'ValidationError', status: 400, details: { key: k, path, source: 'query', param: 'filters' } });
    bad('filters[rating][$gt]=abc', 'rating', 'rating');
    bad('filters[rating][$eq]=1.5', 'rating', 'rating');
    bad('filters[rating][$eq]=99999999999', 'rating', 'rating');
    bad('filters[rating][$in][0]=1&filters[rating][$in][1]=x', 'rating', 'rating');
    bad('filters[rating][$between][0]=1&filters[rating][$between][1]=x', 'rating', 'rating');
    bad('filters[visits][$eq]=99999999999999999999', 'visits', 'visits');
    bad('filters[price][$eq]=12,5', 'price', 'price');
    bad('filters[price][$eq]=1e99999', 'price', 'price');
    bad('filters[price][$eq]=NaN', 'price', 'price');
    bad('filters[score][$lt]=1e400', 'score', 'score');
    bad('filters[score][$lt]=Infinity', 'score', 'score');
    bad('filters[open][$eq]=maybe', 'open', 'open');
    bad('filters[openedOn][$eq]=2020-13-45', 'openedOn', 'openedOn');
    bad('filters[openedOn][$eq]=2021-02-29', 'openedOn', 'openedOn');
    bad('filters[openedOn][$eq]=yesterday', 'openedOn', 'openedOn');
    bad('filters[lastVisit][$gt]=yesterday', 'lastVisit', 'lastVisit');
    bad('filters[lastVisit][$gt]=2024-01-01T25:00:00Z', 'lastVisit', 'lastVisit');
    bad('filters[lastVisit][$gt]=99999999999999999', 'lastVisit', 'lastVisit');
    bad('filters[opensAt][$eq]=25:00', 'opensAt', 'opensAt');
    bad('filters[id][$eq]=abc', 'id', 'id');
    bad('filters[createdAt][$lt]=soon', 'createdAt', 'createdAt');
    bad('filters[chef][age][$gt]=x', 'age', 'chef.age');
    bad('filters[chef][mentor][age][$in][0]=1&filters[chef][mentor][age][$in][1]=x', 'age', 'chef.mentor.age');
    rejects(() => planQuery({ sort: [], filters: { kind: 'compare', path: ['rating'], op: '$null', value: 'yes' } }, context(f)), {
      name: 'ValidationError', details: key('rating', 'filters', 'rating'),
    });
    rejects(() => planQuery({ sort: [], filters: { kind: 'compare', path: ['rating'], op: '$gt', value: null } }, context(f)), {
      name: 'ValidationError', details: key('rating', 'filters', 'rating'),
    });
  });
  it('the Strapi message reproduces the value', () => {
    rejects(() => plan(f, 'filters[rating][$gt]=abc'), { message: 'Invalid value "abc" for rating: expected an integer' });
  });
});

describe('errors: sort', () => {
  it('unknown, hidden, non-scalar keys', () => {
    invalid('sort=nope', 'Invalid key nope', key('nope', 'sort', null));
    invalid('sort=pin:desc', 'Invalid key pin', key('pin', 'sort', 'pin'));
    invalid('sort=secret', 'Invalid key secret', key('secret', 'sort', 'secret'));
    invalid('sort=chef', 'Invalid key chef', key('chef', 'sort', null));
    invalid('sort=seo', 'Invalid key seo', key('seo', 'sort', null));
    invalid('sort[chef][nope]=asc', 'Invalid key nope at chef', key('nope', 'sort', 'chef'));
    invalid('sort=cover.url', 'Invalid key cover', key('cover', 'sort', null));
    invalid('sort=name.x', 'Invalid key x at name', key('x', 'sort', 'name'));
    invalid('sort=supplier.name', 'Invalid key supplier', key('supplier', 'sort', null));
    invalid('sort=blocks', 'Invalid key blocks', key('blocks', 'sort', null), ARTICLE);
  });
});

describe('errors: fields', () => {
  it('relations, media, components, zones, unknown and hidden names', () => {
    invalid('fields[0]=chef', 'Invalid key chef', key('chef', 'fields', 'chef'));
    invalid('fields=name,cover', 'Invalid key cover', key('cover', 'fields', 'cover'));
    invalid('fields[0]=seo', 'Invalid key seo', key('seo', 'fields', 'seo'));
    invalid('fields[0]=blocks', 'Invalid key blocks', key('blocks', 'fields', 'blocks'), ARTICLE);
    invalid('fields[0]=nope', 'Invalid key nope', key('nope', 'fields', 'nope'));
    invalid('fields[0]=pin', 'Invalid key pin', key('pin', 'fields', 'pin'));
    invalid('fields[0]=secret', 'Invalid key secret', key('secret', 'fields', 'secret'));
    invalid('fields[0]=locale', 'Invalid key locale', key('locale', 'fields', 'locale'), 'api::chef.chef');
    invalid('populate[chef][fields][0]=nope', 'Invalid key nope at chef.nope', key('nope', 'fields', 'chef.nope'));
  });
});

describe('errors: populate', () => {
  it('unknown, scalar, hidden keys and bad entry keys', () => {
    invalid('populate=nope', 'Invalid key nope', key('nope', 'populate', 'nope'));
    invalid('populate=name', 'Invalid key name', key('name', 'populate', 'name'));
    invalid('populate[pin]=true', 'Invalid key pin', key('pin', 'populate', 'pin'));
    invalid('populate[secret]=true', 'Invalid key secret', key('secret', 'populate', 'secret'));
    invalid('populate[chef][populate][nope]=true', 'Invalid key nope at chef.nope', key('nope', 'populate', 'chef.nope'));
    invalid('populate[seo][count]=true', 'Invalid key count at seo', key('count', 'populate', 'seo'));
    invalid('populate[chef][on][shared.quote]=true', 'Invalid key on at chef', key('on', 'populate', 'chef'));
    invalid('populate[blocks][on][shared.nope]=true', 'Invalid key shared.nope at blocks', key('shared.nope', 'populate', 'blocks'), ARTICLE);
    invalid('populate[blocks][fields][0]=body', 'Invalid key fields at blocks', key('fields', 'populate', 'blocks'), ARTICLE);
    invalid('populate[blocks][populate][nope]=true', 'Invalid key nope at blocks.nope', key('nope', 'populate', 'blocks.nope'), ARTICLE);
    invalid('populate[localizations]=true', 'Invalid key localizations', key('localizations', 'populate', 'localizations'), 'api::chef.chef');
    invalid('populate[categories][filters][nope][$eq]=1', 'Invalid key nope', key('nope', 'filters', null));
    invalid('populate[categories][sort]=nope', 'Invalid key nope', key('nope', 'sort', null));
  });
  it('pagination inside populate and page/offset mixing are refused by the parser', () => {
    rejects(() => plan(f, 'populate[categories][pagination][limit]=1'), { message: 'Invalid key pagination at categories' });
    rejects(() => plan(f, 'pagination[page]=1&pagination[limit]=2'), { name: 'PaginationError', status: 400 });
  });
});
