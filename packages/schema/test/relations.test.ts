import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModel, USERS_UID, type Model } from '../src/index.ts';
import { A, component, contentType, expectErrors, thing } from './fixtures.ts';

const base = { required: false, private: false, localized: false };
const rel = (model: Model, uid: string, name: string) => {
  const { raw, ...rest } = model.contentTypes[uid]!.attributes[name]!;
  return rest;
};
const other = (attributes: unknown) => ({ 'api::other.other': contentType('other', attributes) });
const O = ['contentTypes', 'api::other.other', 'attributes'];

test('one-way relations of every kind are owners', () => {
  const kinds = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;
  const model = parseModel(thing(Object.fromEntries(kinds.map((k) => [k, { type: 'relation', relation: k, target: 'api::other.other' }])), { types: other({}) }));
  for (const k of kinds) {
    assert.deepEqual(rel(model, 'api::thing.thing', k), {
      ...base, name: k, kind: 'relation', relation: k, target: 'api::other.other', owner: true, many: k === 'oneToMany' || k === 'manyToMany',
    });
  }
});

test('oneWay and manyWay are one-way aliases', () => {
  const model = parseModel(thing({
    one: { type: 'relation', relation: 'oneWay', target: 'api::other.other' },
    many: { type: 'relation', relation: 'manyWay', target: 'api::other.other' },
  }, { types: other({}) }));
  assert.deepEqual(rel(model, 'api::thing.thing', 'one'), { ...base, name: 'one', kind: 'relation', relation: 'oneToOne', target: 'api::other.other', owner: true, many: false });
  assert.deepEqual(rel(model, 'api::thing.thing', 'many'), { ...base, name: 'many', kind: 'relation', relation: 'oneToMany', target: 'api::other.other', owner: true, many: true });
});

test('self relations: one-way and bidirectional', () => {
  const model = parseModel(thing({
    next: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing' },
    parent: { type: 'relation', relation: 'manyToOne', target: 'api::thing.thing', inversedBy: 'children' },
    children: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedBy: 'parent' },
  }));
  assert.deepEqual(rel(model, 'api::thing.thing', 'next'), { ...base, name: 'next', kind: 'relation', relation: 'oneToOne', target: 'api::thing.thing', owner: true, many: false });
  assert.deepEqual(rel(model, 'api::thing.thing', 'parent'), { ...base, name: 'parent', kind: 'relation', relation: 'manyToOne', target: 'api::thing.thing', inversedBy: 'children', owner: true, many: false });
  assert.deepEqual(rel(model, 'api::thing.thing', 'children'), { ...base, name: 'children', kind: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedBy: 'parent', owner: false, many: true });
});

test('bidirectional pairs of every kind', () => {
  const pairs = [['oneToOne', 'oneToOne'], ['oneToMany', 'manyToOne'], ['manyToOne', 'oneToMany'], ['manyToMany', 'manyToMany']] as const;
  for (const [mine, theirs] of pairs) {
    const model = parseModel(thing(
      { link: { type: 'relation', relation: mine, target: 'api::other.other', inversedBy: 'back', required: true } },
      { types: other({ back: { type: 'relation', relation: theirs, target: 'api::thing.thing', mappedBy: 'link', private: true } }) },
    ));
    assert.deepEqual(rel(model, 'api::thing.thing', 'link'), {
      ...base, required: true, name: 'link', kind: 'relation', relation: mine, target: 'api::other.other', inversedBy: 'back', owner: true,
      many: mine === 'oneToMany' || mine === 'manyToMany',
    });
    assert.deepEqual(rel(model, 'api::other.other', 'back'), {
      ...base, private: true, name: 'back', kind: 'relation', relation: theirs, target: 'api::thing.thing', mappedBy: 'link', owner: false,
      many: theirs === 'oneToMany' || theirs === 'manyToMany',
    });
  }
});

test('relation kind: required, known, not polymorphic', () => {
  expectErrors(thing({
    a: { type: 'relation', target: 'api::thing.thing' },
    b: { type: 'relation', relation: 'oneToFew', target: 'api::thing.thing' },
    c: { type: 'relation', relation: 'morphToMany', target: 'api::thing.thing' },
    d: { type: 'relation', relation: 'morphOne', target: 'api::thing.thing' },
    e: { type: 'relation', relation: 5, target: 'api::thing.thing' },
  }), [
    [[...A, 'a', 'relation'], /relation is required/],
    [[...A, 'b', 'relation'], /"oneToFew" is not one of oneToOne, oneToMany, manyToOne, manyToMany, oneWay, manyWay/],
    [[...A, 'c', 'relation'], /^polymorphic relations are not supported/],
    [[...A, 'd', 'relation'], /^polymorphic relations are not supported/],
    [[...A, 'e', 'relation'], /must be a string, got a number/],
  ]);
});

