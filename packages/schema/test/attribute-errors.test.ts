import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModel, RESERVED_ATTRIBUTE_NAMES } from '../src/index.ts';
import { A, component, expectAttributeError, expectErrors, thing } from './fixtures.ts';

test('attribute names: letters, digits and _, starting with a letter, at most 60 characters', () => {
  for (const bad of ['1st', '_x', 'with-dash', 'with space', 'ümlaut', 'a.b', 'a$', '']) {
    expectErrors(thing({ [bad]: { type: 'string' } }), [[[...A, bad], /must start with a letter and contain only letters, digits and _/]]);
  }
  const long = 'a'.repeat(61);
  expectErrors(thing({ [long]: { type: 'string' } }), [[[...A, long], /is longer than 60 characters/]]);
  assert.ok(parseModel(thing({ ['a'.repeat(60)]: { type: 'string' }, snake_Case9: { type: 'string' } })));
});

test('reserved attribute names, also in other letter cases, and names starting with __', () => {
  assert.deepEqual(RESERVED_ATTRIBUTE_NAMES, [
    'id', 'documentId', 'document_id', 'locale', 'localizations', 'publishedAt', 'published_at', 'createdAt', 'created_at',
    'updatedAt', 'updated_at', 'createdBy', 'created_by', 'updatedBy', 'updated_by',
  ]);
  for (const name of [...RESERVED_ATTRIBUTE_NAMES, 'ID', 'DocumentId', 'PUBLISHED_AT', '__component', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    expectErrors(thing({ [name]: { type: 'string' } }), [[[...A, name], /^attribute name ".*" is reserved$/]]);
    expectErrors(thing({}, { components: { 'a.b': component({ [name]: { type: 'string' } }) } }), [
      [['components', 'a.b', 'attributes', name], /is reserved$/],
    ]);
  }
});

test('attribute names may not differ only by letter case', () => {
  expectErrors(thing({ title: { type: 'string' }, Title: { type: 'text' }, TITLE: { type: 'text' } }), [
    [[...A, 'Title'], /^attribute name "Title" clashes with "title"/],
    [[...A, 'TITLE'], /^attribute name "TITLE" clashes with "title"/],
  ]);
});

test('attribute definition must be an object with a known type', () => {
  expectErrors(thing({ a: 'string', b: null, c: ['string'], d: {}, e: { type: null }, f: { type: 'varchar' }, g: { type: 7 }, h: { type: 'String' } }), [
    [[...A, 'a'], /^attribute definition must be an object, got a string$/],
    [[...A, 'b'], /got null$/],
    [[...A, 'c'], /got an array$/],
    [[...A, 'd', 'type'], /^type is required$/],
    [[...A, 'e', 'type'], /^type is required$/],
    [[...A, 'f', 'type'], /^type "varchar" is not a valid attribute type/],
    [[...A, 'g', 'type'], /^type 7 is not a valid attribute type/],
    [[...A, 'h', 'type'], /^type "String" is not a valid attribute type/],
  ]);
});

test('required, unique, private, configurable must be booleans; conditions and pluginOptions objects', () => {
  for (const key of ['required', 'unique', 'private', 'configurable']) {
    expectAttributeError({ type: 'string', [key]: 'true' }, [key], new RegExp(`^${key} must be a boolean, got a string$`));
    expectAttributeError({ type: 'relation', relation: 'oneToOne', target: 'api::thing.thing', [key]: 1 }, [key], /must be a boolean/);
  }
  expectAttributeError({ type: 'string', conditions: 'visible' }, ['conditions'], /^conditions must be an object, got a string$/);
  expectAttributeError({ type: 'string', pluginOptions: [] }, ['pluginOptions'], /^pluginOptions must be an object, got an array$/);
  expectAttributeError({ type: 'string', pluginOptions: { i18n: 'yes' } }, ['pluginOptions', 'i18n'], /must be an object/);
  expectAttributeError({ type: 'string', pluginOptions: { i18n: { localized: 'yes' } } }, ['pluginOptions', 'i18n', 'localized'], /must be a boolean/);
});

test('minLength/maxLength: non-negative integers, min <= max', () => {
  for (const bad of [-1, 1.5, '3', true]) {
    expectAttributeError({ type: 'string', minLength: bad }, ['minLength'], /^minLength must be a non-negative integer/);
    expectAttributeError({ type: 'uid', maxLength: bad }, ['maxLength'], /^maxLength must be a non-negative integer/);
  }
  expectAttributeError({ type: 'text', minLength: 5, maxLength: 4 }, ['maxLength'], /^maxLength \(4\) must be greater than or equal to minLength \(5\)$/);
});

test('min/max: numbers (integers for integer types), min <= max', () => {
  expectAttributeError({ type: 'float', min: '1' }, ['min'], /^min must be a number, got "1"$/);
  expectAttributeError({ type: 'integer', max: 1.5 }, ['max'], /^max must be an integer, got 1.5$/);
  expectAttributeError({ type: 'decimal', min: Number.NaN }, ['min'], /^min must be a number/);
  expectAttributeError({ type: 'biginteger', min: '1e3' }, ['min'], /^min must be an integer between/);
  expectAttributeError({ type: 'biginteger', max: '9223372036854775807' }, ['max'], /^max must be an integer between/);
  expectAttributeError({ type: 'integer', min: 10, max: 1 }, ['max'], /^max \(1\) must be greater than or equal to min \(10\)$/);
});

test('regex: a string of at most 1000 characters that compiles', () => {
  expectAttributeError({ type: 'string', regex: '([a-z' }, ['regex'], /^regex is not a valid regular expression: /);
  expectAttributeError({ type: 'string', regex: 5 }, ['regex'], /^regex must be a string, got a number$/);
  expectAttributeError({ type: 'string', regex: 'a'.repeat(1001) }, ['regex'], /^regex must be at most 1000 characters long$/);
});

test('enum: required, non-empty array of unique non-empty strings of at most 255 characters', () => {
  expectAttributeError({ type: 'enumeration' }, ['enum'], /^enum is required for enumeration attributes$/);
  expectAttributeError({ type: 'enumeration', enum: 'a,b' }, ['enum'], /^enum must be an array of strings, got a string$/);
  expectAttributeError({ type: 'enumeration', enum: [] }, ['enum'], /^enum must not be empty$/);
  expectErrors(thing({ field: { type: 'enumeration', enum: ['a', 1, '', 'a', 'x'.repeat(256), null] } }), [
    [[...A, 'field', 'enum', '1'], /^enum values must be strings, got a number$/],
    [[...A, 'field', 'enum', '2'], /^enum values must not be empty$/],
    [[...A, 'field', 'enum', '3'], /^enum value "a" is duplicated$/],
    [[...A, 'field', 'enum', '4'], /^enum values must be at most 255 characters long$/],
    [[...A, 'field', 'enum', '5'], /got null$/],
  ]);
  expectAttributeError({ type: 'enumeration', enum: ['a'], enumName: 3 }, ['enumName'], /^enumName must be a string/);
});

test('default must fit the type', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ type: 'string', default: 5 }, /^default must be a string, got a number$/],
    [{ type: 'richtext', default: ['x'] }, /^default must be a string, got an array$/],
    [{ type: 'blocks', default: 'text' }, /^default must be an array of blocks/],
    [{ type: 'integer', default: '5' }, /^default must be an integer between -2147483648 and 2147483647, got "5"$/],
    [{ type: 'integer', default: 1.5 }, /^default must be an integer/],
    [{ type: 'integer', default: 2147483648 }, /^default must be an integer/],
    [{ type: 'biginteger', default: '9223372036854775808' }, /^default must be a 64-bit integer/],
    [{ type: 'biginteger', default: 1.5 }, /^default must be a 64-bit integer/],
    [{ type: 'float', default: '1.5' }, /^default must be a number, got "1.5"$/],
    [{ type: 'decimal', default: true }, /^default must be a number/],
    [{ type: 'boolean', default: 'true' }, /^default must be a boolean, got a string$/],
    [{ type: 'date', default: '2023-02-29' }, /^default must be a date \(YYYY-MM-DD\), got "2023-02-29"$/],
    [{ type: 'date', default: '2024-1-1' }, /^default must be a date/],
    [{ type: 'date', default: '2024-01-01T00:00:00Z' }, /^default must be a date/],
    [{ type: 'time', default: '24:00' }, /^default must be a time/],
    [{ type: 'time', default: '12:60:00' }, /^default must be a time/],
    [{ type: 'datetime', default: 'yesterday' }, /^default must be an ISO 8601 date-time/],
    [{ type: 'datetime', default: '2024-13-01T00:00:00Z' }, /^default must be an ISO 8601 date-time/],
    [{ type: 'enumeration', enum: ['a', 'b'], default: 'c' }, /^default "c" is not one of the enum values$/],
    [{ type: 'enumeration', enum: ['a'], default: 1 }, /^default must be one of the enum values, got a number$/],
  ];
  for (const [def, message] of cases) expectAttributeError(def, ['default'], message);
});

