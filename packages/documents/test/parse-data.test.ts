// parseDocumentData: body keys, every scalar type and option, draft vs publishing, create vs
// update, defaults, components, dynamic zones, relations, media, hostile inputs, and a fuzz.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError, type FieldError } from '@cms/errors';
import { parseModel } from '@cms/schema';
import { parseDocumentData, type ParseDataOptions } from '../src/index.ts';
import type { RowWrite } from '../src/write-input.ts';
import { ARTICLE, CHEF, RESTAURANT, SPEC, fixtureModel } from './helpers/model.ts';

const model = fixtureModel();

function parse(uid: string, data: unknown, opts: Partial<ParseDataOptions> = {}): RowWrite {
  return parseDocumentData(data, { model, uid, mode: 'create', publishing: false, canFind: () => true, ...opts });
}

function failure(uid: string, data: unknown, opts: Partial<ParseDataOptions> = {}): ValidationError {
  try {
    parse(uid, data, opts);
  } catch (err) {
    assert.ok(err instanceof ValidationError, `expected a ValidationError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a ValidationError');
}

function errorsOf(uid: string, data: unknown, opts: Partial<ParseDataOptions> = {}): FieldError[] {
  const err = failure(uid, data, opts);
  assert.ok(Array.isArray(err.details.errors), `expected field errors, got ${err.message}`);
  return err.details.errors as FieldError[];
}

/** Exactly one field error; checks the top message equals it. */
function oneError(uid: string, data: unknown, opts: Partial<ParseDataOptions> = {}): FieldError {
  const err = failure(uid, data, opts);
  const errors = err.details.errors as FieldError[];
  assert.equal(errors?.length, 1, JSON.stringify(err.details));
  assert.equal(err.message, errors[0]!.message);
  return errors[0]!;
}

const fe = (path: string[], message: string, value: unknown): FieldError => ({ path, message, name: 'ValidationError', value });

/** A restaurant scalar written alone (update mode: no defaults, no required-absent errors). */
function scalar(name: string, value: unknown, publishing = false, uid = RESTAURANT): string | null | undefined {
  return parse(uid, { [name]: value }, { mode: 'update', publishing }).scalars.get(name);
}

function scalarError(name: string, value: unknown, publishing = false, uid = RESTAURANT): FieldError {
  return oneError(uid, { [name]: value }, { mode: 'update', publishing });
}

const typeMsg = (label: string, word: string, shown: string) => `${label} must be a \`${word}\` type, but the final value was: \`${shown}\`.`;
const nanMsg = (label: string, shown: string, final = 'NaN') =>
  `${label} must be a \`number\` type, but the final value was: \`${final}\` (cast from the value \`${shown}\`).`;

const nest = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

/** The minimal publishable spec body. */
const SPEC_BODY = () => ({ name: 'Alpha', mood: 'happy', seo: {}, zone: [{ __component: 'shared.quote' }] });

// ───────────────────────────── body and keys ─────────────────────────────

describe('data payload', () => {
  for (const data of [null, undefined, [], [{}], 'x', 5, true]) {
    it(`refuses ${JSON.stringify(data)}`, () => {
      const err = failure(RESTAURANT, data);
      assert.equal(err.message, 'Missing "data" payload in the request body');
      assert.deepEqual(err.details, {});
      assert.equal(err.status, 400);
    });
  }

  it('accepts an empty object', () => {
    const row = parse(RESTAURANT, {}, { mode: 'update' });
    assert.deepEqual(row, { scalars: new Map(), components: new Map(), dynamicZones: new Map(), relations: new Map(), media: new Map() });
  });

  it('throws a programming error for an unknown content type', () => {
    assert.throws(() => parse('api::nope.nope', {}), (err: unknown) => !(err instanceof ValidationError));
  });
});

describe('invalid keys', () => {
  const invalid = (data: unknown, key: string, path: string | null, opts: Partial<ParseDataOptions> = {}) => {
    const err = failure(RESTAURANT, data, opts);
    assert.equal(err.message, `Invalid key ${key}`);
    assert.deepEqual(err.details, { key, path, source: 'body' });
  };

  it('unknown key', () => invalid({ name: 'x', nope: 1 }, 'nope', null));
  it('id and documentId', () => {
    invalid({ id: 1 }, 'id', null);
    invalid({ documentId: 'abc' }, 'documentId', null);
  });
  for (const key of ['createdAt', 'updatedAt', 'createdBy', 'updatedBy']) {
    it(`${key} has path = key`, () => invalid({ [key]: 'x' }, key, key));
  }
  it('publishedAt and locale are dropped silently', () => {
    const row = parse(RESTAURANT, { name: 'A', publishedAt: '2020-01-01', locale: 'fr' }, { mode: 'update' });
    assert.deepEqual([...row.scalars], [['name', 'A']]);
  });
  it('prototype names are plain unknown keys', () => {
    invalid(JSON.parse('{"__proto__":{"name":"x"}}'), '__proto__', null);
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) invalid({ [key]: 1 }, key, null);
  });
  it('reports the first invalid key only', () => {
    invalid({ zzz: 1, id: 2, createdAt: 3 }, 'zzz', null);
  });
  it('comes before attribute validation', () => {
    invalid({ rating: 'abc', email: 'bad', nope: 1 }, 'nope', null);
    invalid({ rating: 'abc', seo: { nope: 1 } }, 'nope', 'seo.nope');
  });
  it('nested component keys carry a dotted path', () => {
    invalid({ seo: { metaTitle: 'x', nope: 1 } }, 'nope', 'seo.nope');
    invalid({ seo: { social: { network: 'x', nope: 1 } } }, 'nope', 'seo.social.nope');
    invalid({ seo: { createdAt: 1 } }, 'createdAt', 'seo.createdAt');
    invalid({ seo: { documentId: 'x' } }, 'documentId', 'seo.documentId');
    invalid({ seo: { locale: 'fr' } }, 'locale', 'seo.locale');
    invalid({ seo: { __component: 'shared.seo' } }, '__component', 'seo.__component');
    invalid({ seo: JSON.parse('{"__proto__":1}') }, '__proto__', 'seo.__proto__');
  });
  it('repeatable and dynamic-zone items', () => {
    const inArticle = (data: unknown, key: string, path: string) => {
      const err = failure(ARTICLE, data);
      assert.equal(err.message, `Invalid key ${key}`);
      assert.deepEqual(err.details, { key, path, source: 'body' });
    };
    inArticle({ blocks: [{ __component: 'shared.quote', nope: 1 }] }, 'nope', 'blocks.0.nope');
    inArticle({ sections: [{ body: 'a' }, { body: 'b', nope: 1 }] }, 'nope', 'sections.1.nope');
    inArticle({ sections: [{ __component: 'shared.quote' }] }, '__component', 'sections.0.__component');
    inArticle({ blocks: [{ __component: 'shared.seo', social: { nope: 1 } }] }, 'nope', 'blocks.0.social.nope');
  });
  it('a key of a relation the caller cannot find is still a known key', () => {
    const row = parse(RESTAURANT, { chef: 'x' }, { mode: 'update', canFind: () => false });
    assert.equal(row.relations.size, 0);
  });
});

// ───────────────────────────── scalars ─────────────────────────────

describe('string types', () => {
  it('string, text, richtext accept strings, numbers, booleans', () => {
    assert.equal(scalar('name', 'Chez A'), 'Chez A');
    assert.equal(scalar('name', ''), '');
    assert.equal(scalar('name', 12.5), '12.5');
    assert.equal(scalar('name', false), 'false');
  });
  it('objects and arrays are type errors', () => {
    assert.deepEqual(scalarError('name', { a: 1 }), fe(['name'], typeMsg('name', 'string', '{"a":1}'), { a: 1 }));
    assert.deepEqual(scalarError('name', [1]), fe(['name'], typeMsg('name', 'string', '[1]'), [1]));
    assert.deepEqual(scalarError('title', {}, false, ARTICLE), fe(['title'], typeMsg('title', 'string', '{}'), {}));
  });
  it('NUL characters are refused', () => {
    assert.deepEqual(scalarError('name', 'a\u0000b'), fe(['name'], 'name must not contain the NUL character', 'a\u0000b'));
    assert.equal(scalarError('email', 'a\u0000@b.co').message, 'email must not contain the NUL character');
    assert.equal(scalarError('kind', '\u0000').message, 'kind must not contain the NUL character');
    assert.equal(scalarError('pin', '\u0000').message, 'pin must not contain the NUL character');
  });
  it('email', () => {
    assert.equal(scalar('email', 'obs@example.com'), 'obs@example.com');
    assert.equal(scalar('email', "o'b.s+x@mail.example.co"), "o'b.s+x@mail.example.co");
    assert.equal(scalar('email', ''), '');
    assert.deepEqual(scalarError('email', 'bad'), fe(['email'], 'email must be a valid email', 'bad'));
    for (const bad of ['a@', '@b.co', 'a b@c.de', 'a@b..c', 'a@-b.co', `${'a'.repeat(20)}@${'b'.repeat(70)}.com`]) {
      assert.equal(scalarError('email', bad).message, 'email must be a valid email', bad);
    }
  });
  it('email regex is linear on hostile input', () => {
    const start = Date.now();
    assert.equal(scalarError('email', `${'a'.repeat(100_000)}@${'b-'.repeat(100_000)}`).message, 'email must be a valid email');
    assert.ok(Date.now() - start < 1000);
  });
  it('enumeration', () => {
    assert.equal(scalar('kind', 'cafe'), 'cafe');
    assert.equal(scalar('kind', null), null);
    assert.deepEqual(scalarError('kind', 'pub'), fe(['kind'], 'kind must be one of the following values: bistro, brasserie, cafe, ', 'pub'));
    assert.equal(scalarError('kind', 'Cafe').message, 'kind must be one of the following values: bistro, brasserie, cafe, ');
    assert.equal(scalarError('kind', {}).message, typeMsg('kind', 'string', '{}'));
  });
  it('password keeps the plain text; private attributes are writable', () => {
    assert.equal(scalar('pin', 'hunter2'), 'hunter2');
    assert.equal(scalar('secret', 's3cr3t'), 's3cr3t');
  });
  it('uid: default pattern, always checked', () => {
    assert.equal(scalar('slug', 'Ok-slug_1.~', false, SPEC), 'Ok-slug_1.~');
    const expected = fe(['slug'], 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'bad slug');
    assert.deepEqual(scalarError('slug', 'bad slug', false, SPEC), expected);
    assert.deepEqual(scalarError('slug', 'bad slug', true, SPEC), expected);
  });
  it('uid: its own regex replaces the default; targetField is not generated', () => {
    assert.equal(scalar('handle', 'abc', false, SPEC), 'abc');
    assert.deepEqual(scalarError('handle', 'ABC', false, SPEC), fe(['handle'], 'handle must match the following: "/^[a-z]+$/"', 'ABC'));
    const row = parse(SPEC, { name: 'Alpha' });
    assert.equal(row.scalars.has('handle'), false);
    assert.equal(row.scalars.has('slug'), false);
  });
});

describe('numbers', () => {
  it('integer', () => {
    assert.equal(scalar('rating', 5), '5');
    assert.equal(scalar('rating', '5'), '5');
    assert.equal(scalar('rating', ' -12 '), '-12');
    assert.equal(scalar('rating', '1e3'), '1000');
    assert.equal(scalar('rating', 2147483647), '2147483647');
    assert.equal(scalar('rating', -2147483648), '-2147483648');
    assert.equal(scalar('rating', null), null);
  });
  it('integer errors', () => {
    assert.deepEqual(scalarError('rating', 'abc'), fe(['rating'], nanMsg('rating', '"abc"'), 'abc'));
    assert.equal(scalarError('rating', '').message, nanMsg('rating', '""'));
    assert.equal(scalarError('rating', true).message, nanMsg('rating', 'true'));
    assert.equal(scalarError('rating', { a: 1 }).message, nanMsg('rating', '{"a":1}'));
    assert.equal(scalarError('rating', [1]).message, nanMsg('rating', '[1]'));
    assert.equal(scalarError('rating', 1.5).message, 'rating must be an integer');
    assert.equal(scalarError('rating', '1.5').message, 'rating must be an integer');
    assert.deepEqual(scalarError('rating', 2147483648), fe(['rating'], 'rating must be less than or equal to 2147483647', 2147483648));
    assert.equal(scalarError('rating', '-2147483649').message, 'rating must be greater than or equal to -2147483648');
    assert.equal(scalarError('rating', '1e400').message, 'rating must be less than or equal to 2147483647');
  });
  it('biginteger', () => {
    assert.equal(scalar('visits', '9007199254740993'), '9007199254740993');
    assert.equal(scalar('visits', 12), '12');
    assert.equal(scalar('visits', '-9223372036854775808'), '-9223372036854775808');
    assert.equal(scalar('visits', '9223372036854775807'), '9223372036854775807');
    assert.equal(scalar('visits', '+0012'), '12');
    assert.equal(scalar('visits', '2e3'), '2000');
  });
  it('biginteger errors', () => {
    assert.equal(scalarError('visits', '9223372036854775808').message, 'visits must be less than or equal to 9223372036854775807');
    assert.equal(scalarError('visits', '-9223372036854775809').message, 'visits must be greater than or equal to -9223372036854775808');
    assert.equal(scalarError('visits', 1e20).message, 'visits must be less than or equal to 9223372036854775807');
    assert.equal(scalarError('visits', 2 ** 60).message, 'visits must be a safe integer (send larger values as a string of digits)');
    assert.equal(scalarError('visits', 'x').message, nanMsg('visits', '"x"'));
    assert.equal(scalarError('visits', 1.5).message, 'visits must be an integer');
    assert.equal(scalarError('visits', '1.5').message, 'visits must be an integer');
    assert.equal(scalarError('visits', '1'.repeat(400)).message, 'visits must be less than or equal to 9223372036854775807');
  });
  it('float', () => {
    assert.equal(scalar('score', 1.5), '1.5');
    assert.equal(scalar('score', '2.5e3'), '2500');
    assert.equal(scalar('score', '-.5'), '-0.5');
    assert.equal(scalarError('score', 'abc').message, nanMsg('score', '"abc"'));
    assert.equal(scalarError('score', '1e400').message, nanMsg('score', '"1e400"', 'Infinity'));
    assert.equal(scalarError('score', false).message, nanMsg('score', 'false'));
  });
  it('decimal', () => {
    assert.equal(scalar('price', '12.30'), '12.30');
    assert.equal(scalar('price', 12.5), '12.5');
    assert.equal(scalar('price', '1e5'), '1e5');
    assert.equal(scalar('price', `1${'0'.repeat(999)}`), `1${'0'.repeat(999)}`);
    assert.equal(scalarError('price', 'abc').message, nanMsg('price', '"abc"'));
    assert.equal(scalarError('price', 'NaN').message, nanMsg('price', '"NaN"'));
    assert.equal(scalarError('price', 'Infinity').message, nanMsg('price', '"Infinity"'));
    assert.equal(scalarError('price', '1e2000').message, nanMsg('price', '"1e2000"', 'Infinity'));
    assert.equal(scalarError('price', '1e-1001').message, nanMsg('price', '"1e-1001"', '0'));
    assert.match(scalarError('price', '1'.repeat(1001)).message, /^price must be a `number` type/);
  });
  it('min and max: min on publishing writes only, max always', () => {
    assert.equal(scalar('rating', 0, false, SPEC), '0');
    assert.deepEqual(scalarError('rating', 0, true, SPEC), fe(['rating'], 'rating must be greater than or equal to 1', 0));
    assert.deepEqual(scalarError('rating', '6', false, SPEC), fe(['rating'], 'rating must be less than or equal to 5', 6)); // Strapi 5: the error's value is the cast number
    assert.equal(scalarError('rating', 6, true, SPEC).message, 'rating must be less than or equal to 5');
    assert.equal(scalarError('big', '5', true, SPEC).message, 'big must be greater than or equal to 10');
    assert.equal(scalar('big', '5', false, SPEC), '5');
    assert.equal(scalarError('big', '9000000000000001', false, SPEC).message, 'big must be less than or equal to 9000000000000000');
    assert.equal(scalarError('ratio', 1.5, false, SPEC).message, 'ratio must be less than or equal to 1');
    assert.equal(scalarError('ratio', -0.1, true, SPEC).message, 'ratio must be greater than or equal to 0');
    assert.equal(scalarError('amount', '1000.01', false, SPEC).message, 'amount must be less than or equal to 1000');
    assert.equal(scalarError('amount', '-1', true, SPEC).message, 'amount must be greater than or equal to 0');
  });
});

describe('booleans and dates', () => {
  it('boolean', () => {
    assert.equal(scalar('open', true), 'true');
    assert.equal(scalar('open', false), 'false');
    assert.equal(scalar('open', 'true'), 'true');
    assert.equal(scalar('open', 'false'), 'false');
    assert.equal(scalar('open', 1), 'true');
    assert.equal(scalar('open', 0), 'false');
    assert.deepEqual(scalarError('open', 'x'), fe(['open'], typeMsg('open', 'boolean', '"x"'), 'x'));
    assert.equal(scalarError('open', 2).message, typeMsg('open', 'boolean', '2'));
    assert.equal(scalarError('open', {}).message, typeMsg('open', 'boolean', '{}'));
  });
  it('date', () => {
    assert.equal(scalar('openedOn', '2020-05-17'), '2020-05-17');
    assert.equal(scalar('openedOn', '2020-05-17T10:00:00.000Z'), '2020-05-17');
    assert.deepEqual(scalarError('openedOn', '2020-02-30'), fe(['openedOn'], 'Invalid date', '2020-02-30')); // Strapi 5: well-formed but impossible
    assert.deepEqual(scalarError('openedOn', '2020-13-01').message, 'Invalid date');
    assert.equal(scalarError('openedOn', '17/05/2020').message, 'Invalid format, expected yyyy-MM-dd');
    assert.equal(scalarError('openedOn', 20200517).message, 'Invalid format, expected yyyy-MM-dd');
  });
  it('time', () => {
    assert.equal(scalar('opensAt', '10:30:00'), '10:30:00');
    assert.equal(scalar('opensAt', '10:30:00.123'), '10:30:00.123');
    assert.deepEqual(scalarError('opensAt', '10:30'), fe(['opensAt'], 'Invalid time format, expected HH:mm:ss.SSS', '10:30'));
    for (const bad of ['25:00:00', '10:60:00', '10:30:61', 1030, 'noon', '10:30:00Z']) {
      assert.equal(scalarError('opensAt', bad).message, 'Invalid time format, expected HH:mm:ss.SSS', String(bad));
    }
  });
  it('datetime', () => {
    assert.equal(scalar('lastVisit', '2024-02-03T04:05:06.789Z'), '2024-02-03T04:05:06.789Z');
    assert.equal(scalar('lastVisit', '2024-02-03T05:05:06+01:00'), '2024-02-03T04:05:06.000Z');
    assert.equal(scalar('lastVisit', '2024-02-03'), '2024-02-03T00:00:00.000Z');
    assert.equal(scalar('lastVisit', 0), '1970-01-01T00:00:00.000Z');
    assert.equal(scalar('lastVisit', '1700000000000'), '2023-11-14T22:13:20.000Z');
    assert.deepEqual(scalarError('lastVisit', 'yesterday'),
      fe(['lastVisit'], 'Invalid format, expected a timestamp or an ISO date', 'yesterday'));
    assert.equal(scalarError('lastVisit', '2024-13-01').message, 'Invalid format, expected a timestamp or an ISO date');
    assert.equal(scalarError('lastVisit', true).message, 'Invalid format, expected a timestamp or an ISO date');
    assert.equal(scalarError('lastVisit', 1e17).message, 'Invalid format, expected a timestamp or an ISO date');
  });
});

describe('json and blocks', () => {
  it('json takes any JSON value; null is SQL null', () => {
    assert.equal(scalar('tags', { a: [1, 2] }), '{"a":[1,2]}');
    assert.equal(scalar('tags', [1, 'x', null]), '[1,"x",null]');
    assert.equal(scalar('tags', 'str'), '"str"');
    assert.equal(scalar('tags', 5), '5');
    assert.equal(scalar('tags', false), 'false');
    assert.equal(scalar('tags', null), null);
    assert.equal(scalar('tags', JSON.parse('{"__proto__":{"x":1},"constructor":2}')), '{"__proto__":{"x":1},"constructor":2}');
  });
  it('nesting is bounded at 64 levels', () => {
    assert.equal(scalar('tags', nest(64)), JSON.stringify(nest(64)));
    const err = scalarError('tags', nest(65));
    assert.deepEqual(err, { path: ['tags'], message: 'tags is nested too deeply (at most 64 levels)', name: 'ValidationError' });
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    assert.equal(scalarError('tags', deep).message, 'tags is nested too deeply (at most 64 levels)');
    assert.equal(scalarError('description', [{ children: deep }]).message, 'description is nested too deeply (at most 64 levels)');
  });
  it('NUL anywhere in a json value, keys included', () => {
    assert.equal(scalarError('tags', { a: ['ok', 'b\u0000'] }).message, 'tags must not contain the NUL character');
    assert.equal(scalarError('tags', { 'k\u0000': 1 }).message, 'tags must not contain the NUL character');
    assert.equal(scalarError('tags', '\u0000').message, 'tags must not contain the NUL character');
    assert.equal(scalarError('tags', { a: '\uD800' }).message, 'tags must not contain unpaired surrogate characters');
    assert.equal(scalar('tags', { a: '\uD83D\uDE00' }), '{"a":"😀"}');
  });
  it('blocks must be an array of objects', () => {
    const doc = [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }];
    assert.equal(scalar('description', doc), JSON.stringify(doc));
    assert.equal(scalar('description', []), '[]');
    assert.equal(scalar('description', null), null);
    assert.deepEqual(scalarError('description', 'x'), fe(['description'], typeMsg('description', 'array', '"x"'), 'x'));
    assert.equal(scalarError('description', {}).message, typeMsg('description', 'array', '{}'));
    assert.equal(scalarError('description', [1]).message, typeMsg('description', 'array', '[1]'));
    assert.equal(scalarError('description', [{ text: 'a\u0000' }]).message, 'description must not contain the NUL character');
  });
  it('long or deep values in messages are shortened, never thrown on', () => {
    const err = scalarError('name', { k: 'x'.repeat(2000) });
    assert.ok(err.message.length < 700);
    assert.ok(err.message.includes('…'));
    const deep = scalarError('name', nest(200));
    assert.equal(deep.message, typeMsg('name', 'string', '[nested too deeply]'));
    assert.equal('value' in deep, false);
  });
});

// ───────────────────────────── required / draft / publishing / defaults ─────────────────────────────

describe('required', () => {
  it('a missing required attribute on a publishing create', () => {
    const body = SPEC_BODY() as Record<string, unknown>;
    delete body.name;
    assert.deepEqual(oneError(SPEC, body, { publishing: true }),
      fe(['name'], 'name must be a `string` type, but the final value was: `null`.', null));
  });
  it('null on a publishing update', () => {
    assert.deepEqual(oneError(SPEC, { name: null }, { mode: 'update', publishing: true }),
      fe(['name'], 'name must be a `string` type, but the final value was: `null`.', null));
  });
  it('absent on update is fine; drafts skip required', () => {
    parse(SPEC, { rating: 3 }, { mode: 'update', publishing: true });
    const row = parse(SPEC, {}, { publishing: false });
    assert.equal(row.scalars.has('name'), false);
    assert.equal(parse(SPEC, { name: null }, { mode: 'update' }).scalars.get('name'), null);
  });
  it('several errors: all of them, in schema order', () => {
    const err = failure(SPEC, { rating: 'abc', contact: 'bad', zone: [] }, { publishing: true });
    assert.equal(err.message, '6 errors occurred');
    assert.deepEqual(err.details, {
      errors: [
        fe(['name'], 'name must be a `string` type, but the final value was: `null`.', null),
        fe(['rating'], nanMsg('rating', '"abc"'), 'abc'),
        fe(['mood'], 'mood must be a `string` type, but the final value was: `null`.', null),
        fe(['contact'], 'contact must be a valid email', 'bad'),
        fe(['seo'], 'seo must be defined.', null),
        fe(['zone'], 'zone field must have at least 1 items', null),
      ],
    });
  });
  it('type word per attribute type', () => {
    const words: Record<string, string> = {
      string: 'string', text: 'string', richtext: 'string', email: 'string', uid: 'string', password: 'string',
      integer: 'number', biginteger: 'number', float: 'number', decimal: 'number', boolean: 'boolean',
      date: 'date', time: 'date', datetime: 'date', blocks: 'array', json: 'mixed',
    };
    const attributes: Record<string, unknown> = { e: { type: 'enumeration', enum: ['a'], required: true } };
    for (const type of Object.keys(words)) attributes[`f${type}`] = { type, required: true };
    const m = parseModel({
      contentTypes: { 'api::req.req': { kind: 'collectionType', info: { singularName: 'req', pluralName: 'reqs', displayName: 'req' }, attributes } },
      components: {},
    });
    const err = (() => {
      try {
        parseDocumentData({}, { model: m, uid: 'api::req.req', mode: 'create', publishing: true, canFind: () => true });
      } catch (e) {
        return e as ValidationError;
      }
      assert.fail('expected errors');
    })();
    const messages = (err.details.errors as FieldError[]).map((e) => e.message);
    assert.deepEqual(messages, [
      'e must be a `string` type, but the final value was: `null`.',
      ...Object.entries(words).map(([type, word]) => `f${type} must be a \`${word}\` type, but the final value was: \`null\`.`),
    ]);
  });
});

describe('draft vs publishing options', () => {
  it('minLength on publishing only, maxLength always', () => {
    assert.equal(scalar('name', 'ab', false, SPEC), 'ab');
    assert.deepEqual(scalarError('name', 'ab', true, SPEC), fe(['name'], 'name must be at least 3 characters', 'ab'));
    assert.deepEqual(scalarError('name', 'abcdefghijk', false, SPEC), fe(['name'], 'name must be at most 10 characters', 'abcdefghijk'));
    assert.equal(scalarError('secret', 'abc', true, SPEC).message, 'secret must be at least 6 characters');
    assert.equal(scalar('secret', 'abc', false, SPEC), 'abc');
    assert.equal(scalarError('info', '123456', false, SPEC).message, 'info must be at most 5 characters');
  });
  it('regex on publishing only; an empty optional value passes', () => {
    assert.equal(scalar('code', 'abc', false, SPEC), 'abc');
    assert.deepEqual(scalarError('code', 'abc', true, SPEC), fe(['code'], 'code must match the following: "/^[A-Z]+$/"', 'abc'));
    assert.equal(scalar('code', 'ABC', true, SPEC), 'ABC');
    assert.equal(scalar('code', '', true, SPEC), '');
  });
  it('one value can fail several options', () => {
    const errors = errorsOf(SPEC, { name: 'abcdefghijk', code: 'abc' }, { mode: 'update', publishing: true });
    assert.deepEqual(errors.map((e) => e.message), ['name must be at most 10 characters', 'code must match the following: "/^[A-Z]+$/"']);
  });
  it('unique is not checked here', () => {
    assert.equal(scalar('contact', 'a@b.co', true, SPEC), 'a@b.co');
  });
});

describe('defaults', () => {
  it('apply on create to absent scalars, in schema order', () => {
    const row = parse(SPEC, {});
    assert.deepEqual([...row.scalars], [['count', '7'], ['flag', 'true'], ['at', '10:30:00'], ['label', 'none']]);
    assert.deepEqual(row.components, new Map());
  });
  it('not on update; not over a given value or null', () => {
    assert.equal(parse(SPEC, {}, { mode: 'update' }).scalars.size, 0);
    const row = parse(SPEC, { count: null, flag: false, label: 'x' });
    assert.deepEqual([...row.scalars], [['count', null], ['flag', 'false'], ['at', '10:30:00'], ['label', 'x']]);
  });
  it('fill a required attribute', () => {
    const m = parseModel({
      contentTypes: { 'api::d.d': { kind: 'collectionType', info: { singularName: 'd', pluralName: 'ds', displayName: 'd' },
        attributes: { n: { type: 'integer', required: true, default: 4 } } } },
      components: {},
    });
    const row = parseDocumentData({}, { model: m, uid: 'api::d.d', mode: 'create', publishing: true, canFind: () => true });
    assert.deepEqual([...row.scalars], [['n', '4']]);
  });
});

// ───────────────────────────── components and dynamic zones ─────────────────────────────

describe('components', () => {
  it('single component: object, nested component, relation and media', () => {
    const row = parse(RESTAURANT, { seo: { metaTitle: 'T', social: { network: 'x' }, featuredChef: 'c1', image: 7 } }, { mode: 'update' });
    const [item] = row.components.get('seo')!;
    assert.equal(item!.component, 'shared.seo');
    assert.equal(item!.id, null);
    assert.deepEqual([...item!.row.scalars], [['metaTitle', 'T']]);
    assert.deepEqual(item!.row.relations.get('featuredChef'), { kind: 'set', refs: [{ kind: 'document', documentId: 'c1' }] });
    assert.deepEqual(item!.row.media.get('image'), ['7']);
    const [social] = item!.row.components.get('social')!;
    assert.deepEqual(social, { component: 'shared.social', id: null, row: { ...emptyRow(), scalars: new Map([['network', 'x']]) } });
  });
  it('null clears; non-objects are type errors', () => {
    assert.deepEqual(parse(RESTAURANT, { seo: null }, { mode: 'update' }).components.get('seo'), []);
    assert.deepEqual(oneError(RESTAURANT, { seo: 'x' }), fe(['seo'], typeMsg('seo', 'object', '"x"'), 'x'));
    assert.equal(oneError(RESTAURANT, { seo: [{}] }).message, typeMsg('seo', 'object', '[{}]'));
  });
  it('nested errors carry path and yup label', () => {
    assert.deepEqual(oneError(RESTAURANT, { seo: { metaTitle: {} } }), fe(['seo', 'metaTitle'], typeMsg('seo.metaTitle', 'string', '{}'), {}));
    assert.deepEqual(oneError(RESTAURANT, { seo: { social: { handle: [] } } }),
      fe(['seo', 'social', 'handle'], typeMsg('seo.social.handle', 'string', '[]'), []));
    assert.equal(oneError(RESTAURANT, { seo: { featuredChef: true } }).message, 'seo.featuredChef is an invalid relation');
  });
  it('required component: must be defined on publishing writes', () => {
    const body = SPEC_BODY() as Record<string, unknown>;
    delete body.seo;
    assert.deepEqual(oneError(SPEC, body, { publishing: true }), fe(['seo'], 'seo must be defined.', null));
    assert.deepEqual(oneError(SPEC, { ...SPEC_BODY(), seo: null }, { publishing: true }), fe(['seo'], 'seo must be defined.', null));
    assert.deepEqual(parse(SPEC, { seo: null }, { mode: 'update' }).components.get('seo'), []);
    parse(SPEC, { name: 'Alpha' });
  });
  it('new items are created: defaults and required apply inside', () => {
    const row = parse(SPEC, { limited: { title: 'ab' } }, { mode: 'update' });
    assert.deepEqual([...row.components.get('limited')![0]!.row.scalars], [['title', 'ab'], ['count', '3']]);
    assert.deepEqual(oneError(SPEC, { limited: {} }, { mode: 'update', publishing: true }),
      fe(['limited', 'title'], 'limited.title must be a `string` type, but the final value was: `null`.', null));
    assert.equal(oneError(SPEC, { limited: { title: 'toolong' } }, { mode: 'update' }).message, 'limited.title must be at most 5 characters');
  });
  it('an item with an id updates that row, partially', () => {
    const row = parse(SPEC, { limited: { id: 5 } }, { mode: 'update', publishing: true });
    assert.deepEqual(row.components.get('limited'), [{ component: 'shared.limited', id: '5', row: emptyRow() }]);
    assert.equal(parse(SPEC, { limited: { id: '12', title: 'x' } }, { mode: 'update' }).components.get('limited')![0]!.id, '12');
    assert.equal(parse(SPEC, { limited: { id: null, title: 'x' } }, { mode: 'update' }).components.get('limited')![0]!.id, null);
  });
  it('bad item ids', () => {
    for (const id of [0, -1, 1.5, 'abc', '', true, {}, [1]]) {
      const err = oneError(RESTAURANT, { seo: { id } }, { mode: 'update' });
      assert.deepEqual(err.path, ['seo', 'id'], JSON.stringify(id));
      assert.equal(err.message, 'seo.id must be a valid id');
    }
  });
  it('repeatable components', () => {
    const row = parse(ARTICLE, { sections: [{ body: 'a' }, { id: 4, author: 'b' }] });
    assert.deepEqual(row.components.get('sections'), [
      { component: 'shared.quote', id: null, row: { ...emptyRow(), scalars: new Map([['body', 'a']]) } },
      { component: 'shared.quote', id: '4', row: { ...emptyRow(), scalars: new Map([['author', 'b']]) } },
    ]);
    assert.deepEqual(parse(ARTICLE, { sections: null }).components.get('sections'), []);
    assert.deepEqual(parse(ARTICLE, { sections: [] }).components.get('sections'), []);
    assert.deepEqual(oneError(ARTICLE, { sections: { body: 'a' } }), fe(['sections'], typeMsg('sections', 'array', '{"body":"a"}'), { body: 'a' }));
    assert.deepEqual(oneError(ARTICLE, { sections: [{}, 1] }), fe(['sections', '1'], typeMsg('sections[1]', 'object', '1'), 1));
    assert.deepEqual(oneError(ARTICLE, { sections: [{}, { body: {} }] }), fe(['sections', '1', 'body'], typeMsg('sections[1].body', 'string', '{}'), {}));
  });
  it('item counts: min on publishing writes, max always', () => {
    const one = [{ body: 'a' }];
    assert.deepEqual(oneError(SPEC, { quotes: [] }, { mode: 'update', publishing: true }), fe(['quotes'], 'quotes field must have at least 1 items', null));
    parse(SPEC, { quotes: [] }, { mode: 'update' });
    parse(SPEC, { quotes: one }, { mode: 'update', publishing: true });
    assert.deepEqual(oneError(SPEC, { quotes: [...one, ...one, ...one] }, { mode: 'update' }),
      fe(['quotes'], 'quotes field must have less than or equal to 2 items', null));
  });
  it('more than 1000 items are refused without looking at them', () => {
    assert.deepEqual(oneError(ARTICLE, { sections: Array.from({ length: 1001 }, () => 'junk') }),
      fe(['sections'], 'sections has too many items (at most 1000)', null));
    assert.equal(parse(ARTICLE, { sections: Array.from({ length: 1000 }, () => ({})) }).components.get('sections')!.length, 1000);
  });
});

describe('dynamic zones', () => {
  const ZONE = 'blocks[0].__component must be one of the following values: shared.quote, shared.rich-text, shared.seo';

  it('items record their component', () => {
    const row = parse(ARTICLE, { blocks: [{ __component: 'shared.quote', body: 'Q', author: 'A' }, { __component: 'shared.rich-text', body: '# x' }, { __component: 'shared.seo', id: '9' }] });
    assert.deepEqual(row.dynamicZones.get('blocks'), [
      { component: 'shared.quote', id: null, row: { ...emptyRow(), scalars: new Map([['body', 'Q'], ['author', 'A']]) } },
      { component: 'shared.rich-text', id: null, row: { ...emptyRow(), scalars: new Map([['body', '# x']]) } },
      { component: 'shared.seo', id: '9', row: emptyRow() },
    ]);
    assert.deepEqual(parse(ARTICLE, { blocks: null }).dynamicZones.get('blocks'), []);
  });
  it('unknown __component: exactly one error', () => {
    assert.deepEqual(failure(ARTICLE, { blocks: [{ __component: 'shared.nope', body: 'Q' }] }).details,
      { errors: [fe(['blocks', '0', '__component'], ZONE, 'shared.nope')] });
    assert.equal(failure(ARTICLE, { blocks: [{ __component: 'shared.nope' }] }).message, ZONE);
    assert.deepEqual(oneError(ARTICLE, { blocks: [{ __component: 'shared.social' }] }), fe(['blocks', '0', '__component'], ZONE, 'shared.social'));
  });
  it('missing or non-string __component', () => {
    assert.deepEqual(oneError(ARTICLE, { blocks: [{ body: 'Q' }] }), fe(['blocks', '0', '__component'], ZONE, null));
    assert.equal(oneError(ARTICLE, { blocks: [{ __component: ['shared.quote'] }] }).message, ZONE);
    assert.equal(oneError(ARTICLE, { blocks: [{ __component: 'toString' }] }).message, ZONE);
    assert.equal(oneError(ARTICLE, { blocks: [{ __component: '__proto__' }] }).message, ZONE);
  });
  it('non-array zone, non-object item', () => {
    assert.deepEqual(oneError(ARTICLE, { blocks: { __component: 'shared.quote' } }),
      fe(['blocks'], typeMsg('blocks', 'array', '{"__component":"shared.quote"}'), { __component: 'shared.quote' }));
    assert.deepEqual(oneError(ARTICLE, { blocks: ['shared.quote'] }), fe(['blocks', '0'], typeMsg('blocks[0]', 'object', '"shared.quote"'), 'shared.quote'));
  });
  it('errors inside items', () => {
    assert.deepEqual(oneError(ARTICLE, { blocks: [{ __component: 'shared.quote' }, { __component: 'shared.quote', body: [] }] }),
      fe(['blocks', '1', 'body'], typeMsg('blocks[1].body', 'string', '[]'), []));
    const errors = errorsOf(SPEC, { zone: [{ __component: 'shared.limited', title: 'toolong', quote: { body: {} } }] }, { mode: 'update' });
    assert.deepEqual(errors.map((e) => e.path.join('.')), ['zone.0.title', 'zone.0.quote.body']);
    assert.deepEqual(errors.map((e) => e.message), ['zone[0].title must be at most 5 characters', typeMsg('zone[0].quote.body', 'string', '{}')]);
  });
  it('required, min and max', () => {
    const body = SPEC_BODY() as Record<string, unknown>;
    delete body.zone;
    assert.deepEqual(oneError(SPEC, body, { publishing: true }), fe(['zone'], 'zone must be defined.', null));
    assert.deepEqual(oneError(SPEC, { ...SPEC_BODY(), zone: null }, { publishing: true }), fe(['zone'], 'zone must be defined.', null));
    assert.deepEqual(oneError(SPEC, { ...SPEC_BODY(), zone: [] }, { publishing: true }), fe(['zone'], 'zone field must have at least 1 items', null));
    const q = { __component: 'shared.quote' };
    assert.deepEqual(oneError(SPEC, { zone: [q, q, q] }, { mode: 'update' }), fe(['zone'], 'zone field must have less than or equal to 2 items', null));
    parse(SPEC, { zone: [] }, { mode: 'update' });
  });
  it('a whole publishable body, as the writer re-validates a merged document', () => {
    const row = parse(SPEC, {
      name: 'Alpha', mood: 'sad', rating: 3, big: '11', ratio: 0.5, amount: '12.30', day: '2024-02-03', at: '10:30:00',
      stamp: '2024-02-03T04:05:06.789Z', meta: { a: 1 }, body: [], contact: null, info: null, rich: null,
      seo: { metaTitle: 'T', metaDescription: null, social: null }, limited: null,
      quotes: [{ body: 'b', author: null }], zone: [{ __component: 'shared.limited', title: 'abc', count: 3, quote: null }],
    }, { publishing: true });
    const schemaOrder = Object.keys(model.contentTypes[SPEC]!.attributes).filter((k) => row.scalars.has(k));
    assert.deepEqual([...row.scalars.keys()], schemaOrder);
    assert.deepEqual(schemaOrder, ['name', 'rating', 'count', 'big', 'ratio', 'amount', 'flag', 'day', 'at', 'stamp', 'mood', 'meta', 'body', 'contact', 'info', 'rich', 'label']);
    assert.equal(row.scalars.get('count'), '7');
    assert.equal(row.dynamicZones.get('zone')![0]!.row.components.get('quote')!.length, 0);
  });
});

// ───────────────────────────── relations ─────────────────────────────

describe('relations', () => {
  const rel = (name: string, value: unknown, uid = RESTAURANT) => parse(uid, { [name]: value }, { mode: 'update' }).relations.get(name);
  const relError = (name: string, value: unknown, uid = RESTAURANT) => oneError(uid, { [name]: value }, { mode: 'update' });
  const doc = (documentId: string, extra: Record<string, unknown> = {}) => ({ kind: 'document', documentId, ...extra });

  it('shorthands are set', () => {
    assert.deepEqual(rel('chef', 'c1'), { kind: 'set', refs: [doc('c1')] });
    assert.deepEqual(rel('chef', 12), { kind: 'set', refs: [{ kind: 'id', id: '12' }] });
    assert.deepEqual(rel('chef', { id: 12 }), { kind: 'set', refs: [{ kind: 'id', id: '12' }] });
    assert.deepEqual(rel('chef', { id: '12' }), { kind: 'set', refs: [{ kind: 'id', id: '12' }] });
    assert.deepEqual(rel('chef', { documentId: 'c1', locale: 'fr', status: 'draft' }), { kind: 'set', refs: [doc('c1', { locale: 'fr', status: 'draft' })] });
    assert.deepEqual(rel('chef', null), { kind: 'set', refs: [] });
    assert.deepEqual(rel('chef', []), { kind: 'set', refs: [] });
    assert.deepEqual(rel('categories', ['a', 'b', 3, { documentId: 'd', status: 'published' }]),
      { kind: 'set', refs: [doc('a'), doc('b'), { kind: 'id', id: '3' }, doc('d', { status: 'published' })] });
  });
  it('set, and set wins over connect/disconnect', () => {
    assert.deepEqual(rel('categories', { set: ['a', 'b'] }), { kind: 'set', refs: [doc('a'), doc('b')] });
    assert.deepEqual(rel('categories', { set: null }), { kind: 'set', refs: [] });
    assert.deepEqual(rel('categories', { set: 'a' }), { kind: 'set', refs: [doc('a')] });
    assert.deepEqual(rel('categories', { set: ['a'], connect: ['b'], disconnect: ['c'] }), { kind: 'set', refs: [doc('a')] });
  });
  it('connect and disconnect, single items or arrays, with positions', () => {
    assert.deepEqual(rel('categories', {
      connect: ['a', { documentId: 'b', position: { before: 'a' } }, { documentId: 'c', locale: 'fr', position: { start: true } },
        { documentId: 'd', position: { after: { documentId: 'a', locale: 'de' } } }, { id: 5, position: { end: true } }, { documentId: 'e', position: { after: 7 } }],
      disconnect: 'x',
    }), {
      kind: 'change',
      connect: [
        { ref: doc('a'), position: { kind: 'end' } },
        { ref: doc('b'), position: { kind: 'before', ref: doc('a') } },
        { ref: doc('c', { locale: 'fr' }), position: { kind: 'start' } },
        { ref: doc('d'), position: { kind: 'after', ref: doc('a', { locale: 'de' }) } },
        { ref: { kind: 'id', id: '5' }, position: { kind: 'end' } },
        { ref: doc('e'), position: { kind: 'after', ref: { kind: 'id', id: '7' } } },
      ],
      disconnect: [doc('x')],
    });
    assert.deepEqual(rel('categories', { disconnect: ['a', { id: 2 }] }), { kind: 'change', connect: [], disconnect: [doc('a'), { kind: 'id', id: '2' }] });
    assert.deepEqual(rel('categories', { connect: 'a', disconnect: null }), { kind: 'change', connect: [{ ref: doc('a'), position: { kind: 'end' } }], disconnect: [] });
  });
  it('malformed shapes are invalid relations', () => {
    const bad: unknown[] = [
      true, '', 'x'.repeat(65), 'a\u0000', 0, -1, 1.5, {}, { documentId: 5 }, { documentId: '' }, { documentId: 'a', status: 'live' },
      { documentId: 'a', locale: 5 }, { documentId: 'a', locale: '' }, { documentId: 'a', foo: 1 }, { id: 0 }, { id: 'x' }, { id: 1, locale: 'fr' },
      { documentId: 'a', position: { start: true } }, { set: [{ documentId: 'a', position: { end: true } }] },
      { connect: [{ documentId: 'a', position: { start: false } }] }, { connect: [{ documentId: 'a', position: { before: 'b', after: 'c' } }] },
      { connect: [{ documentId: 'a', position: { before: '' } }] }, { connect: [{ documentId: 'a', position: 'start' }] },
      { connect: [{ documentId: 'a', position: { before: { documentId: 'b', position: { start: true } } } }] },
      { connect: ['a'], foo: 1 }, { disconnect: [{ documentId: 'a', position: { end: true } }] }, [['a']], [null], { set: [true] },
      JSON.parse('{"__proto__":"a"}'), { constructor: 'a' },
    ];
    for (const value of bad) {
      assert.deepEqual(relError('categories', value), fe(['categories'], 'categories is an invalid relation', value), JSON.stringify(value));
    }
    assert.equal(relError('chef', 'x'.repeat(65)).message, 'chef is an invalid relation');
    assert.equal(rel('chef', 'x'.repeat(64))!.kind, 'set');
  });
  it('to-one sides take at most one target', () => {
    assert.deepEqual(relError('chef', ['a', 'b']), fe(['chef'], 'chef expects at most one relation', ['a', 'b']));
    assert.equal(relError('chef', { set: ['a', 'b'] }).message, 'chef expects at most one relation');
    assert.equal(relError('chef', { connect: ['a', 'b'] }).message, 'chef expects at most one relation');
    assert.equal(relError('owner', ['a', 'b'], SPEC).message, 'owner expects at most one relation');
    assert.deepEqual(rel('chef', { connect: ['a'], disconnect: ['b', 'c'] }), {
      kind: 'change', connect: [{ ref: doc('a'), position: { kind: 'end' } }], disconnect: [doc('b'), doc('c')],
    });
    assert.deepEqual(rel('friends', ['a', 'b'], SPEC), { kind: 'set', refs: [doc('a'), doc('b')] });
  });
  it('more than 1000 targets are refused', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);
    assert.equal(rel('categories', ids(1000))!.kind, 'set');
    assert.deepEqual(relError('categories', ids(1001)), fe(['categories'], 'categories has too many relations (at most 1000)', null));
    assert.equal(relError('categories', { set: ids(1001) }).message, 'categories has too many relations (at most 1000)');
    assert.equal(relError('categories', { connect: ids(600), disconnect: ids(600) }).message, 'categories has too many relations (at most 1000)');
    const start = Date.now();
    assert.equal(relError('categories', Array.from({ length: 70_000 }, () => ({ junk: true }))).message, 'categories has too many relations (at most 1000)');
    assert.ok(Date.now() - start < 500);
  });
  it('inverse sides are writable', () => {
    assert.deepEqual(parse(CHEF, { restaurants: ['r1', 'r2'] }).relations.get('restaurants'), { kind: 'set', refs: [doc('r1'), doc('r2')] });
  });
  it('relations to types the caller cannot find are dropped, even malformed ones', () => {
    const canFind = (uid: string) => uid !== CHEF;
    const row = parse(RESTAURANT, { chef: { nonsense: true }, categories: ['a'], seo: { featuredChef: 5 } }, { mode: 'update', canFind });
    assert.deepEqual([...row.relations.keys()], ['categories']);
    assert.equal(row.components.get('seo')![0]!.row.relations.size, 0);
  });
});

