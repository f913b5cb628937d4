import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValidationError } from '@cms/errors';
import { parseModel } from '../src/index.ts';
import { A, T, blogInput, component, contentType, errorsOf, expectErrors, thing } from './fixtures.ts';

const huge = 'x'.repeat(10_000);

test('10k-character names everywhere are rejected with short messages', () => {
  const errors = errorsOf({
    contentTypes: {
      [`api::${huge}.${huge}`]: contentType(huge, { [huge]: { type: 'string' } }),
      'api::thing.thing': contentType('thing', { a: { type: 'relation', relation: 'oneToOne', target: huge }, b: { type: huge }, c: { type: 'uid', targetField: huge } }),
    },
    components: { [`${huge}.${huge}`]: component({}, { collectionName: huge }) },
  });
  assert.deepEqual(errors.map((e) => e.path.map((p) => (p === huge ? 'HUGE' : p.length > 100 ? 'LONG' : p)).join('/')), [
    'contentTypes/LONG/info/singularName',
    'contentTypes/LONG/info/pluralName',
    'contentTypes/LONG/info/displayName',
    'contentTypes/LONG',
    'contentTypes/LONG/attributes/HUGE',
    'contentTypes/api::thing.thing/attributes/a/target',
    'contentTypes/api::thing.thing/attributes/b/type',
    'contentTypes/api::thing.thing/attributes/c/targetField',
    'components/LONG',
    'components/LONG/collectionName',
  ]);
  for (const e of errors) assert.ok(e.message.length < 400, e.message.slice(0, 100));
});

test('SQL metacharacters, quotes and unicode in names are rejected', () => {
  const names = [`a"; DROP TABLE x; --`, "o'brien", 'a b', 'a;b', 'a\u0000b', 'título', '名前', 'emoji🎉', 'zero\u200bwidth', 'rtl\u202eevil', 'a\nb', 'a`b', 'a/*b*/'];
  for (const name of names) {
    expectErrors(thing({ [name]: { type: 'string' } }), [[[...A, name], /must start with a letter and contain only/]]);
    expectErrors(thing({}, { typeExtra: { collectionName: name } }), [[[...T, 'collectionName'], /must match/]]);
    expectErrors({ contentTypes: {}, components: { [`a.${name}`]: component() } }, [[['components', `a.${name}`], /component uid/]]);
    const info = { singularName: name, pluralName: 'things', displayName: name };
    expectErrors({ contentTypes: { 'api::thing.thing': { kind: 'collectionType', info, attributes: {} } } }, [
      [[...T, 'info', 'singularName'], /must be kebab-case/],
    ]);
  }
});

test('__proto__ and constructor keys cannot pollute or confuse', () => {
  const input = JSON.parse(`{
    "contentTypes": {
      "__proto__": {"kind": "collectionType", "polluted": true},
      "constructor": {"kind": "collectionType"},
      "api::thing.thing": {"kind": "collectionType", "__proto__": {"kind": "singleType"},
        "info": {"singularName": "thing", "pluralName": "things", "displayName": "T", "__proto__": {"x": 1}},
        "attributes": {"__proto__": {"type": "string"}, "ok": {"type": "string", "__proto__": {"required": true}}}}
    },
    "components": {"__proto__": {"info": {"displayName": "x"}, "attributes": {}}}
  }`);
  const errors = errorsOf(input);
  assert.deepEqual(errors.map((e) => e.path), [
    ['contentTypes', '__proto__', 'info'],
    ['contentTypes', '__proto__'],
    ['contentTypes', '__proto__', 'attributes'],
    ['contentTypes', 'constructor', 'info'],
    ['contentTypes', 'constructor'],
    ['contentTypes', 'constructor', 'attributes'],
    [...A, '__proto__'],
    ['components', '__proto__'],
  ]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).required, undefined);
});

test('own properties only: inherited options are not read, a forged __proto__ option is not obeyed', () => {
  const input = JSON.parse('{"contentTypes": {"api::thing.thing": {"kind": "collectionType", "info": {"singularName": "thing", "pluralName": "things", "displayName": "T"}, "attributes": {"ok": {"type": "string", "__proto__": {"required": true, "unique": "bad"}}}}}}');
  const attr = parseModel(input).contentTypes['api::thing.thing']!.attributes.ok!;
  assert.equal(attr.required, false);
  assert.equal((attr as { unique: boolean }).unique, false);
  // Objects without a prototype are plain data too.
  const bare = Object.assign(Object.create(null), thing({ a: Object.assign(Object.create(null), { type: 'string' }) }));
  assert.ok(parseModel(bare).contentTypes['api::thing.thing']!.attributes.a);
});

