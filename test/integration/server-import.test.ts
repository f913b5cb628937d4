// The import core of `cms import strapi` run in-process, as the gateway restores a project from
// an archive without HTTP: @cms/strapi-import's runImport reads test/fixtures/strapi-export's
// archive (the model from its folder, read as the CLI reads it) and writes into an existing empty
// project through serverImportTarget — the functions behind the /v1 routes. The project is then
// checked as the CLI's import is (test/helpers/strapi-fixture.ts); a second run changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ArchiveSource, memoryState, runImport, type StageProgress } from '@cms/strapi-import';
import type { ProjectRecord } from '@cms/tenancy';
import { readModelFolder } from '../../apps/cli/src/model-folder.ts';
import { serverImportTarget } from '../../apps/gateway/src/management/import-target.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';
import { readStrapiArchive, type ArchiveContents } from '../helpers/strapi-archive.ts';
import { assertFixtureModel, assertFixtureUsers, assertMatchesArchive, FIXTURE, FIXTURE_ARCHIVE, fixtureReport } from '../helpers/strapi-fixture.ts';

describe('the Strapi import in-process (serverImportTarget)', () => {
  let t: TestApp;
  let me: Session;
  let fixture: ArchiveContents;
  let project: ProjectRecord;

  before(async () => {
    t = await startTestApp();
    me = await signup(t, `server-import-${process.pid}@example.com`);
    fixture = await readStrapiArchive(FIXTURE_ARCHIVE);
    const { slug } = await createProject(t, me, { name: 'Restored' });
    project = await t.platform.projects.getForAccount(me.account.id, slug);
  });
  after(async () => {
    await t?.close();
  });

  /** One run of the import; the lines it logged and each stage's summary, in order. */
  async function importFixture() {
    const { model } = await readModelFolder(FIXTURE);
    const lines: string[] = [];
    const progress = (stage: string): StageProgress => ({ update: () => {}, stop: (summary) => lines.push(`${stage}: ${summary}`) });
    const report = await runImport({
      target: serverImportTarget(t.platform, project), model, source: new ArchiveSource(FIXTURE_ARCHIVE, model),
      state: memoryState(null, 200), projectName: 'not used: the project exists', batchSize: 200, yes: false,
      progress, log: (line) => lines.push(line),
    });
    return { report, lines };
  }

  it('imports the archive into the project: model, locales, every version field by field, files and users', async () => {
    const { report, lines } = await importFixture();
    assert.equal(report.toText(), fixtureReport(project.slug));
    assert.deepEqual(lines, ['model: 4 content types, 3 components', 'users: 2 imported', 'files: 3 imported', 'documents: 20 imported', 'relations: 11 imported']);
    // Into the project given: none created.
    assert.equal((await as(t, me).get('/v1/projects')).json().projects.length, 1);
    await assertFixtureModel(t, me, project.slug);
    await assertMatchesArchive(t, me, project.slug, fixture);
    await assertFixtureUsers(t, me, project.slug, fixture);
  });

  it('run again, changes nothing: the model is the same and every item is found already there', async () => {
    const { report, lines } = await importFixture();
    assert.equal(report.toText(), fixtureReport(project.slug));
    assert.deepEqual(lines, ['users: 2 imported', 'files: 3 imported', 'documents: 20 imported', 'relations: 11 imported']);
    await assertMatchesArchive(t, me, project.slug, fixture);
  });
});
