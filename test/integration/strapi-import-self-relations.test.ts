// `cms import strapi` of relations from a type to itself (issue 34). The real CLI imports
// test/fixtures/strapi-export-chefs — the export of a real Strapi 5.54 app (README there) whose
// chefs link chefs through every kind of relation (manyToOne, oneToOne, oneToMany, manyToMany;
// one way and both ways; a chef linking herself), whose localized restaurants link restaurants of
// their locale, and whose categories link restaurants of both locales — into a new project. Every
// version is read back through the REST API and each relation, owner and inverse side, compared
// in order with the archive's links; then the reads recorded from that Strapi (expected.json) are
// asked again and compared body for body. A second run changes nothing; `--from-url` copies the
// project into another with the same answers.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, ROOT, type Cli } from '../helpers/cli.ts';
import { as, signup, type Session } from '../helpers/management.ts';
import { readStrapiArchive, withoutIds, type ArchiveEntity, type ArchiveLink, type Dict } from '../helpers/strapi-archive.ts';

const FIXTURE = join(ROOT, 'test/fixtures/strapi-export-chefs');
const ARCHIVE = join(FIXTURE, 'export.tar.gz');

interface Attribute { type: string; target?: string; mappedBy?: string }
interface TypeInfo { plural: string; localized: boolean; draftAndPublish: boolean; relations: Record<string, Attribute> }
/** expected.json: the fixture's documentIds by name, and what its Strapi answered to each read. */
interface Recorded { documents: Record<string, string>; reads: Array<{ url: string; status: number; body: Dict }> }