test('arrays, null, numbers, booleans where objects are expected', () => {
  for (const bad of [[], null, 0, 1, true, 'str', [{}]]) {
    const errors = errorsOf({ contentTypes: { 'api::thing.thing': { kind: 'collectionType', info: bad, options: bad, pluginOptions: bad, attributes: { a: bad } } }, components: { 'a.b': bad } });
    assert.ok(errors.length >= 2);
    assert.ok(errors.some((e) => e.path.join('/') === 'components/a.b'));
  }
});

test('non-JSON values (functions, symbols, cycles, proxies, class instances) are errors, not crashes', () => {
  expectErrors(thing({ a: { type: 'json', default: () => 1 } }), [[[], /^the model must be plain JSON data \(found a function\)$/]]);
  expectErrors(thing({ a: { type: 'string', [Symbol('s')]: 1, default: Symbol('x') } }), [[[], /^the model must be plain JSON data \(found a symbol\)$/]]);
  expectErrors(thing({ a: { type: 'integer', default: 10n } }), [[[], /found a bigint/]]);
  const cyclic: Record<string, unknown> = { type: 'json' };
  cyclic.default = { back: cyclic };
  expectErrors(thing({ a: cyclic }), [[[], /^the model must be plain JSON data \(found a circular reference\)$/]]);
  expectErrors(thing({ a: { type: 'json', default: new Proxy({}, {}) } }), [[[], /^the model must be plain JSON data$/]]);
  // The same definition object used twice is not a cycle.
  const shared = { type: 'string' };
  assert.deepEqual(Object.keys(parseModel(thing({ a: shared, b: shared })).contentTypes['api::thing.thing']!.attributes), ['a', 'b']);
  expectErrors(thing(new Map([['a', { type: 'string' }]])), [[[...T, 'attributes'], /must be an object/]]);
  expectErrors({ contentTypes: { 'api::thing.thing': new Date() } }, [[T, /must be an object/]]);
});

test('the error list is capped for hostile input', () => {
  const attrs = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`a${i}`, { type: 'nope', required: 'x' }]));
  const errors = errorsOf(thing(attrs));
  assert.equal(errors.length, 201);
  assert.deepEqual(errors[200], { path: [], message: 'Too many errors; only the first 200 are listed', name: 'ValidationError' });
});

test('JSON nested deeper than 100 levels is refused before anything recurses into it', () => {
  const nested = (levels: number) => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < levels; i++) deep = [deep];
    return deep;
  };
  // contentTypes, uid, attributes, a, default: 5 levels above the value.
  assert.ok(parseModel(thing({ a: { type: 'json', default: nested(95) } })));
  expectErrors(thing({ a: { type: 'json', default: nested(96) } }), [[[], /^the model is nested too deeply \(more than 100 levels\)$/]]);
  const body = `{"contentTypes":{"api::thing.thing":{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}}}`;
  expectErrors(JSON.parse(body), [[[], /nested too deeply/]]);
});

// Deterministic fuzzing: mutate the blog example at random places with hostile values.
test('random mutations of the blog example never crash', () => {
  let seed = 42;
  const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const hostile = [null, undefined, 0, -1, 1.5, NaN, '', huge, '__proto__', 'constructor', 'api::post.post', 'blog.cta', [], [null], {}, { type: 'relation' }, true, 'oneToMany', 'manyWay', 'morphOne', ['blog.cta', 'blog.cta']];
  const containers = (node: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] => {
    if (node && typeof node === 'object') {
      out.push(node as Record<string, unknown>);
      for (const v of Object.values(node)) containers(v, out);
    }
    return out;
  };
  let failures = 0;
  for (let round = 0; round < 400; round++) {
    const input = blogInput();
    for (let m = 0; m < 1 + rand(4); m++) {
      const nodes = containers(input);
      const node = nodes[rand(nodes.length)]!;
      const keys = Object.keys(node);
      const key = keys.length && rand(3) ? keys[rand(keys.length)]! : ['type', 'target', 'inversedBy', 'mappedBy', 'component', 'components', 'min', 'default', 'enum'][rand(9)]!;
      node[key] = hostile[rand(hostile.length)];
    }
    try {
      parseModel(input);
    } catch (err) {
      assert.ok(err instanceof ValidationError, `round ${round}: ${(err as Error).stack}`);
      failures++;
    }
  }
  assert.ok(failures > 200, `most mutations should be invalid (${failures})`);
});
