// Populate: every form, exact JSON, status/locale rules of populated rows and
// relations the caller may not find.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UPLOAD_FILE_UID } from '../src/index.ts';
import { ARTICLE, CHEF, SUPPLIER } from './helpers/model.ts';
import { assertJson, createFixture, findOne, list, T_CREATED, T_PUBLISHED, T_UPDATED, type Fixture } from './helpers/fixture.ts';

let f: Fixture;
before(async () => {
  f = await createFixture('query_populate');
});
after(async () => {
  await f.db.drop();
});

const TIMES = { createdAt: T_CREATED, updatedAt: T_UPDATED, publishedAt: T_PUBLISHED };
const ALICE = { id: 1, documentId: 'chefa', name: 'Alice', age: 40, ...TIMES };
const BOB = { id: 2, documentId: 'chefb', name: 'Bob', age: 35, ...TIMES };
const ORGANIC = { id: 3, documentId: 'cat3', name: '100% Organic_Food\\', slug: 'organic', ...TIMES };
const ITALIAN = { id: 1, documentId: 'cat1', name: 'Italian', slug: 'italian', ...TIMES };
/** Every scalar of a published Pasta Place version, in output order. */
const pastaRow = (id: number, name: string, locale: string) => ({
  id, documentId: 'resta', name, description: [{ type: 'paragraph', children: [{ text: 'Hello', type: 'text' }] }], rating: 5, price: 12.5, open: true,
  openedOn: '2020-05-17', email: 'pasta@example.com', kind: 'bistro', tags: { a: [1, 2] }, opensAt: '10:30:00.000', visits: '9007199254740993', score: 4.5,
  lastVisit: '2024-02-03T04:05:06.789Z', ...TIMES, locale,
});
const PASTA_EN = pastaRow(10, 'Pasta Place', 'en');
const PASTA_FR = pastaRow(12, 'Lieu des Pâtes', 'fr');
const PHOTO = {
  id: 1, documentId: 'filea', name: 'photo.png', alternativeText: 'alt', caption: 'cap', focalPoint: null, width: 1200, height: 800,
  formats: { thumbnail: { url: '/uploads/thumbnail_photo_abc.png' } }, hash: 'photo_abc', ext: '.png', mime: 'image/png', size: 89.9,
  url: '/uploads/photo_abc.png', previewUrl: null, provider: 'local', provider_metadata: null, ...TIMES,
};
const MENU = {
  id: 2, documentId: 'fileb', name: 'menu.pdf', alternativeText: null, caption: null, focalPoint: null, width: null, height: null,
  formats: null, hash: 'menu_def', ext: '.pdf', mime: 'application/pdf', size: 12.5, url: '/uploads/menu_def.pdf', previewUrl: null,
  provider: 'local', provider_metadata: null, ...TIMES,
};

/** The populated keys of restaurant `resta` (published, en) for a populate query. */
async function pasta(query: string, options = {}) {
  const doc = await findOne(f, 'resta', `fields[0]=name&${query}`, options);
  const { id, documentId, name, ...rest } = doc;
  assert.deepEqual({ id, documentId, name }, { id: 10, documentId: 'resta', name: 'Pasta Place' });
  return rest;
}

describe('populate: nothing by default, * one level', () => {
  it('populates nothing by default', async () => {
    assert.deepEqual(await pasta(''), {});
  });
  it('* gives every relation, media, component and zone one level deep, and the other locales with their scalars', async () => {
    assertJson(await pasta('populate=*'), {
      chef: ALICE,
      categories: [ORGANIC, ITALIAN],
      cover: PHOTO,
      gallery: [MENU, PHOTO],
      seo: { id: 100, metaTitle: 'T', metaDescription: 'D' },
      localizations: [PASTA_FR],
    });
    // The same as populate[localizations]=true: the versions other than the one read, in its status.
    const fr = async (query: string) => (await findOne(f, 'resta', `fields[0]=name&${query}`, { locale: 'fr' })).localizations;
    assertJson(await fr('populate=*'), [PASTA_EN]);
    assertJson(await fr('populate=*'), await fr('populate[localizations]=true'));
    const draft = await findOne(f, 'resta', 'fields[0]=name&populate=*', { status: 'draft' });
    assertJson(draft.localizations.map((l: any) => [l.id, l.locale, l.publishedAt]), [[13, 'fr', null]]);
  });
  it('* on a row without related data gives null / []', async () => {
    const doc = await findOne(f, 'reste', 'fields[0]=name&populate=*');
    assertJson(doc, { id: 50, documentId: 'reste', name: 'Zed', chef: null, categories: [ITALIAN], cover: null, gallery: [], seo: null, localizations: [] });
  });
  it('* on a dynamic zone and repeatable component type', async () => {
    const doc = await findOne(f, 'arta', 'populate=*', { uid: ARTICLE });
    assertJson(doc, {
      id: 60, documentId: 'arta', title: 'Hello', views: '12', score: 1.5, publishedOn: '2024-01-01T00:00:00.000Z', ...TIMES, locale: 'en',
      blocks: [
        { id: 300, body: 'Q', author: 'A', __component: 'shared.quote' },
        { id: 400, body: 'RT', __component: 'shared.rich-text' },
        { id: 301, body: 'Q2', author: null, __component: 'shared.quote' },
        { id: 102, metaTitle: 'DZ seo', metaDescription: null, __component: 'shared.seo' },
      ],
      sections: [{ id: 303, body: 's1', author: 'me' }, { id: 302, body: 's2', author: null }],
      author: BOB,
      localizations: [],
    });
  });
});