// ───────────────────────────── media ─────────────────────────────

describe('media', () => {
  const media = (name: string, value: unknown) => parse(RESTAURANT, { [name]: value }, { mode: 'update' }).media.get(name);
  it('single', () => {
    assert.deepEqual(media('cover', 1), ['1']);
    assert.deepEqual(media('cover', '2'), ['2']);
    assert.deepEqual(media('cover', { id: 3 }), ['3']);
    assert.deepEqual(media('cover', null), []);
    for (const bad of ['x', 0, -1, 1.5, [1], {}, { id: 'x' }, true, '']) {
      assert.deepEqual(oneError(RESTAURANT, { cover: bad }, { mode: 'update' }), fe(['cover'], 'cover must be a valid file id', bad), JSON.stringify(bad));
    }
  });
  it('multiple', () => {
    assert.deepEqual(media('gallery', [1, '2', { id: 3 }]), ['1', '2', '3']);
    assert.deepEqual(media('gallery', 4), ['4']);
    assert.deepEqual(media('gallery', []), []);
    assert.deepEqual(media('gallery', null), []);
    for (const bad of [['x'], [1, 0], 'x', [[1]], { id: null }]) {
      assert.deepEqual(oneError(RESTAURANT, { gallery: bad }, { mode: 'update' }), fe(['gallery'], 'gallery must be an array of file ids', bad), JSON.stringify(bad));
    }
    assert.deepEqual(oneError(RESTAURANT, { gallery: Array.from({ length: 1001 }, (_, i) => i + 1) }, { mode: 'update' }),
      fe(['gallery'], 'gallery has too many files (at most 1000)', null));
  });
});

