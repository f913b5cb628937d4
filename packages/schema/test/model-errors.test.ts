import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModel, RESERVED_ROUTE_NAMES } from '../src/index.ts';
import { T, blogInput, component, contentType, errorsOf, expectErrors, thing } from './fixtures.ts';

test('the body must be an object with a contentTypes object', () => {
  for (const input of [null, undefined, 42, 'x', [], [{}], true]) {
    expectErrors(input, [[[], /^the model must be an object, got (null|a number|a string|an array|a boolean|a undefined)$/]]);
  }
  expectErrors({}, [[['contentTypes'], /^contentTypes is required$/]]);
  expectErrors({ contentTypes: null }, [[['contentTypes'], /^contentTypes is required$/]]);
  expectErrors({ contentTypes: [] }, [[['contentTypes'], /^contentTypes must be an object, got an array$/]]);
  expectErrors({ contentTypes: {}, components: [] }, [[['components'], /^components must be an object, got an array$/]]);
  expectErrors({ contentTypes: 'x', components: 7 }, [
    [['contentTypes'], /got a string/],
    [['components'], /got a number/],
  ]);
});

test('components are optional; an empty model is valid', () => {
  assert.deepEqual(parseModel({ contentTypes: {} }), { contentTypes: {}, components: {} });
  assert.deepEqual(parseModel({ contentTypes: {}, components: null }), { contentTypes: {}, components: {} });
});

