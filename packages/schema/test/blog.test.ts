import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModel, type RelationAttribute } from '../src/index.ts';
import { blogInput } from './fixtures.ts';

const model = parseModel(blogInput());
const post = model.contentTypes['api::post.post']!;
const relation = (uid: string, name: string) => {
  const { raw, ...rest } = model.contentTypes[uid]!.attributes[name] as RelationAttribute;
  return rest;
};

test('blog: types and components keep declaration order', () => {
  assert.deepEqual(Object.keys(model.contentTypes), ['api::author.author', 'api::post.post', 'api::site.site', 'api::tag.tag']);
  assert.deepEqual(Object.keys(model.components), ['blog.cta', 'blog.figure', 'blog.meta']);
  assert.deepEqual(Object.keys(post.attributes), [
    'title', 'body', 'readingMinutes', 'score', 'views', 'publishedOn', 'featured', 'format', 'extra',
    'cover', 'attachments', 'author', 'tags', 'meta', 'ctas', 'sections',
  ]);
});

test('blog: content type headers', () => {
  const { attributes, raw, ...header } = post;
  assert.deepEqual(header, {
    uid: 'api::post.post', kind: 'collectionType', collectionName: 'posts', singularName: 'post', pluralName: 'posts',
    displayName: 'Post', draftAndPublish: true, localized: true,
  });
  assert.deepEqual(raw, blogInput().contentTypes['api::post.post']);
  const site = model.contentTypes['api::site.site']!;
  assert.equal(site.kind, 'singleType');
  assert.equal(site.draftAndPublish, true);
  assert.equal(site.localized, true);
  const author = model.contentTypes['api::author.author']!;
  assert.equal(author.draftAndPublish, false);
  assert.equal(author.localized, false);
  assert.equal(model.contentTypes['api::tag.tag']!.draftAndPublish, false);
});

test('blog: relation pairs', () => {
  assert.deepEqual(relation('api::post.post', 'author'), {
    name: 'author', kind: 'relation', required: false, private: false, localized: true,
    relation: 'manyToOne', target: 'api::author.author', inversedBy: 'posts', owner: true, many: false,
  });
  assert.deepEqual(relation('api::author.author', 'posts'), {
    name: 'posts', kind: 'relation', required: false, private: false, localized: false,
    relation: 'oneToMany', target: 'api::post.post', mappedBy: 'author', owner: false, many: true,
  });
  assert.deepEqual(relation('api::post.post', 'tags'), {
    name: 'tags', kind: 'relation', required: false, private: false, localized: true,
    relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'posts', owner: true, many: true,
  });
  assert.deepEqual(relation('api::tag.tag', 'posts'), {
    name: 'posts', kind: 'relation', required: false, private: false, localized: false,
    relation: 'manyToMany', target: 'api::post.post', mappedBy: 'tags', owner: false, many: true,
  });
});

test('blog: localized flags follow Strapi isLocalizedAttribute', () => {
  const flags = Object.fromEntries(Object.values(post.attributes).map((a) => [a.name, a.localized]));
  assert.deepEqual(flags, {
    title: true, body: true, readingMinutes: false, score: false, views: false, publishedOn: false, featured: false,
    format: false, extra: false, cover: false, attachments: false, author: true, tags: true, meta: true, ctas: true, sections: true,
  });
  assert.equal(model.contentTypes['api::tag.tag']!.attributes.slug!.localized, false); // tag is not localized
  assert.ok(Object.values(model.components).every((c) => Object.values(c.attributes).every((a) => !a.localized)));
});

test('blog: scalar, media, component and dynamic zone attributes', () => {
  const strip = (a: object) => { const { raw, ...rest } = a as { raw: unknown }; return rest; };
  assert.deepEqual(strip(post.attributes.title!), { name: 'title', kind: 'scalar', type: 'string', required: true, private: false, localized: true, unique: false });
  assert.deepEqual(strip(post.attributes.readingMinutes!), { name: 'readingMinutes', kind: 'scalar', type: 'integer', required: false, private: false, localized: false, unique: false, min: 0 });
  assert.deepEqual(strip(post.attributes.featured!), { name: 'featured', kind: 'scalar', type: 'boolean', required: false, private: false, localized: false, unique: false, default: false });
  assert.deepEqual(strip(post.attributes.format!), { name: 'format', kind: 'scalar', type: 'enumeration', required: false, private: false, localized: false, unique: false, enum: ['article', 'note', 'video'] });
  assert.deepEqual(strip(post.attributes.attachments!), { name: 'attachments', kind: 'media', required: false, private: false, localized: false, multiple: true, allowedTypes: ['files', 'images'] });
  assert.deepEqual(strip(post.attributes.ctas!), { name: 'ctas', kind: 'component', required: false, private: false, localized: true, component: 'blog.cta', repeatable: true });
  assert.deepEqual(strip(post.attributes.sections!), { name: 'sections', kind: 'dynamiczone', required: false, private: false, localized: true, components: ['blog.cta', 'blog.figure'] });
  const tag = model.contentTypes['api::tag.tag']!;
  assert.deepEqual(strip(tag.attributes.slug!), { name: 'slug', kind: 'scalar', type: 'uid', required: false, private: false, localized: false, unique: false, targetField: 'label' });
  const author = model.contentTypes['api::author.author']!;
  assert.deepEqual(strip(author.attributes.name!), { name: 'name', kind: 'scalar', type: 'string', required: true, private: false, localized: false, unique: true });
});

test('blog: components', () => {
  const { attributes, raw, ...meta } = model.components['blog.meta']!;
  assert.deepEqual(meta, { uid: 'blog.meta', category: 'blog', name: 'meta', collectionName: 'components_blog_metas', displayName: 'Meta' });
  assert.equal((attributes.title as { maxLength?: number }).maxLength, 70);
  assert.deepEqual(raw, blogInput().components['blog.meta']);
});

test('blog: the model is plain JSON and raw copies are detached from the input', () => {
  const input = blogInput();
  const parsed = parseModel(input);
  assert.deepEqual(JSON.parse(JSON.stringify(parsed)), parsed);
  input.contentTypes['api::post.post'].attributes.title.required = false;
  assert.equal((parsed.contentTypes['api::post.post']!.raw as any).attributes.title.required, true);
  assert.equal((parsed.contentTypes['api::post.post']!.attributes.title!.raw as any).required, true);
});

test('blog: the default collection names', () => {
  const input = blogInput();
  delete input.contentTypes['api::post.post'].collectionName;
  delete input.components['blog.meta'].collectionName;
  const parsed = parseModel(input);
  assert.equal(parsed.contentTypes['api::post.post']!.collectionName, 'posts');
  assert.equal(parsed.components['blog.meta']!.collectionName, 'components_blog_metas');
});