describe('populate: lists and objects', () => {
  it('comma list, indexed list, true, component *', async () => {
    assertJson(await pasta('populate=chef,seo'), { chef: ALICE, seo: { id: 100, metaTitle: 'T', metaDescription: 'D' } });
    assertJson(await pasta('populate[0]=categories&populate[1]=chef'), { chef: ALICE, categories: [ORGANIC, ITALIAN] });
    assertJson(await pasta('populate[chef]=true'), { chef: ALICE });
    assertJson(await pasta('populate[seo]=*'), {
      seo: {
        id: 100, metaTitle: 'T', metaDescription: 'D', social: { id: 200, network: 'x', handle: '@pasta' }, featuredChef: BOB, image: PHOTO,
      },
    });
  });
  it('fields, filters and sort inside an entry', async () => {
    assertJson(await pasta('populate[chef][fields][0]=name'), { chef: { id: 1, documentId: 'chefa', name: 'Alice' } });
    assertJson(await pasta('populate[categories][filters][name][$eq]=Italian'), { categories: [ITALIAN] });
    assertJson(await pasta('populate[categories][filters][name][$eq]=none'), { categories: [] });
    assertJson(await pasta('populate[categories][sort]=name:desc&populate[categories][fields]=name'), {
      categories: [{ id: 1, documentId: 'cat1', name: 'Italian' }, { id: 3, documentId: 'cat3', name: '100% Organic_Food\\' }],
    });
    assertJson(await pasta('populate[chef][filters][name][$eq]=Bob'), { chef: null });
    assertJson(await pasta('populate[categories][filters][restaurants][name][$eq]=Zed&populate[categories][fields][0]=name'), {
      categories: [{ id: 1, documentId: 'cat1', name: 'Italian' }],
    });
    assertJson(await pasta('populate[categories][filters][$or][0][name][$startsWith]=1&populate[categories][filters][$or][1][slug][$eq]=italian&populate[categories][fields][0]=slug'), {
      categories: [{ id: 3, documentId: 'cat3', slug: 'organic' }, { id: 1, documentId: 'cat1', slug: 'italian' }],
    });
  });
  it('nested populate at any depth and populate[rel][populate]=*', async () => {
    assertJson(await pasta('populate[chef][populate][restaurants][fields][0]=name&populate[chef][fields][0]=name'), {
      chef: { id: 1, documentId: 'chefa', name: 'Alice', restaurants: [{ id: 10, documentId: 'resta', name: 'Pasta Place' }, { id: 12, documentId: 'resta', name: 'Lieu des Pâtes' }] },
    });
    assertJson(await pasta('populate[chef][populate]=*&populate[chef][fields][0]=name'), {
      chef: {
        id: 1, documentId: 'chefa', name: 'Alice',
        restaurants: [PASTA_EN, PASTA_FR],
        mentor: null,
        favorite: null,
      },
    });
    // chef=* is ours: the same as chef[populate]=* (Strapi answers 400)
    assertJson(await pasta('populate[chef]=*'), await pasta('populate[chef][populate]=*'));
    const doc = await findOne(f, 'chefb', 'fields[0]=name&populate[mentor][fields][0]=name&populate[mentor][populate][restaurants][fields][0]=name&populate[mentor][populate][restaurants][populate][categories][fields][0]=name', { uid: CHEF });
    assertJson(doc, {
      id: 2, documentId: 'chefb', name: 'Bob',
      mentor: {
        id: 1, documentId: 'chefa', name: 'Alice',
        restaurants: [{
          id: 10, documentId: 'resta', name: 'Pasta Place',
          categories: [{ id: 3, documentId: 'cat3', name: '100% Organic_Food\\' }, { id: 1, documentId: 'cat1', name: 'Italian' }],
        }, {
          id: 12, documentId: 'resta', name: 'Lieu des Pâtes', categories: [{ id: 1, documentId: 'cat1', name: 'Italian' }],
        }],
      },
    });
    assertJson((await findOne(f, 'chefb', 'fields[0]=name&populate=mentor.restaurants', { uid: CHEF })).mentor.restaurants.map((r: any) => r.id), [10, 12]);
  });
  it('count: true gives {count: n}', async () => {
    const { data } = await list(f, 'fields[0]=name&populate[restaurants][count]=true', { uid: CHEF });
    assertJson(data, [
      { id: 1, documentId: 'chefa', name: 'Alice', restaurants: { count: 2 } },
      { id: 2, documentId: 'chefb', name: 'Bob', restaurants: { count: 1 } },
      { id: 3, documentId: 'chefc', name: 'Carol', restaurants: { count: 1 } },
    ]);
    const drafts = await list(f, 'fields[0]=name&populate[restaurants][count]=true', { uid: CHEF, status: 'draft' });
    assert.deepEqual(drafts.data.map((c: any) => c.restaurants), [{ count: 3 }, { count: 1 }, { count: 1 }]);
    assertJson(await pasta('populate[categories][count]=true'), { categories: { count: 2 } });
    assertJson(await pasta('populate[categories][count]=true&populate[categories][filters][name][$eq]=Italian'), { categories: { count: 1 } });
    assertJson(await pasta('populate[gallery][count]=true'), { gallery: { count: 2 } });
  });
  it('to-many order: stored link order by default (inverse sides too), sort overrides', async () => {
    const { data } = await list(f, 'fields[0]=name&populate[restaurants][fields][0]=name', { uid: CHEF, status: 'draft' });
    assertJson(data[0].restaurants, [
      { id: 11, documentId: 'resta', name: 'Pasta Place (draft)' }, { id: 13, documentId: 'resta', name: 'Lieu des Pâtes' }, { id: 30, documentId: 'restc', name: 'Draft Diner' },
    ]);
    const sorted = await list(f, 'populate[restaurants][fields][0]=name&populate[restaurants][sort]=name:asc', { uid: CHEF, status: 'draft' });
    assert.deepEqual(sorted.data[0].restaurants.map((r: any) => r.id), [30, 13, 11]);
  });
});

