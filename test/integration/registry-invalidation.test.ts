// An instance that reads a project while another instance changes it: the read that began before
// the change's invalidation arrived must not be kept as the project's entry, or the instance
// serves the old model (or settings) until the next change; nor may a runtime built for an older
// model version replace a newer one. On the real Postgres; a read's answer is held back after
// Postgres gave it, to put the change in between.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CONTROL_SCHEMA, compiledQuery, controlMigrations, runMigrations, type Db } from '@cms/db';
import { ReadCache } from '@cms/query';
import { LocalBus, ProjectRegistry, RuntimeCache, INVALIDATION_CHANNEL, type Invalidation, type ProjectRecord } from '@cms/tenancy';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

describe('project registry and runtime cache: loads racing a change', () => {
  let test: TestDatabase;
  let projectId: number;
  let bus: LocalBus;
  let registry: ProjectRegistry;
  /** Loads wait here after Postgres answered, while set. */
  let hold: Promise<void> | undefined;
  let loadsRead = 0;

  before(async () => {
    test = await createTestDatabase('cms_registry');
    await runMigrations(test.pool, CONTROL_SCHEMA, controlMigrations);
    const account = await test.pool.oneFirst(compiledQuery({
      text: "INSERT INTO platform.accounts (email, password_hash) VALUES ('r@example.com', 'x') RETURNING id", values: [],
    }));
    projectId = Number(await test.pool.oneFirst(compiledQuery({
      text: "INSERT INTO platform.projects (account_id, slug, name, schema_name) VALUES ($1, 'racer', 'Racer', 'p_racer') RETURNING id",
      values: [account as number],
    })));
  });
  after(async () => {
    await test.drop();
  });
  beforeEach(async () => {
    await test.pool.query(compiledQuery({ text: 'UPDATE platform.projects SET model_version = 0 WHERE id = $1', values: [projectId] }));
    bus = new LocalBus();
    const db = {
      maybeOne: async (query: Parameters<Db['maybeOne']>[0]) => {
        const row = await test.pool.maybeOne(query);
        loadsRead++;
        await hold;
        return row;
      },
    } as unknown as Db;
    registry = new ProjectRegistry(db, bus);
    await registry.start();
  });

  /** What another instance does: commits the change, then announces it. */
  async function changeElsewhere(version: number, inv: Invalidation): Promise<void> {
    await test.pool.query(compiledQuery({ text: 'UPDATE platform.projects SET model_version = $2 WHERE id = $1', values: [projectId, version] }));
    await bus.publish(INVALIDATION_CHANNEL, JSON.stringify(inv));
  }

  async function heldLoad(): Promise<{ loading: Promise<unknown>; release: () => void }> {
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    const readBefore = loadsRead;
    const loading = registry.resolve('racer');
    while (loadsRead === readBefore) await new Promise((r) => setTimeout(r, 5));
    return { loading, release: () => { hold = undefined; release(); } };
  }

  it('a runtime built for an older version after a newer one was built is not kept over it', async () => {
    for (const version of [1, 2]) {
      await test.pool.query(compiledQuery({ text: "INSERT INTO platform.schema_versions (project_id, version, model) VALUES ($1, $2, '{\"contentTypes\":{},\"components\":{}}')", values: [projectId, version] }));
    }
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let builds = 0;
    const db = {
      oneFirst: async (query: Parameters<Db['oneFirst']>[0]) => {
        const value = await test.pool.oneFirst(query);
        if (query.values[1] === 1) await held;
        builds++;
        return value;
      },
    } as unknown as Db;
    const runtimes = new RuntimeCache(db, registry, 10, new ReadCache(100));
    const project = (await registry.resolve('racer'))!.project;
    const at = (modelVersion: number): ProjectRecord => ({ ...project, modelVersion });
    const old = runtimes.get(at(1));
    assert.equal((await runtimes.get(at(2))).version, 2);
    release();
    assert.equal((await old).version, 1, 'the older build answers the requests that waited for it');
    const reads = builds;
    assert.equal((await runtimes.get(at(2))).version, 2);
    assert.equal(builds, reads, 'version 2 is still the cached one: nothing read again');
  });

  for (const inv of [
    { name: 'by slug and id (a model change)', inv: (id: number): Invalidation => ({ projectId: id, slug: 'racer', scope: 'model' }) },
    { name: 'by project id only (a stale plan found elsewhere)', inv: (id: number): Invalidation => ({ projectId: id, scope: 'model' }) },
    { name: 'everything (the bus came back)', inv: (): Invalidation => ({ scope: 'all' }) },
  ]) {
    it(`a load that read the project before an invalidation ${inv.name} is not kept`, async () => {
      const { loading, release } = await heldLoad();
      await changeElsewhere(7, inv.inv(projectId));
      // A request arriving after the invalidation does not join the load begun before it.
      const after = registry.resolve('racer');
      release();
      assert.equal((await loading as { project: { modelVersion: number } }).project.modelVersion, 0, 'the held load read the old row');
      assert.equal((await after)!.project.modelVersion, 7);
      assert.equal((await registry.resolve('racer'))!.project.modelVersion, 7, 'the entry kept is the new one');
    });
  }

  it('a load with no invalidation meanwhile is kept: the next request reads nothing', async () => {
    const { loading, release } = await heldLoad();
    release();
    assert.equal((await loading as { project: { modelVersion: number } }).project.modelVersion, 0);
    const reads = loadsRead;
    assert.equal((await registry.resolve('racer'))!.project.modelVersion, 0);
    assert.equal(loadsRead, reads);
  });

  it("another project's invalidation does not stop a load from being kept", async () => {
    const { loading, release } = await heldLoad();
    await bus.publish(INVALIDATION_CHANNEL, JSON.stringify({ projectId: projectId + 1000, slug: 'other', scope: 'model' }));
    release();
    await loading;
    const reads = loadsRead;
    await registry.resolve('racer');
    assert.equal(loadsRead, reads);
  });
});
