// The read cache against the real Postgres: requests that differ only in values share one
// compiled shape and still answer what planning each of them alone answers; a bad value on a
// cached shape is the same 400; the bound holds; a model change drops a project's reads; two
// projects never share a read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  paginationMeta, parseQuery, parseQueryString, planQuery, queryShape, ReadCache, runFind, type CompiledRead, type ProjectReads, type QueryAst,
} from '../src/index.ts';
import { CHEF, RESTAURANT } from './helpers/model.ts';
import { context, createFixture, findOne, list, plan, SCHEMA, type Fixture } from './helpers/fixture.ts';

const LIMITS = { defaultLimit: 25, maxLimit: 100 };

let f: Fixture;
before(async () => {
  f = await createFixture('query_read_cache');
});
after(async () => {
  await f.db.drop();
});

interface ReadOptions {
  uid?: string;
  /** a document read (`findOne`) rather than a list */
  document?: boolean;
  schema?: string;
  /** counts the plans made */
  planned?: { count: number };
}

/** A REST read through the cache, as the gateway's content routes make it. */
function cachedRead(reads: ProjectReads, query: string, options: ReadOptions = {}): CompiledRead {
  const uid = options.uid ?? RESTAURANT;
  return reads.read({
    context: `rest\n${uid}\n${options.document ?? false}\ntest-access\nen`,
    exact: query,
    shape: () => queryShape(parseQuery(parseQueryString(query), LIMITS)),
    plan: (ast, binder) => {
      if (options.planned) options.planned.count++;
      const ctx = context(f, { uid, status: ast.status ?? 'published' });
      return planQuery(ast, { ...ctx, schema: options.schema ?? SCHEMA, locale: ast.locale, defaultLocale: 'en' }, binder);
    },
  });
}

/** The page and meta a cached read answers, as `list` (uncached) shows them. */
async function cachedList(reads: ProjectReads, query: string, options: ReadOptions = {}) {
  const read = cachedRead(reads, query, options);
  const { json, total } = await read.find(f.pool);
  return { text: json, meta: paginationMeta(read.plan, total) };
}

const errorOf = (fn: () => unknown): Record<string, unknown> => {
  try {
    fn();
  } catch (err) {
    const e = err as Error & { status?: number; details?: unknown };
    return { name: e.name, message: e.message, status: e.status, details: e.details };
  }
  assert.fail('expected an error');
};