test('relation target: required, an existing content type (or the user type)', () => {
  expectErrors(thing({
    a: { type: 'relation', relation: 'oneToOne' },
    b: { type: 'relation', relation: 'oneToOne', target: 'api::nope.nope' },
    c: { type: 'relation', relation: 'oneToOne', target: 'plugin::upload.file' },
    d: { type: 'relation', relation: 'oneToOne', target: ['api::thing.thing'] },
    e: { type: 'relation', relation: 'oneToOne', target: 'toString' },
    f: { type: 'relation', relation: 'oneToOne', target: 'plugin::users-permissions.role' },
    g: { type: 'relation', relation: 'oneToOne', target: 'plugin::users-permissions.User' },
  }), [
    [[...A, 'a', 'target'], /target is required/],
    [[...A, 'b', 'target'], /"api::nope.nope" is not a content type of this model/],
    [[...A, 'c', 'target'], /^target "plugin::upload.file" is not a content type of this model \(use a media attribute for files\)$/],
    [[...A, 'd', 'target'], /must be a string, got an array/],
    [[...A, 'e', 'target'], /"toString" is not a content type/],
    [[...A, 'f', 'target'], /^target "plugin::users-permissions.role" is not a content type of this model$/],
    [[...A, 'g', 'target'], /^target "plugin::users-permissions.User" is not a content type of this model$/],
  ]);
});

test('one-way relations of every kind to the end-user type, in content types and components', () => {
  const kinds = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay'] as const;
  const defs = Object.fromEntries(kinds.map((k) => [k, { type: 'relation', relation: k, target: USERS_UID }]));
  const model = parseModel(thing(defs, { typeExtra: { pluginOptions: { i18n: { localized: true } } }, components: { 'a.b': component(defs) } }));
  for (const k of kinds) {
    const relation = k === 'oneWay' ? 'oneToOne' : k === 'manyWay' ? 'oneToMany' : k;
    const expected = { name: k, kind: 'relation', relation, target: USERS_UID, owner: true, many: relation === 'oneToMany' || relation === 'manyToMany' };
    // Relations of a localized type are localized (per locale version), whatever their target.
    assert.deepEqual(rel(model, 'api::thing.thing', k), { ...base, localized: true, ...expected });
    const { raw, ...inComponent } = model.components['a.b']!.attributes[k]!;
    assert.deepEqual(inComponent, { ...base, ...expected });
  }
});

test('relations to the end-user type must be one-way', () => {
  expectErrors(thing({
    a: { type: 'relation', relation: 'manyToOne', target: USERS_UID, inversedBy: 'articles' },
    b: { type: 'relation', relation: 'oneToMany', target: USERS_UID, mappedBy: 'author' },
    c: { type: 'relation', relation: 'oneToOne', target: USERS_UID, inversedBy: 'x', mappedBy: 'y' },
    d: { type: 'relation', relation: 'oneWay', target: USERS_UID, inversedBy: 'x' },
  }, { components: { 'a.b': component({ r: { type: 'relation', relation: 'manyToOne', target: USERS_UID, inversedBy: 'x' } }) } }), [
    [[...A, 'a', 'inversedBy'], /^relations to plugin::users-permissions\.user must be one-way \(inversedBy is not allowed: the user type cannot be edited\)$/],
    [[...A, 'b', 'mappedBy'], /^relations to plugin::users-permissions\.user must be one-way \(mappedBy is not allowed: the user type cannot be edited\)$/],
    [[...A, 'c', 'mappedBy'], /^inversedBy and mappedBy cannot both be set$/],
    [[...A, 'd', 'inversedBy'], /^oneWay relations are one-way/],
    [['components', 'a.b', 'attributes', 'r', 'inversedBy'], /^relations in components must be one-way/],
  ]);
});

test('a bidirectional pair cannot go through the end-user type (reported once, on the user side)', () => {
  expectErrors(thing(
    { owner: { type: 'relation', relation: 'manyToOne', target: 'api::other.other', inversedBy: 'back' } },
    { types: other({ back: { type: 'relation', relation: 'oneToMany', target: USERS_UID, mappedBy: 'owner' } }) },
  ), [
    [[...O, 'back', 'mappedBy'], /^relations to plugin::users-permissions\.user must be one-way/],
  ]);
});

