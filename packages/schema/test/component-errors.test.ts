import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModel } from '../src/index.ts';
import { component, errorsOf, expectErrors, thing } from './fixtures.ts';

const C = (uid: string, ...rest: string[]) => ['components', uid, ...rest];
const nest = (uid: string) => ({ type: 'component', component: uid });

test('component uid: {category}.{name}, both kebab-case, at most 40 characters each', () => {
  for (const uid of ['seo', 'a.b.c', 'Shared.seo', 'shared.Seo', 'shared.', '.seo', 'shared.seo_meta', 'shared seo.x', `${'a'.repeat(41)}.b`, `a.${'b'.repeat(41)}`, '__proto__', 'constructor']) {
    expectErrors({ contentTypes: {}, components: { [uid]: component() } }, [
      [C(uid), /^component uid .* must be \{category\}.\{name\}, both kebab-case and at most 40 characters$/],
    ]);
  }
  const ok = `${'a'.repeat(40)}.${'b'.repeat(40)}`;
  const model = parseModel({ contentTypes: {}, components: { [ok]: component(), 'my-cat.my-name-2': component() } });
  assert.equal(model.components[ok]!.category, 'a'.repeat(40));
  assert.equal(model.components['my-cat.my-name-2']!.collectionName, 'components_my_cat_my_name_2s');
});

test('component info.displayName is required; collectionName validated', () => {
  expectErrors({ contentTypes: {}, components: { 'a.b': { attributes: {} } } }, [[C('a.b', 'info'), /^info is required$/]]);
  expectErrors({ contentTypes: {}, components: { 'a.b': { info: {}, attributes: {} } } }, [[C('a.b', 'info', 'displayName'), /^displayName is required$/]]);
  expectErrors({ contentTypes: {}, components: { 'a.b': { info: { displayName: '' }, attributes: {} } } }, [[C('a.b', 'info', 'displayName'), /must not be empty/]]);
  expectErrors({ contentTypes: {}, components: { 'a.b': component({}, { collectionName: 'Bad-Name' }) } }, [[C('a.b', 'collectionName'), /must match/]]);
  expectErrors({ contentTypes: {}, components: { 'a.b': { info: { displayName: 'x' } } } }, [[C('a.b', 'attributes'), /^attributes is required$/]]);
});

test('component nesting cycles: self, pairs, longer loops', () => {
  expectErrors({ contentTypes: {}, components: { 'a.self': component({ me: nest('a.self') }) } }, [
    [C('a.self', 'attributes', 'me', 'component'), /^component nesting cycle: a.self → a.self$/],
  ]);
  expectErrors({ contentTypes: {}, components: { 'a.x': component({ y: nest('a.y') }), 'a.y': component({ x: { ...nest('a.x'), repeatable: true } }) } }, [
    [C('a.y', 'attributes', 'x', 'component'), /^component nesting cycle: a.x → a.y → a.x$/],
  ]);
  expectErrors({ contentTypes: {}, components: {
    'a.p': component({ q: nest('a.q') }), 'a.q': component({ r: nest('a.r') }), 'a.r': component({ p: nest('a.p'), s: nest('a.s') }), 'a.s': component(),
  } }, [
    [C('a.r', 'attributes', 'p', 'component'), /^component nesting cycle: a.p → a.q → a.r → a.p$/],
  ]);
});

test('component nesting deeper than 5 levels', () => {
  const chain = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`d.l${i + 1}`, component(i + 1 < n ? { next: nest(`d.l${i + 2}`) } : {})]));
  assert.ok(parseModel({ contentTypes: {}, components: chain(5) }));
  expectErrors({ contentTypes: {}, components: chain(7) }, [
    [C('d.l1', 'attributes', 'next', 'component'), /^components can be nested at most 5 levels deep: d.l1 → d.l2 → d.l3 → d.l4 → d.l5 → d.l6 → d.l7 is 7$/],
    [C('d.l2', 'attributes', 'next', 'component'), /d.l2 → d.l3 → d.l4 → d.l5 → d.l6 → d.l7 is 6$/],
  ]);
  // Long chains are shortened in messages.
  const errors = errorsOf({ contentTypes: {}, components: chain(30) });
  assert.equal(errors.length, 25);
  assert.equal(errors[0]!.message, 'components can be nested at most 5 levels deep: d.l1 → d.l2 → d.l3 → d.l4 → … → d.l28 → d.l29 → d.l30 is 30');
  // Depth follows the longest path, whichever attribute it goes through.
  const wide = { ...chain(5), 'd.top': component({ short: nest('d.l5'), long: nest('d.l1') }) };
  expectErrors({ contentTypes: {}, components: wide }, [[C('d.top', 'attributes', 'long', 'component'), /is 6$/]]);
});

test('a diamond of components is not a cycle', () => {
  const model = parseModel(thing({ top: nest('g.top') }, { components: {
    'g.top': component({ l: nest('g.left'), r: nest('g.right') }), 'g.left': component({ b: nest('g.bottom') }),
    'g.right': component({ b: nest('g.bottom') }), 'g.bottom': component({ x: { type: 'string' } }),
  } }));
  assert.deepEqual(Object.keys(model.components), ['g.top', 'g.left', 'g.right', 'g.bottom']);
});
