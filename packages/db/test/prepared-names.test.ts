// A session's prepared-statement names on their own (no database): named at the second sighting,
// least recently used out when full, retired names handed over once, names never reused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PreparedNames } from '../src/prepared-names.ts';

const text = (n: number) => `SELECT ${n} FROM "p${n}"."t"`;

/** Sight `texts` twice each: the second sighting names it. */
function prepare(names: PreparedNames, ...texts: string[]): (string | undefined)[] {
  return texts.map((t) => (names.nameFor(t), names.nameFor(t)));
}

describe('PreparedNames', () => {
  it('names a text at its second sighting, and only statements our compilers write', () => {
    const names = new PreparedNames(3);
    assert.equal(names.nameFor(text(1)), undefined);
    const name = names.nameFor(text(1));
    assert.equal(name, 'cms_1');
    assert.equal(names.nameFor(text(1)), name);
    for (const other of ['START TRANSACTION', 'SET statement_timeout = 5', 'CREATE TABLE x (a int)']) {
      names.nameFor(other);
      assert.equal(names.nameFor(other), undefined, other);
    }
  });

  it('names nothing when the bound is 0 (DB_PREPARED_PER_CONNECTION=0)', () => {
    const names = new PreparedNames(0);
    assert.deepEqual(prepare(names, text(1), text(2)), [undefined, undefined]);
    assert.equal(names.size, 0);
    assert.deepEqual(names.takeRetired(), []);
  });

  it('evicts the least recently used name when full, retiring it for deallocation', () => {
    const names = new PreparedNames(3);
    assert.deepEqual(prepare(names, text(1), text(2), text(3)), ['cms_1', 'cms_2', 'cms_3']);
    assert.deepEqual(names.takeRetired(), []);
    // A hit makes text 1 the most recently used: text 2 is now the oldest.
    assert.equal(names.nameFor(text(1)), 'cms_1');
    assert.deepEqual(prepare(names, text(4)), ['cms_4']);
    assert.equal(names.size, 3);
    assert.deepEqual(names.takeRetired(), ['cms_2']);
    assert.deepEqual(names.takeRetired(), [], 'handed over once');
    // Text 3 next, then 1.
    prepare(names, text(5), text(6));
    assert.deepEqual(names.takeRetired(), ['cms_3', 'cms_1']);
    assert.equal(names.nameFor(text(4)), 'cms_4');
  });

  it('names an evicted text afresh after two more sightings, never reusing a name', () => {
    const names = new PreparedNames(2);
    prepare(names, text(1), text(2), text(3));
    assert.deepEqual(names.takeRetired(), ['cms_1']);
    assert.equal(names.nameFor(text(1)), undefined, 'a first sighting again');
    assert.equal(names.nameFor(text(1)), 'cms_4');
    assert.deepEqual(names.takeRetired(), ['cms_2']);
  });

  it('forgets a stale statement: retired, and its text prepared again under a new name', () => {
    const names = new PreparedNames(3);
    prepare(names, text(1), text(2));
    names.forget(text(1));
    names.forget('SELECT never named');
    assert.equal(names.size, 1);
    assert.deepEqual(names.takeRetired(), ['cms_1']);
    assert.deepEqual(prepare(names, text(1)), ['cms_3']);
    assert.deepEqual(names.takeRetired(), []);
  });
});