describe('read cache: one compiled read per query shape', () => {
  it('requests differing only in values share one shape and answer as if planned alone', async () => {
    const cache = new ReadCache(100);
    const reads = cache.project(1, 1);
    const planned = { count: 0 };
    const variants = [
      ['filters[name][$eq]=Zed', 'filters[name][$eq]=Bistro Bob', 'filters[name][$eq]=nobody'],
      ['filters[rating][$in][0]=5', 'filters[rating][$in][0]=3&filters[rating][$in][1]=4&filters[rating][$in][2]=5'],
      ['_q=pasta', '_q=12', '_q=%_'],
      ['pagination[page]=1&pagination[pageSize]=2', 'pagination[page]=2&pagination[pageSize]=3', 'pagination[page]=9&pagination[pageSize]=1'],
      ['locale=en&filters[name][$containsi]=p', 'locale=fr&filters[name][$containsi]=l', 'filters[name][$containsi]=a'],
      ['filters[rating][$between][0]=1&filters[rating][$between][1]=4', 'filters[rating][$between][0]=4&filters[rating][$between][1]=5'],
      ['populate[categories][filters][name][$startsWith]=I', 'populate[categories][filters][name][$startsWith]=F'],
      ['filters[chef][name][$eq]=Alice&sort=name:desc', 'filters[chef][name][$eq]=Bob&sort=name:desc'],
    ];
    for (const group of variants) {
      const before = planned.count;
      for (const query of group) {
        const uncached = await list(f, query);
        const cached = await cachedList(reads, query, { planned });
        assert.equal(cached.text, uncached.text, query);
        assert.deepEqual(cached.meta, uncached.meta, query);
      }
      assert.equal(planned.count, before + 1, `one plan for ${group[0]}`);
    }
    assert.deepEqual(cache.countOf(1), { shapes: variants.length, reads: variants.flat().length });
  });

  it('document reads share one shape whatever the documentId', async () => {
    const reads = new ReadCache(100).project(1, 1);
    const planned = { count: 0 };
    for (const documentId of ['chefa', 'chefb', 'chefz']) {
      const json = await cachedRead(reads, 'fields[0]=name', { uid: CHEF, document: true, planned }).findOne(f.pool, documentId);
      assert.deepEqual(json === null ? null : JSON.parse(json), await findOne(f, documentId, 'fields[0]=name', { uid: CHEF }));
    }
    assert.equal(planned.count, 1);
  });

  it('a repeated query string skips parsing: the same read', async () => {
    const reads = new ReadCache(100).project(1, 1);
    const first = cachedRead(reads, 'filters[name][$eq]=Zed');
    assert.equal(cachedRead(reads, 'filters[name][$eq]=Zed'), first);
  });

  it('values that change the SQL text get shapes of their own', async () => {
    const cache = new ReadCache(100);
    const reads = cache.project(1, 1);
    for (const query of ['filters[email][$null]=true', 'filters[email][$null]=false', 'locale=*', 'locale=en', 'pagination[withCount]=false', '_q=']) {
      const uncached = await list(f, query);
      assert.equal((await cachedList(reads, query)).text, uncached.text, query);
    }
    assert.equal(cache.countOf(1).shapes, 6);
  });

  it('a first page has its LIMIT in the text and no OFFSET; later pages bind the OFFSET', async () => {
    // Postgres re-plans a statement whose LIMIT is a parameter on every run; a literal LIMIT lets
    // it keep the generic plan (render-find.ts PageWindow).
    const reads = new ReadCache(100).project(1, 1);
    const texts: string[] = [];
    const recording = Object.create(f.pool) as typeof f.pool;
    for (const method of ['one', 'oneFirst'] as const) {
      const run = f.pool[method] as (q: { sql: string }) => Promise<unknown>;
      (recording as unknown as Record<string, unknown>)[method] = (q: { sql: string }) => {
        texts.push(q.sql);
        return run(q);
      };
    }
    const pageText = (text: string) => /ORDER BY [^()]* ASC( LIMIT [^)]*)\) "p/.exec(text)?.[1];
    const cases: Array<[string, RegExp]> = [
      ['pagination[page]=1&pagination[pageSize]=2', /^ LIMIT 2$/],
      ['pagination[page]=3&pagination[pageSize]=2', /^ LIMIT 2 OFFSET \$\d+::bigint$/],
      ['pagination[start]=0&pagination[limit]=3', /^ LIMIT 3$/],
      ['pagination[page]=2&pagination[pageSize]=3&pagination[withCount]=false', /^ LIMIT 3 OFFSET \$\d+::bigint$/],
      ['pagination[page]=1&pagination[pageSize]=3', /^ LIMIT 3$/],
      ['pagination[page]=2&pagination[pageSize]=3', /^ LIMIT 3 OFFSET \$\d+::bigint$/],
      // A fifth window of the page/pageSize shape: LIMIT and OFFSET as parameters.
      ['pagination[page]=1&pagination[pageSize]=5', /^ LIMIT \$\d+::bigint OFFSET \$\d+::bigint$/],
      ['pagination[page]=1&pagination[pageSize]=2', /^ LIMIT 2$/],
    ];
    for (const [query, expected] of cases) {
      texts.length = 0;
      const uncached = await list(f, query);
      const read = cachedRead(reads, query);
      const { json, total } = await read.find(recording);
      assert.equal(json, uncached.text, query);
      assert.deepEqual(paginationMeta(read.plan, total), uncached.meta, query);
      assert.equal(texts.length, 1, query);
      assert.match(pageText(texts[0]!) ?? '', expected, query);
    }
  });

  it('an empty $in and a null $eq (GraphQL can send them) are shapes of their own', async () => {
    const cache = new ReadCache(100);
    const reads = cache.project(1, 1);
    const astRead = (ast: QueryAst) => reads.read({
      context: 'ast',
      shape: () => queryShape(ast),
      plan: (template, binder) => planQuery(template, { ...context(f), locale: template.locale, defaultLocale: 'en' }, binder),
    });
    const cases: Array<[QueryAst, number[]]> = [
      [{ sort: [], filters: { kind: 'compare', path: ['email'], op: '$eq', value: null } }, [20, 40]],
      [{ sort: [], filters: { kind: 'compare', path: ['email'], op: '$eq', value: 'zed@example.com' } }, [50]],
      [{ sort: [], filters: { kind: 'compare', path: ['chef', 'age'], op: '$in', value: [] } }, []],
      [{ sort: [], filters: { kind: 'compare', path: ['chef', 'age'], op: '$in', value: [35] } }, [20]],
      [{ sort: [], filters: { kind: 'compare', path: ['chef', 'age'], op: '$notIn', value: [] } }, [10, 20, 40, 50]],
      [{ sort: [], filters: { kind: 'compare', path: ['chef', 'age'], op: '$notIn', value: [40] } }, [20]],
    ];
    const idsOf = (json: string) => (JSON.parse(json) as Array<{ id: number }>).map((r) => r.id);
    for (const [ast, expected] of cases) {
      const uncached = await runFind(f.pool, planQuery(ast, context(f)));
      const { json } = await astRead(ast).find(f.pool);
      assert.deepEqual(idsOf(json), idsOf(uncached.json), JSON.stringify(ast.filters));
      assert.deepEqual(idsOf(json), expected, JSON.stringify(ast.filters));
    }
    // null / a value, empty / not, for $eq, $in and $notIn
    assert.equal(cache.countOf(1).shapes, 6);
  });
});