// ───────────────────────────── fuzz ─────────────────────────────

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ['', 'a', 'abc', 'ABC', '0', '1', '-1', '1.5', '1e400', 'true', 'false', 'null', '2024-02-03', '10:30:00', '2024-02-03T04:05:06Z',
  'a@b.co', 'shared.quote', 'shared.limited', 'shared.nope', '__proto__', 'constructor', 'x\u0000', '\uD800', '9223372036854775808', 'happy', 'bistro'];
const KEYS = ['id', 'documentId', '__component', '__proto__', 'constructor', 'set', 'connect', 'disconnect', 'position', 'before', 'start', 'locale',
  'status', 'name', 'body', 'title', 'metaTitle', 'social', 'quote', 'count', 'nope'];

function randomJson(r: () => number, depth: number): unknown {
  const k = r();
  if (depth <= 0 || k < 0.5) {
    const p = r();
    if (p < 0.15) return null;
    if (p < 0.25) return r() < 0.5;
    if (p < 0.5) return [0, 1, -1, 1.5, 2 ** 31, 2 ** 53 + 2, 1e21, -0, 5, 12][Math.floor(r() * 10)];
    return STRINGS[Math.floor(r() * STRINGS.length)];
  }
  if (k < 0.75) return Array.from({ length: Math.floor(r() * 4) }, () => randomJson(r, depth - 1));
  const obj: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 4); i > 0; i--) {
    const key = KEYS[Math.floor(r() * KEYS.length)]!;
    Object.defineProperty(obj, key, { value: randomJson(r, depth - 1), enumerable: true, configurable: true, writable: true });
  }
  return obj;
}

