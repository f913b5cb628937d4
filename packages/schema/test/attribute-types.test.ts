import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModel } from '../src/index.ts';
import { component, contentType, parsedAttribute, thing } from './fixtures.ts';

const base = { required: false, private: false, localized: false };

test('string-like types take length bounds, regex, unique and a string default', () => {
  for (const type of ['string', 'text', 'richtext', 'email', 'password']) {
    const def = { type, required: true, unique: true, private: true, configurable: false, minLength: 2, maxLength: 20, regex: '^[a-z@.]+$', default: 'ab' };
    assert.deepEqual(parsedAttribute(def), {
      ...base, name: 'field', kind: 'scalar', type, required: true, private: true, unique: true,
      minLength: 2, maxLength: 20, regex: '^[a-z@.]+$', default: 'ab',
    });
  }
});

test('uid takes targetField naming a string or text attribute', () => {
  for (const sourceType of ['string', 'text']) {
    const model = parseModel(thing({ title: { type: sourceType }, slug: { type: 'uid', targetField: 'title', required: true, options: { separator: '_' } } }));
    const { raw, ...slug } = model.contentTypes['api::thing.thing']!.attributes.slug!;
    assert.deepEqual(slug, { ...base, name: 'slug', kind: 'scalar', type: 'uid', required: true, unique: false, targetField: 'title' });
    assert.deepEqual(raw, { type: 'uid', targetField: 'title', required: true, options: { separator: '_' } });
  }
});

test('blocks and json', () => {
  assert.deepEqual(parsedAttribute({ type: 'blocks' }), { ...base, name: 'field', kind: 'scalar', type: 'blocks', unique: false });
  assert.deepEqual(parsedAttribute({ type: 'blocks', default: [] }), { ...base, name: 'field', kind: 'scalar', type: 'blocks', unique: false, default: [] });
  assert.deepEqual(parsedAttribute({ type: 'json', default: { a: [1, null] } }), { ...base, name: 'field', kind: 'scalar', type: 'json', unique: false, default: { a: [1, null] } });
});

test('numeric types take min/max and a default of their type', () => {
  assert.deepEqual(parsedAttribute({ type: 'integer', min: -5, max: 10, default: 3, unique: true }), {
    ...base, name: 'field', kind: 'scalar', type: 'integer', unique: true, min: -5, max: 10, default: 3,
  });
  assert.deepEqual(parsedAttribute({ type: 'integer', default: 2147483647 }).default, 2147483647);
  assert.deepEqual(parsedAttribute({ type: 'integer', default: -2147483648 }).default, -2147483648);
  assert.deepEqual(parsedAttribute({ type: 'float', min: 0.5, max: 1.5, default: 1.25 }), {
    ...base, name: 'field', kind: 'scalar', type: 'float', unique: false, min: 0.5, max: 1.5, default: 1.25,
  });
  assert.deepEqual(parsedAttribute({ type: 'decimal', min: 0, default: 9.99 }), {
    ...base, name: 'field', kind: 'scalar', type: 'decimal', unique: false, min: 0, default: 9.99,
  });
  // Strapi writes biginteger bounds and defaults as digit strings.
  assert.deepEqual(parsedAttribute({ type: 'biginteger', min: '-10', max: 9007199254740991, default: '9223372036854775807' }), {
    ...base, name: 'field', kind: 'scalar', type: 'biginteger', unique: false, min: -10, max: 9007199254740991, default: '9223372036854775807',
  });
  assert.deepEqual(parsedAttribute({ type: 'integer', min: 3, max: 3 }).max, 3);
});

test('boolean, date, time, datetime defaults', () => {
  assert.deepEqual(parsedAttribute({ type: 'boolean', default: true }), { ...base, name: 'field', kind: 'scalar', type: 'boolean', unique: false, default: true });
  assert.equal(parsedAttribute({ type: 'date', default: '2024-02-29' }).default, '2024-02-29');
  for (const t of ['12:30', '23:59:59', '00:00:00.000']) assert.equal(parsedAttribute({ type: 'time', default: t }).default, t);
  for (const dt of ['2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05+02:00', '2024-01-02T03:04']) {
    assert.equal(parsedAttribute({ type: 'datetime', default: dt }).default, dt);
  }
});

test('enumeration takes enum, enumName and a member default', () => {
  assert.deepEqual(parsedAttribute({ type: 'enumeration', enum: ['a', 'b c', 'ü'], enumName: 'Kind', default: 'b c' }), {
    ...base, name: 'field', kind: 'scalar', type: 'enumeration', unique: false, enum: ['a', 'b c', 'ü'], default: 'b c',
  });
});

test('null options count as absent (Strapi writes them)', () => {
  assert.deepEqual(parsedAttribute({ type: 'string', minLength: null, maxLength: null, regex: null, default: null, required: null }), {
    ...base, name: 'field', kind: 'scalar', type: 'string', unique: false,
  });
});

test('media: single, multiple, allowedTypes absent or null', () => {
  assert.deepEqual(parsedAttribute({ type: 'media' }), { ...base, name: 'field', kind: 'media', multiple: false, allowedTypes: null });
  assert.deepEqual(parsedAttribute({ type: 'media', multiple: true, allowedTypes: null }), { ...base, name: 'field', kind: 'media', multiple: true, allowedTypes: null });
  assert.deepEqual(parsedAttribute({ type: 'media', multiple: false, allowedTypes: ['images', 'files', 'videos', 'audios'] }), {
    ...base, name: 'field', kind: 'media', multiple: false, allowedTypes: ['images', 'files', 'videos', 'audios'],
  });
});