describe('read cache: values are validated on every request', () => {
  it('a bad value on a cached shape is the same 400 as uncached', () => {
    const reads = new ReadCache(100).project(1, 1);
    const pairs = [
      ['filters[rating][$gt]=3', 'filters[rating][$gt]=abc'],
      ['filters[lastVisit][$lt]=2024-01-01', 'filters[lastVisit][$lt]=yesterday'],
      ['populate[chef][filters][age][$eq]=40', 'populate[chef][filters][age][$eq]=forty'],
      // two bad values: the first planning meets is the one reported
      ['filters[rating][$gt]=1&filters[openedOn][$eq]=2020-01-01', 'filters[rating][$gt]=x&filters[openedOn][$eq]=y'],
      ['filters[rating][$in][0]=1', 'filters[rating][$in][0]=1&filters[rating][$in][1]=99999999999'],
    ];
    for (const [good, bad] of pairs) {
      cachedRead(reads, good!);
      const expected = errorOf(() => plan(f, bad!));
      assert.equal(expected.status, 400);
      assert.deepEqual(errorOf(() => cachedRead(reads, bad!)), expected, bad);
      // still refused on a repeat: errors are never kept
      assert.deepEqual(errorOf(() => cachedRead(reads, bad!)), expected, bad);
    }
  });
});

describe('read cache: bounds and invalidation', () => {
  it('holds no more entries than its bound', () => {
    const cache = new ReadCache(5);
    const reads = cache.project(1, 1);
    for (let i = 0; i < 12; i++) cachedRead(reads, `fields[0]=name&pagination[pageSize]=${i + 1}&sort=${i % 2 ? 'name' : 'rating'}`);
    assert.equal(cache.size, 5);
    assert.ok(cache.countOf(1).shapes + cache.countOf(1).reads <= 5);
  });

  it('dropping a project forgets its reads only', () => {
    const cache = new ReadCache(100);
    cachedRead(cache.project(1, 1), 'filters[name][$eq]=Zed');
    cachedRead(cache.project(2, 1), 'filters[name][$eq]=Zed');
    cache.dropProject(1);
    assert.deepEqual(cache.countOf(1), { shapes: 0, reads: 0 });
    assert.deepEqual(cache.countOf(2), { shapes: 1, reads: 1 });
    const planned = { count: 0 };
    cachedRead(cache.project(1, 1), 'filters[name][$eq]=Zed', { planned });
    assert.equal(planned.count, 1, 'planned again after the drop');
  });

  it('two projects never share a read, even for the same query', () => {
    const cache = new ReadCache(100);
    const a = cachedRead(cache.project(1, 3), 'filters[name][$eq]=Zed', { schema: 'project_a' });
    const b = cachedRead(cache.project(2, 3), 'filters[name][$eq]=Zed', { schema: 'project_b' });
    const bAgain = cachedRead(cache.project(2, 3), 'filters[name][$eq]=Bob', { schema: 'project_b' });
    assert.notEqual(a, b);
    assert.equal(a.plan.scope.schema, 'project_a');
    assert.equal(b.plan.scope.schema, 'project_b');
    assert.equal(bAgain.plan.scope.schema, 'project_b');
    assert.deepEqual(cache.countOf(1), { shapes: 1, reads: 1 });
    assert.deepEqual(cache.countOf(2), { shapes: 1, reads: 2 });
    for (const key of cache.keys()) assert.match(key, /^[12]@3\n/);
    // another model version of the same project is another key space too
    assert.notEqual(cachedRead(cache.project(1, 4), 'filters[name][$eq]=Zed', { schema: 'project_a' }), a);
  });
});
