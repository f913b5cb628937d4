// Locales in populated reads, as Strapi 5.54 answers them: `populate=*` on a localized type lists
// the document's other locales (`[]` only when it has none), in the read's status; and `locale`
// on a type without i18n is ignored for it and for its populated relations — a category's
// restaurants are the rows linked, whatever `locale` says (REST and GraphQL).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { gql, gqlData } from '../helpers/graphql.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const localized = { pluginOptions: { i18n: { localized: true } } };
const noDraft = { options: { draftAndPublish: false } };
const RESTAURANT = 'api::restaurant.restaurant';

const MODEL = {
  contentTypes: {
    [RESTAURANT]: ct('restaurant', 'restaurants', {
      name: { type: 'string', ...localized },
      rating: { type: 'integer' },
      chef: { type: 'relation', relation: 'manyToOne', target: 'api::chef.chef', inversedBy: 'restaurants' },
      categories: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', inversedBy: 'restaurants' },
      guide: { type: 'relation', relation: 'manyToOne', target: 'api::guide.guide', inversedBy: 'restaurants' },
    }, localized),
    'api::chef.chef': ct('chef', 'chefs', {
      name: { type: 'string' },
      restaurants: { type: 'relation', relation: 'oneToMany', target: RESTAURANT, mappedBy: 'chef' },
    }, noDraft),
    'api::category.category': ct('category', 'categories', {
      name: { type: 'string' },
      restaurants: { type: 'relation', relation: 'manyToMany', target: RESTAURANT, mappedBy: 'categories' },
      // One-way, stored on this side: each link names the locale version it points at.
      picks: { type: 'relation', relation: 'manyToMany', target: RESTAURANT },
    }, noDraft),
    'api::guide.guide': {
      ...ct('guide', 'guides', {
        title: { type: 'string' },
        restaurants: { type: 'relation', relation: 'oneToMany', target: RESTAURANT, mappedBy: 'guide' },
      }, noDraft),
      kind: 'singleType',
    },
  },
  components: {},
};

type Doc = Record<string, unknown>;

/** Deep equality and the same key order (the body as Strapi prints it). */
const assertBody = (actual: unknown, expected: unknown, message?: string) => {
  assert.deepEqual(actual, expected, message);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), message ?? 'key order');
};

