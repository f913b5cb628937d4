// The fixture model of the content-API reference (restaurant / chef / category / article …) as
// Strapi schema.json files, normalised by @cms/schema's parseModel — plus `api::spec.spec` and
// `shared.limited`, which carry every validation option a write body is checked against.
import { parseModel, type Model } from '@cms/schema';

const ct = (singular: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: singular, pluralName: `${singular}s`, displayName: singular },
  attributes,
  ...extra,
});
const dp = { options: { draftAndPublish: true } };
const i18n = { pluginOptions: { i18n: { localized: true } } };
const cmp = (attributes: Record<string, unknown>) => ({ info: { displayName: 'c' }, attributes });

export const RAW_MODEL = {
  contentTypes: {
    'api::restaurant.restaurant': ct('restaurant', {
      name: { type: 'string', required: true },
      description: { type: 'blocks' },
      rating: { type: 'integer' },
      price: { type: 'decimal' },
      open: { type: 'boolean' },
      openedOn: { type: 'date' },
      email: { type: 'email' },
      kind: { type: 'enumeration', enum: ['bistro', 'brasserie', 'cafe'] },
      tags: { type: 'json' },
      opensAt: { type: 'time' },
      visits: { type: 'biginteger' },
      score: { type: 'float' },
      lastVisit: { type: 'datetime' },
      pin: { type: 'password' },
      secret: { type: 'string', private: true },
      chef: { type: 'relation', relation: 'manyToOne', target: 'api::chef.chef', inversedBy: 'restaurants' },
      categories: { type: 'relation', relation: 'manyToMany', target: 'api::category.category', inversedBy: 'restaurants' },
      supplier: { type: 'relation', relation: 'manyToOne', target: 'api::supplier.supplier' },
      cover: { type: 'media', multiple: false },
      gallery: { type: 'media', multiple: true },
      seo: { type: 'component', component: 'shared.seo' },
    }, { ...dp, ...i18n }),
    'api::chef.chef': ct('chef', {
      name: { type: 'string' },
      age: { type: 'integer' },
      restaurants: { type: 'relation', relation: 'oneToMany', target: 'api::restaurant.restaurant', mappedBy: 'chef' },
      mentor: { type: 'relation', relation: 'manyToOne', target: 'api::chef.chef' },
      favorite: { type: 'relation', relation: 'manyToOne', target: 'api::restaurant.restaurant' },
    }),
    'api::category.category': ct('category', {
      name: { type: 'string', unique: true },
      slug: { type: 'uid', targetField: 'name' },
      restaurants: { type: 'relation', relation: 'manyToMany', target: 'api::restaurant.restaurant', mappedBy: 'categories' },
    }, { info: { singularName: 'category', pluralName: 'categories', displayName: 'category' } }),
    'api::supplier.supplier': ct('supplier', { name: { type: 'string' } }),
    'api::article.article': ct('article', {
      title: { type: 'string' },
      views: { type: 'biginteger' },
      score: { type: 'float' },
      publishedOn: { type: 'datetime' },
      blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.rich-text', 'shared.seo'] },
      sections: { type: 'component', component: 'shared.quote', repeatable: true },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::chef.chef' },
    }, { ...dp, ...i18n }),
    'api::homepage.homepage': { ...ct('homepage', { title: { type: 'string' } }), kind: 'singleType' },
    'api::spec.spec': ct('spec', {
      name: { type: 'string', required: true, minLength: 3, maxLength: 10 },
      code: { type: 'string', regex: '^[A-Z]+$' },
      slug: { type: 'uid' },
      handle: { type: 'uid', regex: '^[a-z]+$', targetField: 'name' },
      rating: { type: 'integer', min: 1, max: 5 },
      count: { type: 'integer', default: 7 },
      big: { type: 'biginteger', min: '10', max: '9000000000000000' },
      ratio: { type: 'float', min: 0, max: 1 },
      amount: { type: 'decimal', min: 0, max: 1000 },
      flag: { type: 'boolean', default: true },
      day: { type: 'date' },
      at: { type: 'time', default: '10:30' },
      stamp: { type: 'datetime' },
      mood: { type: 'enumeration', enum: ['happy', 'sad'], required: true },
      meta: { type: 'json' },
      body: { type: 'blocks' },
      contact: { type: 'email', unique: true },
      secret: { type: 'password', minLength: 6, private: true },
      info: { type: 'text', maxLength: 5 },
      rich: { type: 'richtext' },
      label: { type: 'string', default: 'none' },
      seo: { type: 'component', component: 'shared.seo', required: true },
      limited: { type: 'component', component: 'shared.limited' },
      quotes: { type: 'component', component: 'shared.quote', repeatable: true, min: 1, max: 2 },
      zone: { type: 'dynamiczone', components: ['shared.quote', 'shared.limited'], min: 1, max: 2, required: true },
      owner: { type: 'relation', relation: 'oneToOne', target: 'api::chef.chef' },
      friends: { type: 'relation', relation: 'oneToMany', target: 'api::chef.chef' },
    }),
  },
  components: {
    'shared.seo': cmp({
      metaTitle: { type: 'string' },
      metaDescription: { type: 'text' },
      social: { type: 'component', component: 'shared.social' },
      featuredChef: { type: 'relation', relation: 'manyToOne', target: 'api::chef.chef' },
      image: { type: 'media', multiple: false },
    }),
    'shared.social': cmp({ network: { type: 'string' }, handle: { type: 'string' } }),
    'shared.quote': cmp({ body: { type: 'text' }, author: { type: 'string' } }),
    'shared.rich-text': cmp({ body: { type: 'richtext' } }),
    'shared.limited': cmp({
      title: { type: 'string', required: true, maxLength: 5 },
      count: { type: 'integer', default: 3 },
      quote: { type: 'component', component: 'shared.quote' },
    }),
  },
};

export function fixtureModel(): Model {
  return parseModel(structuredClone(RAW_MODEL));
}

export const RESTAURANT = 'api::restaurant.restaurant';
export const CHEF = 'api::chef.chef';
export const CATEGORY = 'api::category.category';
export const SUPPLIER = 'api::supplier.supplier';
export const ARTICLE = 'api::article.article';
export const HOMEPAGE = 'api::homepage.homepage';
export const SPEC = 'api::spec.spec';