describe('populate: media and components', () => {
  it('single media → object or null, multiple → array ([] when empty), fields', async () => {
    assertJson(await pasta('populate[cover][fields][0]=url&populate[gallery][fields][0]=name'), {
      cover: { id: 1, documentId: 'filea', url: '/uploads/photo_abc.png' },
      gallery: [{ id: 2, documentId: 'fileb', name: 'menu.pdf' }, { id: 1, documentId: 'filea', name: 'photo.png' }],
    });
    const bob = await findOne(f, 'restb', 'fields[0]=name&populate[cover]=true&populate[gallery]=true');
    assertJson(bob, { id: 20, documentId: 'restb', name: 'Bistro Bob', cover: null, gallery: [] });
  });
  it('components: single object/null with fields, repeatable ordered by ord, nested parts when populated', async () => {
    assertJson(await pasta('populate[seo][fields][0]=metaTitle'), { seo: { id: 100, metaTitle: 'T' } });
    assertJson(await pasta('populate[seo][populate][social][fields][0]=network&populate[seo][populate][featuredChef][fields][0]=name&populate[seo][fields][0]=metaTitle'), {
      seo: { id: 100, metaTitle: 'T', social: { id: 200, network: 'x' }, featuredChef: { id: 2, documentId: 'chefb', name: 'Bob' } },
    });
    const draft = await findOne(f, 'resta', 'fields[0]=name&populate[seo][populate]=*', { status: 'draft' });
    assertJson(draft.seo, { id: 101, metaTitle: 'T draft', metaDescription: 'D', social: null, featuredChef: null, image: null });
    const article = await findOne(f, 'arta', 'fields[0]=title&populate[sections][fields][0]=body', { uid: ARTICLE });
    assertJson(article, { id: 60, documentId: 'arta', title: 'Hello', sections: [{ id: 303, body: 's1' }, { id: 302, body: 's2' }] });
    const sorted = await findOne(f, 'arta', 'fields[0]=title&populate[sections][sort]=body:desc&populate[sections][filters][body][$startsWith]=s', { uid: ARTICLE });
    assert.deepEqual(sorted.sections.map((s: any) => s.id), [302, 303]);
  });
  it('dynamic zones: `on` keeps only the named components; shared populate applies to each', async () => {
    const on = await findOne(f, 'arta', 'fields[0]=title&populate[blocks][on][shared.quote][fields][0]=body', { uid: ARTICLE });
    assertJson(on.blocks, [{ id: 300, body: 'Q', __component: 'shared.quote' }, { id: 301, body: 'Q2', __component: 'shared.quote' }]);
    const two = await findOne(f, 'arta', 'populate[blocks][on][shared.rich-text]=true&populate[blocks][on][shared.seo][populate][social]=true&populate[blocks][on][shared.seo][fields][0]=metaTitle', { uid: ARTICLE });
    assertJson(two.blocks, [
      { id: 400, body: 'RT', __component: 'shared.rich-text' },
      { id: 102, metaTitle: 'DZ seo', social: null, __component: 'shared.seo' },
    ]);
    const shared = await findOne(f, 'arta', 'populate[blocks][populate]=*', { uid: ARTICLE });
    assertJson(shared.blocks[3], { id: 102, metaTitle: 'DZ seo', metaDescription: null, social: null, featuredChef: null, image: null, __component: 'shared.seo' });
    const draft = await findOne(f, 'arta', 'fields[0]=title&populate[blocks]=true', { uid: ARTICLE, status: 'draft' });
    assertJson(draft, { id: 61, documentId: 'arta', title: 'Hello draft', blocks: [{ id: 310, body: 'Qd', author: null, __component: 'shared.quote' }] });
  });
});