/** The fixture's content types, from its schema files. */
async function fixtureTypes(): Promise<Record<string, TypeInfo>> {
  const types: Record<string, TypeInfo> = {};
  for (const name of ['chef', 'restaurant', 'category']) {
    const schema = JSON.parse(await readFile(join(FIXTURE, `src/api/${name}/content-types/${name}/schema.json`), 'utf8')) as Dict;
    const attributes = schema.attributes as Record<string, Attribute>;
    types[`api::${name}.${name}`] = {
      plural: (schema.info as Dict).pluralName as string,
      localized: (schema.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized === true,
      draftAndPublish: (schema.options as Dict).draftAndPublish === true,
      relations: Object.fromEntries(Object.entries(attributes).filter(([, a]) => a.type === 'relation')),
    };
  }
  return types;
}

/** A populated relation's documents as `documentId/locale`, in order. */
const linked = (value: unknown) => (value === null || value === undefined ? [] : ([] as Dict[]).concat(value as Dict))
  .map((d) => `${String(d.documentId)}/${String(d.locale ?? '-')}`);

describe('cms import strapi: relations of a type to itself', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let types: Record<string, TypeInfo>;
  let fixture: { entities: ArchiveEntity[]; links: ArchiveLink[] };
  let recorded: Recorded;
  let slug = '';

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `import-self-${process.pid}@example.com`);
    types = await fixtureTypes();
    fixture = await readStrapiArchive(ARCHIVE);
    recorded = JSON.parse(await readFile(join(FIXTURE, 'expected.json'), 'utf8')) as Recorded;
  });
  after(async () => {
    await cli?.close();
    await t?.close();
  });

  const run = (args: string[]) => cli.run(['import', 'strapi', ...args], { env: { CMS_TOKEN: me.token } });

  async function tokenOf(project: string): Promise<string> {
    const res = await as(t, me).post(`/v1/projects/${project}/api-tokens`, { name: `read ${Math.random()}`, type: 'full-access' });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().accessKey;
  }

  async function reader(project: string) {
    const token = await tokenOf(project);
    return (url: string) => t.inject({ method: 'GET', url: `/p/${project}${url}`, headers: { authorization: `Bearer ${token}` } });
  }

  /**
   * Every version of the archive, read with all its relations populated: the scalars and
   * timestamps it had, each owner side's targets in the archive's order (`left.pos`), each
   * inverse side's owners in the archive's order of that side (`right.pos`).
   */
  async function assertMatchesArchive(project: string): Promise<void> {
    const get = await reader(project);
    const rows = new Map(fixture.entities.map((e) => [`${e.type}:${e.id}`, e]));
    const versionOf = (type: string, ref: number | string) => {
      const { data } = rows.get(`${type}:${ref}`)!;
      return `${String(data.documentId)}/${types[type]!.localized ? String(data.locale) : '-'}`;
    };
    const relationLinks = fixture.links.filter((l) => l.kind !== 'relation.morph');
    let compared = 0;
    let checkedLinks = 0;
    for (const entity of fixture.entities.filter((e) => types[e.type])) {
      const type = types[entity.type]!;
      const status = type.draftAndPublish && !entity.data.publishedAt ? 'draft' : 'published';
      const populate = Object.keys(type.relations).map((name) => `populate[${name}]=true`);
      const query = [`status=${status}`, type.localized ? `locale=${String(entity.data.locale)}` : '', ...populate].filter(Boolean).join('&');
      const res = await get(`/api/${type.plural}/${String(entity.data.documentId)}?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      const doc = res.json().data as Dict;
      const where = `${entity.type} ${String(entity.data.documentId)} ${String(entity.data.locale)} ${status}`;
      for (const name of ['name', 'createdAt', 'updatedAt', 'publishedAt']) assert.deepEqual(doc[name], entity.data[name], `${where} ${name}`);
      for (const [name, attr] of Object.entries(type.relations)) {
        // The archive holds the owner sides; an inverse side is the owner links to this row.
        const expected = attr.mappedBy
          ? relationLinks.filter((l) => l.left.type === attr.target && l.left.field === attr.mappedBy && l.right.type === entity.type && l.right.ref === entity.id)
            .sort((a, b) => (a.right.pos ?? 0) - (b.right.pos ?? 0)).map((l) => versionOf(l.left.type, l.left.ref))
          : relationLinks.filter((l) => l.left.type === entity.type && l.left.ref === entity.id && l.left.field === name)
            .sort((a, b) => (a.left.pos ?? 0) - (b.left.pos ?? 0)).map((l) => versionOf(l.right.type, l.right.ref));
        assert.deepEqual(linked(doc[name]), expected, `${where} ${name}`);
        checkedLinks += expected.length;
      }
      compared++;
    }
    assert.equal(compared, 24);
    // Each owner link is seen from its two sides where the relation has both.
    assert.equal(checkedLinks, 120);
  }

  /** The reads recorded from the Strapi that made the archive, asked of `project`: the same answers. */
  async function assertAnswersAsStrapi(project: string): Promise<void> {
    const get = await reader(project);
    const differing: string[] = [];
    for (const read of recorded.reads) {
      const res = await get(read.url);
      if (res.statusCode !== read.status) differing.push(`${read.url}: ${res.statusCode} (Strapi: ${read.status})`);
      else {
        try {
          assert.deepEqual(withoutIds(res.json()), withoutIds(read.body));
        } catch (err) {
          differing.push(`${read.url}: ${(err as Error).message}`);
        }
      }
    }
    assert.deepEqual(differing, []);
  }

  it('imports every self relation, with both sides\' order, as the archive holds them', async () => {
    const res = await run([FIXTURE, '--data', ARCHIVE]);
    assert.equal(res.code, 0, res.stderr);
    slug = /^Imported into (\S+):/.exec(res.stdout)?.[1] ?? '';
    assert.equal(slug, 'chefs-app');
    assert.equal(res.stdout, [
      'Imported into chefs-app:',
      'TYPE                        LOCALE  STATUS     FOUND  IMPORTED',
      'api::category.category      -       draft      2      2',
      'api::category.category      -       published  2      2',
      'api::chef.chef              -       draft      6      6',
      'api::chef.chef              -       published  5      5',
      'api::restaurant.restaurant  en      draft      3      3',
      'api::restaurant.restaurant  en      published  2      2',
      'api::restaurant.restaurant  fr      draft      2      2',
      'api::restaurant.restaurant  fr      published  2      2',
      'files                       -       -          0      0',
      'Relation links: 91',
      'Skipped (1):',
      '  13 entries of plugin::users-permissions.permission: users-permissions permissions are not imported: set each role\'s permissions in the dashboard (or PUT /v1/projects/{slug}/roles/{type}/permissions)',
      '',
    ].join('\n'));
    await assertMatchesArchive(slug);
  });

  it('answers the reads Strapi answered (expected.json), body for body', async () => {
    await assertAnswersAsStrapi(slug);
  });

  it('run again into the same project, keeps every relation and its order', async () => {
    const res = await run([FIXTURE, '--data', ARCHIVE, '--project', slug, '--json']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal((JSON.parse(res.stdout) as { relationLinks: number }).relationLinks, 91);
    await assertMatchesArchive(slug);
  });

  it('refuses an inverse position that is not a whole number from 1 (400), writing nothing', async () => {
    const { documents } = recorded;
    for (const inversePosition of [0, 1.5, '2']) {
      const res = await as(t, me).post(`/v1/projects/${slug}/import/relations`, {
        relations: [{ uid: 'api::chef.chef', documentId: documents.paul, status: 'draft', relations: { mentoredBy: [{ documentId: documents.alain, locale: null, inversePosition }] } }],
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error.message, `Item 0 (api::chef.chef ${documents.paul} draft): relations.mentoredBy inversePosition must be a whole number from 1`);
    }
    await assertMatchesArchive(slug);
  });

  it('--from-url copies the self relations, both sides in order, into another project', async () => {
    const res = await run([FIXTURE, '--from-url', `${cli.url}/p/${slug}`, '--token', await tokenOf(slug), '--json']);
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout) as { project: string; counts: Array<{ found: number; imported: number }>; relationLinks: number };
    assert.notEqual(report.project, slug);
    for (const row of report.counts) assert.equal(row.imported, row.found, JSON.stringify(row));
    assert.equal(report.relationLinks, 91);
    await assertMatchesArchive(report.project);
    await assertAnswersAsStrapi(report.project);
  });
});