test('at most one of inversedBy/mappedBy; none on oneWay/manyWay', () => {
  expectErrors(thing({
    a: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing', inversedBy: 'b', mappedBy: 'b' },
    w: { type: 'relation', relation: 'oneWay', target: 'api::thing.thing', inversedBy: 'x' },
    m: { type: 'relation', relation: 'manyWay', target: 'api::thing.thing', mappedBy: 'x' },
    n: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing', inversedBy: 'not a name' },
  }), [
    [[...A, 'a', 'mappedBy'], /inversedBy and mappedBy cannot both be set/],
    [[...A, 'w', 'inversedBy'], /oneWay relations are one-way/],
    [[...A, 'm', 'mappedBy'], /manyWay relations are one-way/],
    [[...A, 'n', 'inversedBy'], /"not a name" is not a valid attribute name/],
  ]);
});

test('inversedBy must name a relation on the target that maps back', () => {
  expectErrors(thing({
    missing: { type: 'relation', relation: 'oneToOne', target: 'api::other.other', inversedBy: 'nothing' },
    scalar: { type: 'relation', relation: 'oneToOne', target: 'api::other.other', inversedBy: 'title' },
    wrongBack: { type: 'relation', relation: 'oneToOne', target: 'api::other.other', inversedBy: 'elsewhere' },
    selfPointing: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing', inversedBy: 'selfPointing' },
  }, { types: other({
    title: { type: 'string' },
    elsewhere: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing', mappedBy: 'somethingElse' },
  }) }), [
    [[...A, 'missing', 'inversedBy'], /api::other.other has no attribute "nothing"/],
    [[...A, 'scalar', 'inversedBy'], /api::other.other.title is not a relation/],
    [[...A, 'wrongBack', 'inversedBy'], /api::other.other.elsewhere must be a relation to api::thing.thing with mappedBy "wrongBack"/],
    [[...A, 'selfPointing', 'inversedBy'], /api::thing.thing.selfPointing must be a relation to api::thing.thing with mappedBy "selfPointing"/],
    [[...O, 'elsewhere', 'mappedBy'], /api::thing.thing has no attribute "somethingElse"/],
  ]);
});

test('mappedBy must name a relation on the target with inversedBy back to it, and the same target', () => {
  expectErrors({
    contentTypes: {
      ...thing({ back: { type: 'relation', relation: 'oneToMany', target: 'api::other.other', mappedBy: 'link' } }).contentTypes,
      ...other({ link: { type: 'relation', relation: 'manyToOne', target: 'api::third.third', inversedBy: 'back' } }),
      'api::third.third': contentType('third', { back: { type: 'relation', relation: 'oneToMany', target: 'api::other.other', mappedBy: 'link' } }),
    },
  }, [
    [[...A, 'back', 'mappedBy'], /api::other.other.link must be a relation to api::thing.thing with inversedBy "back"/],
  ]);
});

test('paired kinds must mirror each other (reported once, on the inversedBy side)', () => {
  const bad = [['oneToOne', 'oneToMany'], ['oneToMany', 'oneToMany'], ['manyToOne', 'manyToOne'], ['manyToMany', 'oneToMany']] as const;
  for (const [mine, theirs] of bad) {
    expectErrors(thing(
      { link: { type: 'relation', relation: mine, target: 'api::other.other', inversedBy: 'back' } },
      { types: other({ back: { type: 'relation', relation: theirs, target: 'api::thing.thing', mappedBy: 'link' } }) },
    ), [[[...A, 'link', 'relation'], new RegExp(`relation ${mine} must be paired with \\w+, but api::other.other.back is ${theirs}`)]]);
  }
});

test('a relation whose peer is itself invalid is not reported twice', () => {
  expectErrors(thing(
    { link: { type: 'relation', relation: 'oneToOne', target: 'api::other.other', inversedBy: 'back' } },
    { types: other({ back: { type: 'relation', relation: 'morphOne', target: 'api::thing.thing', mappedBy: 'link' } }) },
  ), [[[...O, 'back', 'relation'], /polymorphic/]]);
});

test('relations inside components must be one-way', () => {
  expectErrors(thing({}, { components: { 'a.b': { info: { displayName: 'B' }, attributes: {
    r: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedBy: 'x' },
    s: { type: 'relation', relation: 'manyToOne', target: 'api::thing.thing', inversedBy: 'y' },
  } } } }), [
    [['components', 'a.b', 'attributes', 'r', 'mappedBy'], /relations in components must be one-way/],
    [['components', 'a.b', 'attributes', 's', 'inversedBy'], /relations in components must be one-way/],
  ]);
});