describe('populate: status, locale, localizations, permissions', () => {
  it('a published parent shows only published versions of D&P targets; a draft parent shows drafts', async () => {
    const pub = await list(f, 'fields[0]=name&populate[favorite][fields][0]=name', { uid: CHEF });
    assert.deepEqual(pub.data.map((c: any) => c.favorite), [null, { id: 10, documentId: 'resta', name: 'Pasta Place' }, null]);
    const draft = await list(f, 'fields[0]=name&populate[favorite][fields][0]=name', { uid: CHEF, status: 'draft' });
    assert.deepEqual(draft.data.map((c: any) => c.favorite), [
      { id: 30, documentId: 'restc', name: 'Draft Diner' }, { id: 11, documentId: 'resta', name: 'Pasta Place (draft)' }, null,
    ]);
  });
  it('a non-localized parent lists the localized rows linked to it, whatever the request locale', async () => {
    const linked = [{ id: 10, documentId: 'resta', name: 'Pasta Place' }, { id: 12, documentId: 'resta', name: 'Lieu des Pâtes' }];
    for (const locale of [undefined, 'en', 'fr', '*']) {
      const chefs = await list(f, 'fields[0]=name&populate[restaurants][fields][0]=name', { uid: CHEF, ...(locale ? { locale } : {}) });
      assertJson(chefs.data[0].restaurants, linked, locale);
    }
    // Below a localized root too: the root's locale picks its own row only.
    const frRoot = await findOne(f, 'resta', 'fields[0]=name&populate[chef][populate][restaurants][fields][0]=locale&populate[chef][fields][0]=name', { locale: 'fr' });
    assertJson(frRoot.chef, { id: 1, documentId: 'chefa', name: 'Alice', restaurants: [{ id: 10, documentId: 'resta', locale: 'en' }, { id: 12, documentId: 'resta', locale: 'fr' }] });
  });
  it('localizations: the other locale versions in the same status', async () => {
    assertJson(await pasta('populate[localizations][fields][0]=locale&populate[localizations][fields][1]=name'), {
      localizations: [{ id: 12, documentId: 'resta', name: 'Lieu des Pâtes', locale: 'fr' }],
    });
    const draft = await findOne(f, 'resta', 'fields[0]=name&populate[localizations][fields][0]=locale', { status: 'draft' });
    assertJson(draft.localizations, [{ id: 13, documentId: 'resta', locale: 'fr' }]);
    const none = await findOne(f, 'restb', 'fields[0]=name&populate[localizations]=true');
    assertJson(none.localizations, []);
    assertJson(await pasta('populate[localizations][count]=true'), { localizations: { count: 1 } });
  });
  it('relations whose target may not be found are silently left out', async () => {
    assertJson(await pasta('populate[supplier]=true&populate[chef][fields][0]=name'), { chef: { id: 1, documentId: 'chefa', name: 'Alice' } });
    assertJson(await pasta('populate[supplier]=true', { canFind: () => true }), { supplier: { id: 1, documentId: 'supa', name: 'Acme', ...TIMES } });
    const star = await pasta('populate=*', { canFind: (uid: string) => uid !== SUPPLIER && uid !== CHEF && uid !== UPLOAD_FILE_UID });
    assert.deepEqual(Object.keys(star), ['categories', 'seo', 'localizations']);
    assertJson(await pasta('populate[cover]=true', { canFind: (uid: string) => uid !== UPLOAD_FILE_UID }), {});
  });
});
