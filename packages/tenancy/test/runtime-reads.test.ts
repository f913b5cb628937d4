// A runtime's typed fields: its REST routes and its view of the process-wide read cache, whose
// entries for a project go when the project's model changes (and only then).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '@cms/db';
import { planQuery, queryShape, ReadCache, UPLOAD_FILE_UID } from '@cms/query';
import type { RawModel } from '@cms/schema';
import { RuntimeCache, runtimeBytes, type Invalidation, type ProjectRecord, type ProjectRegistry, type ProjectRuntime } from '../src/index.ts';

const MODEL = {
  contentTypes: {
    'api::article.article': { kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' }, attributes: { title: { type: 'string' } } },
    'api::home.home': { kind: 'singleType', info: { singularName: 'home', pluralName: 'homes', displayName: 'Home' }, attributes: { title: { type: 'string' } } },
  },
  components: {},
} as unknown as RawModel;

/** The registry's invalidation hook, driven by the test. */
class Invalidations {
  private readonly listeners: Array<(inv: Invalidation) => void> = [];
  onInvalidate(listener: (inv: Invalidation) => void): void {
    this.listeners.push(listener);
  }
  send(inv: Invalidation): void {
    for (const l of this.listeners) l(inv);
  }
}

function setup() {
  const invalidations = new Invalidations();
  const db = { oneFirst: async () => MODEL } as unknown as Db;
  const reads = new ReadCache(100);
  const runtimes = new RuntimeCache(db, invalidations as unknown as ProjectRegistry, 10, reads);
  return { invalidations, reads, runtimes };
}

const project = (id: number, modelVersion: number) => ({ id, modelVersion, schemaName: `t_${id}` }) as ProjectRecord;

/** A media-file list through the runtime's reads (planned only: nothing runs). */
function readFiles(runtime: ProjectRuntime, query: string) {
  return runtime.reads.read({
    context: 'files',
    exact: query,
    shape: () => queryShape({ sort: [], pagination: { kind: 'offset', start: 0, limit: Number(query), withCount: false } }),
    plan: (template, binder) => planQuery(template, {
      model: runtime.model, physical: runtime.physical, uid: UPLOAD_FILE_UID, schema: runtime.schemaName,
      locale: '*', status: 'published', canFind: () => true, defaultLimit: 10, maxLimit: 10,
    }, binder),
  });
}

describe('project runtimes', () => {
  it('route REST paths by pluralApiId (collections) and singularApiId (single types)', async () => {
    const { runtimes } = setup();
    const runtime = await runtimes.get(project(1, 1));
    assert.deepEqual([...runtime.restRoutes].map(([name, route]) => [name, route.type.uid, route.single]), [
      ['articles', 'api::article.article', false],
      ['home', 'api::home.home', true],
    ]);
  });

  it('a model change drops the project\'s compiled reads; other invalidations and projects keep theirs', async () => {
    const { invalidations, reads, runtimes } = setup();
    readFiles(await runtimes.get(project(1, 1)), '1');
    readFiles(await runtimes.get(project(1, 1)), '2');
    readFiles(await runtimes.get(project(2, 1)), '1');
    assert.deepEqual(reads.countOf(1), { shapes: 1, reads: 2 });
    invalidations.send({ projectId: 1, scope: 'project' });
    assert.deepEqual(reads.countOf(1), { shapes: 1, reads: 2 });
    invalidations.send({ projectId: 1, scope: 'model' });
    assert.deepEqual(reads.countOf(1), { shapes: 0, reads: 0 });
    assert.deepEqual(reads.countOf(2), { shapes: 1, reads: 1 });
    invalidations.send({ projectId: 2, scope: 'deleted' });
    assert.equal(reads.size, 0);
  });

  it('a newer model version met without an invalidation drops the older version\'s reads', async () => {
    const { reads, runtimes } = setup();
    const old = await runtimes.get(project(1, 1));
    readFiles(old, '1');
    const fresh = await runtimes.get(project(1, 2));
    assert.deepEqual(reads.countOf(1), { shapes: 0, reads: 0 });
    const read = readFiles(fresh, '1');
    assert.notEqual(read, readFiles(old, '1'));
    for (const key of reads.keys()) assert.match(key, /^1@[12]\n/);
  });

  it('keeps runtimes within the memory bound as well as the count, least recently used out first', async () => {
    const invalidations = new Invalidations();
    let loads = 0;
    const db = { oneFirst: async () => { loads++; return MODEL; } } as unknown as Db;
    const each = runtimeBytes(MODEL);
    const runtimes = new RuntimeCache(db, invalidations as unknown as ProjectRegistry, 100, new ReadCache(100), 3 * each);
    for (const id of [1, 2, 3]) await runtimes.get(project(id, 1));
    assert.deepEqual([runtimes.size, runtimes.bytes, loads], [3, 3 * each, 3]);
    await runtimes.get(project(1, 1));
    await runtimes.get(project(4, 1));
    assert.deepEqual([runtimes.size, runtimes.bytes, loads], [3, 3 * each, 4]);
    await runtimes.get(project(1, 1));
    assert.equal(loads, 4, 'project 1, used last, was kept');
    await runtimes.get(project(2, 1));
    assert.equal(loads, 5, 'project 2, the least recently used, went');
  });
});