test('targetField must name a string or text attribute of the same type', () => {
  expectErrors(thing({ count: { type: 'integer' }, a: { type: 'uid', targetField: 'missing' }, b: { type: 'uid', targetField: 'count' }, c: { type: 'uid', targetField: 4 } }), [
    [[...A, 'c', 'targetField'], /^targetField must be a string, got a number$/],
    [[...A, 'a', 'targetField'], /^targetField "missing" must name a string or text attribute of api::thing.thing$/],
    [[...A, 'b', 'targetField'], /^targetField "count" must name a string or text attribute/],
  ]);
  expectErrors(thing({}, { components: { 'a.b': component({ s: { type: 'uid', targetField: 'toString' } }) } }), [
    [['components', 'a.b', 'attributes', 's', 'targetField'], /must name a string or text attribute of a.b/],
  ]);
});

test('media: multiple boolean, allowedTypes images|files|videos|audios', () => {
  expectAttributeError({ type: 'media', multiple: 'yes' }, ['multiple'], /^multiple must be a boolean, got a string$/);
  expectAttributeError({ type: 'media', allowedTypes: 'images' }, ['allowedTypes'], /^allowedTypes must be an array or null, got a string$/);
  expectAttributeError({ type: 'media', allowedTypes: [] }, ['allowedTypes'], /^allowedTypes must not be empty/);
  expectAttributeError({ type: 'media', allowedTypes: ['images', 'pdf'] }, ['allowedTypes', '1'], /^allowedTypes values must be one of images, files, videos, audios, got "pdf"$/);
});

