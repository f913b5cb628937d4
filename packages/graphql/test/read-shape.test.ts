// A root field's shape for the read cache (read-shape.ts): values the SQL only binds are
// references, whatever changes the SQL's text stays in the key; and filters planned from the
// template are the filters planned from the request itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResolveTree } from 'graphql-parse-resolve-info';
import { Binder, ValueRef, viewOf, type FilterNode, type PlanEnv } from '@cms/query';
import { parseModel, type RawModel } from '@cms/schema';
import { physicalModel } from '@cms/tables';
import { filterNode } from '../src/filters.ts';
import { treeShape } from '../src/read-shape.ts';

const field = (args: Record<string, unknown>, children: Record<string, ResolveTree> = {}): ResolveTree =>
  ({ name: 'articles', alias: 'articles', args, fieldsByTypeName: { Article: children } }) as ResolveTree;
const leaf = (name: string, args: Record<string, unknown> = {}): ResolveTree => ({ name, alias: name, args, fieldsByTypeName: {} }) as ResolveTree;

const keyOf = (args: Record<string, unknown>, children?: Record<string, ResolveTree>) => treeShape(field(args, children)).key;

describe('GraphQL read shapes', () => {
  it('values are references: other values, same key', () => {
    const same = (a: Record<string, unknown>, b: Record<string, unknown>) => assert.equal(keyOf(a), keyOf(b), JSON.stringify([a, b]));
    same({ filters: { title: { eq: 'a' } } }, { filters: { title: { eq: 'b' } } });
    same({ filters: { title: { in: ['a'] } } }, { filters: { title: { in: ['a', 'b', 'c'] } } });
    same({ filters: { or: [{ title: { contains: 'x' } }, { views: { gt: 1 } }] } }, { filters: { or: [{ title: { contains: 'y' } }, { views: { gt: 9 } }] } });
    same({ filters: { title: { or: ['a', 'b'] } } }, { filters: { title: { or: ['c', 'd'] } } });
    same({ pagination: { page: 1, pageSize: 10 } }, { pagination: { page: 7, pageSize: 3 } });
    same({ locale: 'en' }, { locale: 'fr' });
    same({ documentId: 'abc' }, { documentId: 'def' });
    const { values } = treeShape(field({ filters: { title: { eq: 'a' } }, pagination: { limit: 2 } }));
    assert.deepEqual(values, ['a', { limit: 2 }]);
  });

  it('what changes the SQL text stays in the key', () => {
    const differ = (a: Record<string, unknown>, b: Record<string, unknown>, children?: Record<string, ResolveTree>) =>
      assert.notEqual(keyOf(a, children), keyOf(b, children), JSON.stringify([a, b]));
    differ({ filters: { title: { eq: null } } }, { filters: { title: { eq: 'a' } } });
    differ({ filters: { title: { null: true } } }, { filters: { title: { null: false } } });
    differ({ filters: { title: { in: [] } } }, { filters: { title: { in: ['a'] } } });
    differ({ filters: { title: { or: ['a'] } } }, { filters: { title: { or: ['a', 'b'] } } });
    differ({ locale: '*' }, { locale: 'en' });
    differ({ sort: ['title:asc'] }, { sort: ['title:desc'] });
    differ({ status: 'draft' }, { status: 'published' });
    differ({ filters: { title: { eq: 'a' } } }, { filters: { views: { eq: 'a' } } });
    assert.notEqual(keyOf({}, { title: leaf('title') }), keyOf({}, { body: leaf('body') }));
    // an object under an operator's name is kept whole (an attribute named like one, or a JSON value)
    differ({ filters: { between: { eq: 'a' } } }, { filters: { between: { eq: 'b' } } });
    // a JSON value cannot pass for a reference
    differ({ filters: { data: { or: [{ $: 'value' }] } } }, { filters: { data: { or: ['x'] } } });
    differ({ filters: { data: { or: [null] } } }, { filters: { data: { or: ['x'] } } });
  });

  it('a relation field keeps its own arguments, values as references', () => {
    const withTags = (filter: string, page: number) => ({ tags: { ...leaf('tags', { filters: { label: { eq: filter } }, pagination: { page } }), fieldsByTypeName: { Tag: { label: leaf('label') } } } as ResolveTree });
    assert.equal(keyOf({}, withTags('a', 1)), keyOf({}, withTags('b', 4)));
    assert.deepEqual(treeShape(field({}, withTags('a', 1))).values, ['a', { page: 1 }]);
  });
});

// ───────────────────────── template filters plan as the request's ─────────────────────────

const RAW: RawModel = {
  contentTypes: {
    'api::a.a': {
      kind: 'collectionType', info: { singularName: 'a', pluralName: 'as', displayName: 'a' },
      attributes: { title: { type: 'string' }, data: { type: 'json' }, between: { type: 'relation', relation: 'manyToOne', target: 'api::b.b' } },
    },
    'api::b.b': { kind: 'collectionType', info: { singularName: 'b', pluralName: 'bs', displayName: 'b' }, attributes: { eq: { type: 'string' } } },
  },
  components: {},
} as unknown as RawModel;

describe('GraphQL filters from a shape template', () => {
  const model = parseModel(RAW);
  const physical = physicalModel(model);

  /** The filter tree with every reference replaced by the request's value. */
  const resolved = (node: FilterNode | undefined, binder: Binder): unknown => JSON.parse(JSON.stringify(node ?? null, (_key, value) => (value instanceof ValueRef ? binder.rawOf(value) : value)));

  it('plans the same filter tree as the request itself', () => {
    const inputs: unknown[] = [
      { title: { eq: 'a', in: ['x', 'y'], null: true } },
      { title: { eq: null }, and: null, or: [{ title: { contains: 'x' } }, null, 'stray'] },
      { title: { or: ['a', null, { nested: 1 }] }, not: { title: { startsWith: 'q' } } },
      { data: { eq: { json: true } } },
      // `between` is a relation here, `eq` an attribute of its target
      { between: { eq: { eq: 'x', in: ['a'] } } },
      { between: { eq: 'not an object' } },
    ];
    for (const filters of inputs) {
      const raw = new Binder();
      const expected = filterNode({ model, physical, canFind: () => true, binder: raw } as PlanEnv, viewOf({ model, physical, canFind: () => true, binder: raw }, 'api::a.a'), filters);
      const shape = treeShape(field({ filters }));
      const binder = new Binder(shape.values);
      const env: PlanEnv = { model, physical, canFind: () => true, binder };
      const planned = filterNode(env, viewOf(env, 'api::a.a'), shape.template.args.filters);
      assert.deepEqual(resolved(planned, binder), JSON.parse(JSON.stringify(expected ?? null)), JSON.stringify(filters));
    }
  });
});