test('component: single and repeatable with item bounds', () => {
  const components = { 'shared.seo': component({ title: { type: 'string' } }) };
  assert.deepEqual(parsedAttribute({ type: 'component', component: 'shared.seo' }, 'field', { components }), {
    ...base, name: 'field', kind: 'component', component: 'shared.seo', repeatable: false,
  });
  assert.deepEqual(parsedAttribute({ type: 'component', component: 'shared.seo', repeatable: true, min: 1, max: 4 }, 'field', { components }), {
    ...base, name: 'field', kind: 'component', component: 'shared.seo', repeatable: true, min: 1, max: 4,
  });
});

test('dynamic zone with item bounds', () => {
  const components = { 'blocks.quote': component({ text: { type: 'text' } }), 'blocks.image-row': component({ images: { type: 'media', multiple: true } }) };
  assert.deepEqual(parsedAttribute({ type: 'dynamiczone', components: ['blocks.image-row', 'blocks.quote'], min: 0, max: 10 }, 'field', { components }), {
    ...base, name: 'field', kind: 'dynamiczone', components: ['blocks.image-row', 'blocks.quote'], min: 0, max: 10,
  });
});

test('components: nesting up to 5 levels, one-way relations, every scalar type', () => {
  const components: Record<string, unknown> = {};
  for (let i = 1; i <= 5; i++) {
    components[`nest.level-${i}`] = component(i < 5 ? { child: { type: 'component', component: `nest.level-${i + 1}`, repeatable: i % 2 === 0 } } : { leaf: { type: 'string' } });
  }
  components['nest.all'] = component({
    s: { type: 'string' }, t: { type: 'text' }, r: { type: 'richtext' }, b: { type: 'blocks' }, e: { type: 'email' }, p: { type: 'password' },
    u: { type: 'uid', targetField: 's' }, i: { type: 'integer' }, bi: { type: 'biginteger' }, f: { type: 'float' }, d: { type: 'decimal' },
    bo: { type: 'boolean' }, da: { type: 'date' }, ti: { type: 'time' }, dt: { type: 'datetime' }, en: { type: 'enumeration', enum: ['x'] },
    j: { type: 'json' }, m: { type: 'media' }, link: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing' },
    way: { type: 'relation', relation: 'oneWay', target: 'api::thing.thing' },
  }, { collectionName: 'components_nest_everything' });
  const model = parseModel(thing({ deep: { type: 'component', component: 'nest.level-1' } }, { components }));
  const all = model.components['nest.all']!;
  assert.equal(all.collectionName, 'components_nest_everything');
  assert.deepEqual(Object.values(all.attributes).map((a) => (a.kind === 'scalar' ? a.type : a.kind)), [
    'string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid', 'integer', 'biginteger', 'float', 'decimal',
    'boolean', 'date', 'time', 'datetime', 'enumeration', 'json', 'media', 'relation', 'relation',
  ]);
  const { raw, ...way } = all.attributes.way!;
  assert.deepEqual(way, { ...base, name: 'way', kind: 'relation', relation: 'oneToOne', target: 'api::thing.thing', owner: true, many: false });
  assert.equal(model.components['nest.level-2']!.collectionName, 'components_nest_level_2s');
});

test('a localized type: per-attribute opt-in, relations and uids always localized, opt-out respected', () => {
  const model = parseModel(thing({
    plain: { type: 'string' },
    optIn: { type: 'string', pluginOptions: { i18n: { localized: true } } },
    optOut: { type: 'string', pluginOptions: { i18n: { localized: false } } },
    slug: { type: 'uid', pluginOptions: { i18n: { localized: false } } },
    self: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing' },
  }, { typeExtra: { pluginOptions: { i18n: { localized: true } } } }));
  const flags = Object.values(model.contentTypes['api::thing.thing']!.attributes).map((a) => [a.name, a.localized]);
  assert.deepEqual(flags, [['plain', false], ['optIn', true], ['optOut', false], ['slug', true], ['self', true]]);
});

test('content type header: defaults and explicit values', () => {
  const model = parseModel({ contentTypes: {
    'api::blog-post.blog-post': {
      kind: 'singleType', info: { singularName: 'blog-post', pluralName: 'blog-posts', displayName: 'Blog post', description: 'kept' },
      options: { draftAndPublish: false, comment: '' }, pluginOptions: { i18n: { localized: false } }, attributes: {},
    },
    'api::a.a': contentType('a', {}, { collectionName: 'my_as', options: { draftAndPublish: true } }),
  } });
  const { raw, attributes, ...header } = model.contentTypes['api::blog-post.blog-post']!;
  assert.deepEqual(header, {
    uid: 'api::blog-post.blog-post', kind: 'singleType', collectionName: 'blog_posts', singularName: 'blog-post', pluralName: 'blog-posts',
    displayName: 'Blog post', draftAndPublish: false, localized: false,
  });
  assert.deepEqual(attributes, {});
  assert.equal(model.contentTypes['api::a.a']!.collectionName, 'my_as');
  assert.equal(model.contentTypes['api::a.a']!.draftAndPublish, true);
  assert.deepEqual(model.components, {});
});

test('unknown options are kept in raw and ignored', () => {
  const def = { type: 'string', column: { type: 'citext' }, searchable: false, customField: 'x', minLength: 1, min: 'ignored for strings' };
  assert.deepEqual(parsedAttribute(def), { ...base, name: 'field', kind: 'scalar', type: 'string', unique: false, minLength: 1 });
});