test('component attribute: existing component, repeatable boolean, item bounds only when repeatable', () => {
  const components = { 'a.b': component() };
  const err = (def: Record<string, unknown>, sub: string[], message: RegExp) => expectErrors(thing({ field: def }, { components }), [[[...A, 'field', ...sub], message]]);
  err({ type: 'component' }, ['component'], /^component is required$/);
  err({ type: 'component', component: 'a.c' }, ['component'], /^component "a.c" is not a component of this model$/);
  err({ type: 'component', component: { uid: 'a.b' } }, ['component'], /^component must be a string, got an object$/);
  err({ type: 'component', component: 'a.b', repeatable: 'no' }, ['repeatable'], /^repeatable must be a boolean/);
  err({ type: 'component', component: 'a.b', min: 1 }, ['min'], /^min is only allowed on repeatable components$/);
  err({ type: 'component', component: 'a.b', repeatable: false, max: 1 }, ['max'], /^max is only allowed on repeatable components$/);
  err({ type: 'component', component: 'a.b', repeatable: true, min: -1 }, ['min'], /^min must be a non-negative integer/);
  err({ type: 'component', component: 'a.b', repeatable: true, max: 2.5 }, ['max'], /^max must be a non-negative integer/);
  err({ type: 'component', component: 'a.b', repeatable: true, min: 3, max: 2 }, ['max'], /^max \(2\) must be greater than or equal to min \(3\)$/);
});

test('dynamic zone: non-empty list of unique existing components, bounds, not inside components', () => {
  const components = { 'a.b': component(), 'a.c': component({ dz: { type: 'dynamiczone', components: ['a.b'] } }) };
  const err = (def: Record<string, unknown>, sub: string[], message: RegExp) => expectErrors(thing({ field: def }, { components: { 'a.b': component() } }), [[[...A, 'field', ...sub], message]]);
  expectErrors(thing({}, { components }), [[['components', 'a.c', 'attributes', 'dz', 'type'], /^dynamic zones are not allowed in components$/]]);
  err({ type: 'dynamiczone' }, ['components'], /^components is required$/);
  err({ type: 'dynamiczone', components: 'a.b' }, ['components'], /^components must be an array of component uids, got a string$/);
  err({ type: 'dynamiczone', components: [] }, ['components'], /^components must not be empty$/);
  err({ type: 'dynamiczone', components: ['a.b', 'a.b'] }, ['components', '1'], /^component "a.b" is listed twice$/);
  err({ type: 'dynamiczone', components: ['a.x'] }, ['components', '0'], /^component "a.x" is not a component of this model$/);
  err({ type: 'dynamiczone', components: [null] }, ['components', '0'], /^components values must be strings, got null$/);
  err({ type: 'dynamiczone', components: ['a.b'], min: -1 }, ['min'], /^min must be a non-negative integer/);
  err({ type: 'dynamiczone', components: ['a.b'], min: 2, max: 1 }, ['max'], /must be greater than or equal to min/);
});