describe('fuzz', () => {
  it('random values for every attribute only ever throw ValidationError, with serialisable details', () => {
    const r = rng(20261123);
    let thrown = 0;
    let passed = 0;
    for (let round = 0; round < 40; round++) {
      for (const [uid, type] of Object.entries(model.contentTypes)) {
        for (const name of Object.keys(type.attributes)) {
          for (const mode of ['create', 'update'] as const) {
            const publishing = r() < 0.5;
            const body = { [name]: randomJson(r, 4) };
            try {
              const row = parseDocumentData(body, { model, uid, mode, publishing, canFind: () => r() < 0.8 });
              for (const v of row.scalars.values()) assert.ok(v === null || typeof v === 'string');
              passed++;
            } catch (err) {
              if (!(err instanceof ValidationError)) throw new Error(`${uid}.${name} ${JSON.stringify(body)}: ${String(err)}`);
              JSON.stringify(err.details);
              thrown++;
            }
          }
        }
      }
    }
    assert.ok(thrown > 100 && passed > 100, `${thrown} thrown, ${passed} passed`);
  });

  it('random whole bodies', () => {
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      const uids = Object.keys(model.contentTypes);
      const uid = uids[Math.floor(r() * uids.length)]!;
      const names = Object.keys(model.contentTypes[uid]!.attributes);
      const body: Record<string, unknown> = {};
      for (let n = Math.floor(r() * 5); n > 0; n--) body[names[Math.floor(r() * names.length)]!] = randomJson(r, 5);
      if (r() < 0.1) body[KEYS[Math.floor(r() * KEYS.length)]!] = 1;
      try {
        parseDocumentData(body, { model, uid, mode: r() < 0.5 ? 'create' : 'update', publishing: r() < 0.5, canFind: () => true });
      } catch (err) {
        if (!(err instanceof ValidationError)) throw new Error(`${uid} ${JSON.stringify(body)}: ${String(err)}`);
        JSON.stringify(err.details);
      }
    }
  });
});

function emptyRow(): RowWrite {
  return { scalars: new Map(), components: new Map(), dynamicZones: new Map(), relations: new Map(), media: new Map() };
}