describe('locales in populated reads', () => {
  let t: TestApp;
  let p: ContentProject;
  const ids: Record<string, string> = {};
  /** Each row as a plain read prints it (all scalars), by name. */
  const rows: Record<string, Doc> = {};

  const ok = async (res: { statusCode: number; body: string }, status = 200) => {
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body).data as Doc;
  };
  const get = async (url: string) => ok(await p.api.get(url));
  const post = async (url: string, data: unknown) => ok(await p.api.post(url, { data }), 201);
  const put = async (url: string, data: unknown) => ok(await p.api.put(url, { data }));
  /** The restaurant rows named, as a list prints them with `fields=name,locale`. */
  const named = (...names: string[]) => names.map((n) => ({ id: rows[n]!.id, documentId: rows[n]!.documentId, name: rows[n]!.name, locale: rows[n]!.locale }));
  /** `name` and `locale` of the rows populated at `path`. */
  const nameAndLocale = (path: string) => `populate${path}[fields][0]=name&populate${path}[fields][1]=locale`;

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL, ['fr', 'de']);
    ids.ann = String((await post('/api/chefs', { name: 'Ann' })).documentId);
    ids.bob = String((await post('/api/chefs', { name: 'Bob' })).documentId);
    ids.cat = String((await post('/api/categories', { name: 'Italian' })).documentId);
    ids.guide = String((await put('/api/guide', { title: 'Best of' })).documentId);
    ids.pasta = String((await post('/api/restaurants', { name: 'Pasta', rating: 5, chef: ids.ann, categories: [ids.cat] })).documentId);
    // Created fr before de: the answers list them in locale order, not creation order.
    await put(`/api/restaurants/${ids.pasta}?locale=fr`, { name: 'Pâtes', chef: ids.ann, categories: [ids.cat] });
    await put(`/api/restaurants/${ids.pasta}?locale=de`, { name: 'Nudeln', chef: ids.ann, categories: [] });
    ids.solo = String((await post('/api/restaurants', { name: 'Solo', rating: 2, chef: ids.bob })).documentId);
    // The guide links the en and fr versions of Pasta (through the restaurants' own side).
    await put(`/api/restaurants/${ids.pasta}`, { guide: ids.guide });
    await put(`/api/restaurants/${ids.pasta}?locale=fr`, { guide: ids.guide });
    // The category picks the en and fr versions of Pasta (on its own side, one link per version).
    await put(`/api/categories/${ids.cat}`, { picks: { connect: [{ documentId: ids.pasta, locale: 'en' }, { documentId: ids.pasta, locale: 'fr' }] } });
    // fr gets a draft that differs from its published version.
    await put(`/api/restaurants/${ids.pasta}?locale=fr&status=draft`, { name: 'Pâtes (brouillon)' });

    for (const locale of ['en', 'fr', 'de']) {
      rows[`pasta-${locale}`] = await get(`/api/restaurants/${ids.pasta}?locale=${locale}`);
      rows[`pasta-${locale}-draft`] = await get(`/api/restaurants/${ids.pasta}?locale=${locale}&status=draft`);
    }
    rows.solo = await get(`/api/restaurants/${ids.solo}`);
    rows.ann = await get(`/api/chefs/${ids.ann}`);
    rows.bob = await get(`/api/chefs/${ids.bob}`);
    rows.cat = await get(`/api/categories/${ids.cat}`);
    rows.guide = await get('/api/guide');
  });
  after(async () => t?.close());

  describe('populate=* on a localized type', () => {
    it('lists the other locales with their scalars, in locale order', async () => {
      assert.deepEqual(['en', 'fr', 'de'].map((l) => rows[`pasta-${l}`]!.name), ['Pasta', 'Pâtes', 'Nudeln']);
      const res = await p.api.get(`/api/restaurants/${ids.pasta}?populate=*`);
      assertBody(res.json(), {
        data: { ...rows['pasta-en'], chef: rows.ann, categories: [rows.cat], guide: rows.guide, localizations: [rows['pasta-de'], rows['pasta-fr']] },
        meta: {},
      });
      const fr = await get(`/api/restaurants/${ids.pasta}?locale=fr&populate=*`);
      assertBody(fr, { ...rows['pasta-fr'], chef: rows.ann, categories: [rows.cat], guide: rows.guide, localizations: [rows['pasta-de'], rows['pasta-en']] });
    });

    it('answers what populate[localizations]=true answers, on lists too', async () => {
      for (const query of ['', '&locale=fr', '&status=draft', '&locale=de&status=draft']) {
        const star = await get(`/api/restaurants/${ids.pasta}?fields[0]=name${query}&populate=*`);
        const explicit = await get(`/api/restaurants/${ids.pasta}?fields[0]=name${query}&populate[localizations]=true`);
        assertBody(star.localizations, explicit.localizations, query);
      }
      const list = await p.api.get('/api/restaurants?fields[0]=name&populate=*&sort=name');
      assert.equal(list.statusCode, 200, list.body);
      assertBody(list.json().data.map((d: Doc) => [d.name, d.localizations]), [['Pasta', [rows['pasta-de'], rows['pasta-fr']]], ['Solo', []]]);
    });

    it('[] for a document without other locales', async () => {
      assertBody((await p.api.get(`/api/restaurants/${ids.solo}?populate=*`)).json(), {
        data: { ...rows.solo, chef: rows.bob, categories: [], guide: null, localizations: [] },
        meta: {},
      });
    });

    it('other locales in the status read: drafts for status=draft, published rows otherwise', async () => {
      assert.equal(rows['pasta-fr-draft']!.name, 'Pâtes (brouillon)');
      assert.equal(rows['pasta-fr-draft']!.publishedAt, null);
      const draft = await get(`/api/restaurants/${ids.pasta}?status=draft&fields[0]=name&populate=*`);
      assertBody(draft.localizations, [rows['pasta-de-draft'], rows['pasta-fr-draft']]);
      const published = await get(`/api/restaurants/${ids.pasta}?status=published&fields[0]=name&populate=*`);
      assertBody(published.localizations, [rows['pasta-de'], rows['pasta-fr']]);
      const frDraft = await get(`/api/restaurants/${ids.pasta}?locale=fr&status=draft&fields[0]=name&populate=*`);
      assertBody(frDraft, {
        id: rows['pasta-fr-draft']!.id, documentId: ids.pasta, name: 'Pâtes (brouillon)',
        chef: rows.ann, categories: [rows.cat], guide: rows.guide, localizations: [rows['pasta-de-draft'], rows['pasta-en-draft']],
      });
    });
  });

  describe('locale on a type without i18n', () => {
    const LINKED = () => named('pasta-en', 'pasta-fr');

    it('find: populated restaurants are the rows linked, whatever locale says', async () => {
      for (const locale of ['', '&locale=fr', '&locale=en', '&locale=de', '&locale=*']) {
        const res = await p.api.get(`/api/categories?fields[0]=name${locale}&${nameAndLocale('[restaurants]')}`);
        assert.equal(res.statusCode, 200, res.body);
        assertBody(res.json().data, [{ id: rows.cat!.id, documentId: ids.cat, name: 'Italian', restaurants: LINKED() }], locale);
      }
    });

    it('findOne and populate=*: both sides of the relation list every linked locale row', async () => {
      for (const locale of ['', '&locale=fr']) {
        const res = await p.api.get(`/api/categories/${ids.cat}?populate=*${locale}`);
        assertBody(res.json(), {
          data: { ...rows.cat, restaurants: [rows['pasta-en'], rows['pasta-fr']], picks: [rows['pasta-en'], rows['pasta-fr']] },
          meta: {},
        }, locale);
      }
      const chefs = await p.api.get(`/api/chefs?locale=fr&sort=name&fields[0]=name&${nameAndLocale('[restaurants]')}`);
      assertBody(chefs.json().data, [
        { id: rows.ann!.id, documentId: ids.ann, name: 'Ann', restaurants: named('pasta-en', 'pasta-fr', 'pasta-de') },
        { id: rows.bob!.id, documentId: ids.bob, name: 'Bob', restaurants: named('solo') },
      ]);
    });

    it('single types: the same', async () => {
      const res = await p.api.get(`/api/guide?locale=fr&fields[0]=title&${nameAndLocale('[restaurants]')}`);
      assertBody(res.json(), { data: { id: rows.guide!.id, documentId: ids.guide, title: 'Best of', restaurants: LINKED() }, meta: {} });
    });

    it('below a localized root, the root locale picks its own row only', async () => {
      const fr = await get(`/api/restaurants/${ids.pasta}?locale=fr&fields[0]=name&populate[chef][fields][0]=name&${nameAndLocale('[chef][populate][restaurants]')}`);
      assertBody(fr, {
        id: rows['pasta-fr']!.id, documentId: ids.pasta, name: 'Pâtes',
        chef: { id: rows.ann!.id, documentId: ids.ann, name: 'Ann', restaurants: named('pasta-en', 'pasta-fr', 'pasta-de') },
      });
    });

    it('deep filters through the relation match any linked locale row', async () => {
      for (const locale of ['', '&locale=fr', '&locale=en']) {
        const res = await p.api.get(`/api/categories?fields[0]=name&filters[restaurants][name][$eq]=${encodeURIComponent('Pâtes')}${locale}`);
        assertBody(res.json().data, [{ id: rows.cat!.id, documentId: ids.cat, name: 'Italian' }], locale);
      }
    });

    it('GraphQL: no locale argument on the type; nested relations list every linked row', async () => {
      const refused = await gql(p.api, '{ categories(locale: "fr") { name } }');
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.errors[0].message, 'Unknown argument "locale" on field "Query.categories".');
      const linked = [{ name: 'Pasta', locale: 'en' }, { name: 'Pâtes', locale: 'fr' }];
      assert.deepEqual(await gqlData(p.api, '{ categories { name restaurants { name locale } picks { name locale } } }'),
        { categories: [{ name: 'Italian', restaurants: linked, picks: linked }] });
      assert.deepEqual(await gqlData(p.api, `query ($id: ID!) { category(documentId: $id) { restaurants { name locale } } guide { restaurants { name locale } } }`, { id: ids.cat }),
        { category: { restaurants: linked }, guide: { restaurants: linked } });
      // A localized root's locale argument is not inherited by the chef's restaurants.
      assert.deepEqual(await gqlData(p.api, `query ($id: ID!) { restaurant(documentId: $id, locale: "fr") { name chef { name restaurants { name locale } } } }`, { id: ids.pasta }),
        { restaurant: { name: 'Pâtes', chef: { name: 'Ann', restaurants: [...linked, { name: 'Nudeln', locale: 'de' }] } } });
    });
  });
});