test('size limits: 200 content types, 500 components, 300 attributes', () => {
  const types = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`api::t${i}.t${i}`, contentType(`t${i}`)]));
  assert.equal(Object.keys(parseModel({ contentTypes: types(200) }).contentTypes).length, 200);
  expectErrors({ contentTypes: types(201) }, [[['contentTypes'], /^at most 200 content types are allowed, got 201$/]]);
  const comps = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c.c${i}`, component({}, { collectionName: `c${i}` })]));
  assert.equal(Object.keys(parseModel({ contentTypes: {}, components: comps(500) }).components).length, 500);
  expectErrors({ contentTypes: {}, components: comps(501) }, [[['components'], /^at most 500 components are allowed, got 501$/]]);
  const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, { type: 'string' }]));
  assert.equal(Object.keys(parseModel(thing(attrs(300))).contentTypes['api::thing.thing']!.attributes).length, 300);
  expectErrors(thing(attrs(301)), [[[...T, 'attributes'], /^at most 300 attributes are allowed, got 301$/]]);
  expectErrors({ contentTypes: {}, components: { 'c.c': component(attrs(301)) } }, [[['components', 'c.c', 'attributes'], /^at most 300 attributes/]]);
});

test('a schema must be an object', () => {
  expectErrors({ contentTypes: { 'api::a.a': [], 'api::b.b': null, 'api::c.c': 'x' }, components: { 'c.d': 1 } }, [
    [['contentTypes', 'api::a.a'], /must be an object, got an array/],
    [['contentTypes', 'api::b.b'], /got null/],
    [['contentTypes', 'api::c.c'], /got a string/],
    [['components', 'c.d'], /got a number/],
  ]);
});

test('content type uid must be api::{singularName}.{singularName}', () => {
  const ct = contentType('post');
  for (const uid of ['api::posts.posts', 'api::post.posts', 'post', 'api::post', 'plugin::post.post', 'API::post.post']) {
    expectErrors({ contentTypes: { [uid]: ct } }, [[['contentTypes', uid], /must be "api::post.post"/]]);
  }
});

test('kind is required and must be collectionType or singleType', () => {
  const { kind, ...noKind } = contentType('thing');
  expectErrors({ contentTypes: { 'api::thing.thing': noKind } }, [[[...T, 'kind'], /^kind is required$/]]);
  expectErrors(thing({}, { typeExtra: { kind: 'component' } }), [[[...T, 'kind'], /^kind must be collectionType or singleType, got "component"$/]]);
  expectErrors(thing({}, { typeExtra: { kind: 1 } }), [[[...T, 'kind'], /got 1$/]]);
});

test('info is required and must be an object', () => {
  expectErrors({ contentTypes: { 'api::a.a': { kind: 'singleType', attributes: {} } } }, [
    [['contentTypes', 'api::a.a', 'info'], /^info is required$/],
  ]);
  expectErrors(thing({}, { typeExtra: { info: ['thing'] } }), [[[...T, 'info'], /^info must be an object, got an array$/]]);
});

test('singularName and pluralName: required, kebab-case, at most 60 characters, different', () => {
  const withInfo = (info: Record<string, unknown>, uid = 'api::thing.thing') => ({ contentTypes: { [uid]: { kind: 'collectionType', info: { displayName: 'X', ...info }, attributes: {} } } });
  expectErrors(withInfo({ pluralName: 'things' }), [[[...T, 'info', 'singularName'], /^singularName is required$/]]);
  expectErrors(withInfo({ pluralName: 'things' }, 'api::thing'), [
    [['contentTypes', 'api::thing', 'info', 'singularName'], /^singularName is required$/],
    [['contentTypes', 'api::thing'], /^content type uid "api::thing" must have the form api::\{singularName\}.\{singularName\}$/],
  ]);
  expectErrors(withInfo({ singularName: 'thing' }), [[[...T, 'info', 'pluralName'], /^pluralName is required$/]]);
  for (const bad of ['Thing', 'thing_s', '-thing', 'thing-', 'th--ing', '1thing', 'thïng', 'th ing', '']) {
    expectErrors(withInfo({ singularName: 'thing', pluralName: bad }), [[[...T, 'info', 'pluralName'], /must be kebab-case/]]);
  }
  expectErrors(withInfo({ singularName: 'thing', pluralName: 7 }), [[[...T, 'info', 'pluralName'], /^pluralName must be a string, got a number$/]]);
  const long = `a${'b'.repeat(60)}`;
  expectErrors(withInfo({ singularName: 'thing', pluralName: long }), [[[...T, 'info', 'pluralName'], /at most 60 characters/]]);
  assert.equal(parseModel(withInfo({ singularName: 'thing', pluralName: long.slice(0, 60) })).contentTypes['api::thing.thing']!.pluralName.length, 60);
  expectErrors(withInfo({ singularName: 'thing', pluralName: 'thing' }), [[[...T, 'info', 'pluralName'], /^pluralName must differ from singularName$/]]);
  // A kebab-case singular with dashes is fine.
  assert.ok(parseModel(withInfo({ singularName: 'blog-post-2', pluralName: 'blog-post-2s' }, 'api::blog-post-2.blog-post-2')));
});

test('singular and plural names are unique across content types', () => {
  const ct = (s: string, p: string) => ({ kind: 'collectionType', info: { singularName: s, pluralName: p, displayName: s }, attributes: {}, collectionName: `c_${s}` });
  expectErrors({ contentTypes: {
    'api::person.person': ct('person', 'people'),
    'api::people.people': ct('people', 'peoples'),
    'api::human.human': ct('human', 'people'),
  } }, [
    [['contentTypes', 'api::people.people', 'info', 'singularName'], /^singularName "people" is already used by api::person.person$/],
    [['contentTypes', 'api::human.human', 'info', 'pluralName'], /^pluralName "people" is already used by api::person.person$/],
  ]);
});

test('route names used by the platform are reserved', () => {
  const expected = ['upload', 'users', 'auth', 'i18n', 'users-permissions', 'graphql', 'connect', 'content-type-builder',
    'upload-file', 'upload-files', 'i18n-locale', 'i18n-locales', 'user', 'role', 'roles', 'permission', 'permissions'];
  assert.deepEqual([...RESERVED_ROUTE_NAMES].sort(), [...expected].sort());
  for (const name of expected) {
    expectErrors({ contentTypes: { [`api::${name}.${name}`]: { kind: 'collectionType', info: { singularName: name, pluralName: `${name}-items`, displayName: 'x' }, attributes: {} } } }, [
      [['contentTypes', `api::${name}.${name}`, 'info', 'singularName'], new RegExp(`^singularName "${name}" is reserved by the platform$`)],
    ]);
    expectErrors({ contentTypes: { 'api::my-thing.my-thing': { kind: 'collectionType', info: { singularName: 'my-thing', pluralName: name, displayName: 'x' }, attributes: {} } } }, [
      [['contentTypes', 'api::my-thing.my-thing', 'info', 'pluralName'], /is reserved by the platform/],
    ]);
  }
});

test('displayName: required non-empty string of at most 100 characters', () => {
  const withDisplay = (displayName: unknown) => thing({}, { typeExtra: { info: { singularName: 'thing', pluralName: 'things', displayName } } });
  expectErrors(withDisplay(undefined), [[[...T, 'info', 'displayName'], /^displayName is required$/]]);
  expectErrors(withDisplay(''), [[[...T, 'info', 'displayName'], /^displayName must not be empty$/]]);
  expectErrors(withDisplay('   '), [[[...T, 'info', 'displayName'], /^displayName must not be empty$/]]);
  expectErrors(withDisplay({}), [[[...T, 'info', 'displayName'], /^displayName must be a string, got an object$/]]);
  expectErrors(withDisplay('x'.repeat(101)), [[[...T, 'info', 'displayName'], /^displayName must be at most 100 characters long$/]]);
  assert.equal(parseModel(withDisplay('Ünïcode – ok 🎉')).contentTypes['api::thing.thing']!.displayName, 'Ünïcode – ok 🎉');
});

test('collectionName: format, length, type', () => {
  for (const bad of ['Things', '1things', 'thi-ngs', 'thing s', '"things"', '']) {
    expectErrors(thing({}, { typeExtra: { collectionName: bad } }), [[[...T, 'collectionName'], /^collectionName .* must match/]]);
  }
  expectErrors(thing({}, { typeExtra: { collectionName: 'a'.repeat(61) } }), [[[...T, 'collectionName'], /at most 60 characters/]]);
  expectErrors(thing({}, { typeExtra: { collectionName: ['x'] } }), [[[...T, 'collectionName'], /must be a string, got an array/]]);
  assert.equal(parseModel(thing({}, { typeExtra: { collectionName: 'x_1' } })).contentTypes['api::thing.thing']!.collectionName, 'x_1');
});

test('collectionName is unique across content types and components, defaults included', () => {
  expectErrors({
    contentTypes: {
      'api::a.a': contentType('a', {}, { collectionName: 'shared' }),
      'api::b.b': contentType('b'),
      'api::c.c': contentType('c', {}, { collectionName: 'bs' }),
      'api::d.d': contentType('d', {}, { collectionName: 'components_x_ws' }),
    },
    components: { 'x.y': component({}, { collectionName: 'shared' }), 'x.w': component() },
  }, [
    [['contentTypes', 'api::c.c', 'collectionName'], /^collectionName "bs" is already used by api::b.b$/],
    [['components', 'x.y', 'collectionName'], /^collectionName "shared" is already used by api::a.a$/],
    [['components', 'x.w', 'collectionName'], /^collectionName "components_x_ws" \(the default\) is already used by api::d.d$/],
  ]);
});

test('options and pluginOptions must be objects with boolean flags', () => {
  expectErrors(thing({}, { typeExtra: { options: { draftAndPublish: 'yes' }, pluginOptions: { i18n: { localized: 1 } } } }), [
    [[...T, 'options', 'draftAndPublish'], /^draftAndPublish must be a boolean, got a string$/],
    [[...T, 'pluginOptions', 'i18n', 'localized'], /^localized must be a boolean, got a number$/],
  ]);
  expectErrors(thing({}, { typeExtra: { options: [], pluginOptions: 'i18n' } }), [
    [[...T, 'options'], /must be an object, got an array/],
    [[...T, 'pluginOptions'], /must be an object, got a string/],
  ]);
  expectErrors(thing({}, { typeExtra: { pluginOptions: { i18n: true } } }), [[[...T, 'pluginOptions', 'i18n'], /must be an object, got a boolean/]]);
});

test('attributes are required and must be an object', () => {
  const { attributes, ...noAttributes } = contentType('thing');
  expectErrors({ contentTypes: { 'api::thing.thing': noAttributes } }, [[[...T, 'attributes'], /^attributes is required$/]]);
  expectErrors(thing([{ type: 'string' }]), [[[...T, 'attributes'], /^attributes must be an object, got an array$/]]);
});

test('every problem of the model is reported together', () => {
  const input = blogInput();
  input.contentTypes['api::post.post'].kind = 'document';
  input.contentTypes['api::post.post'].attributes.title.type = 'varchar';
  input.contentTypes['api::post.post'].attributes.author.target = 'api::writer.writer';
  input.contentTypes['api::tag.tag'].attributes.id = { type: 'integer' };
  input.contentTypes['api::tag.tag'].attributes.slug.targetField = 'nope';
  input.components['blog.meta'].attributes.title.maxLength = -1;
  input.components['blog.cta'].attributes.self = { type: 'component', component: 'blog.cta' };
  const errors = errorsOf(input);
  assert.deepEqual(errors.map((e) => e.path.join('/')), [
    'contentTypes/api::post.post/kind',
    'contentTypes/api::post.post/attributes/title/type',
    'contentTypes/api::post.post/attributes/author/target',
    'contentTypes/api::tag.tag/attributes/id',
    'contentTypes/api::tag.tag/attributes/slug/targetField',
    'components/blog.meta/attributes/title/maxLength',
    'components/blog.cta/attributes/self/component',
  ]);
  assert.match(errors[6]!.message, /^component nesting cycle: blog.cta → blog.cta$/);
  // The author side still points at post.author, which is now invalid: not reported twice.
  assert.ok(!errors.some((e) => e.path.includes('api::author.author')));
});
