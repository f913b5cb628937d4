// The reference fixture model (restaurant / chef / category / article …, shared with the query
// tests) plus `api::spec.spec` and `shared.limited`, which carry every validation option a write
// body is checked against.
import { parseModel, type Model } from '@cms/schema';
import { RAW_MODEL as REFERENCE_MODEL } from '../../../query/test/helpers/model.ts';

export { RESTAURANT, CHEF, CATEGORY, SUPPLIER, ARTICLE, HOMEPAGE } from '../../../query/test/helpers/model.ts';

const ct = (singular: string, attributes: Record<string, unknown>) => ({
  kind: 'collectionType',
  info: { singularName: singular, pluralName: `${singular}s`, displayName: singular },
  attributes,
});
const cmp = (attributes: Record<string, unknown>) => ({ info: { displayName: 'c' }, attributes });

export const RAW_MODEL = {
  contentTypes: {
    ...REFERENCE_MODEL.contentTypes,
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
    ...REFERENCE_MODEL.components,
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

export const SPEC = 'api::spec.spec';
