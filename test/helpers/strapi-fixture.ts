// test/fixtures/strapi-export (a real Strapi 5 project folder and its `strapi export` archive)
// compared with a project it was imported into, whichever way (`cms import strapi` over HTTP,
// or @cms/strapi-import in-process): the model and locales, every document version read back
// through the project's REST API, the files and the end users.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { compiledQuery } from '@cms/db';
import type { TestApp } from './app.ts';
import { ROOT } from './cli.ts';
import { as, type Session } from './management.ts';
import { withoutIds, type ArchiveContents, type Dict } from './strapi-archive.ts';

export const FIXTURE = join(ROOT, 'test/fixtures/strapi-export');
export const FIXTURE_ARCHIVE = join(FIXTURE, 'export.tar.gz');

/** The fixture's content types: how to read each through REST, and its attributes by kind. */
export const FIXTURE_TYPES: Record<string, { plural: string; single: boolean; localized: boolean; draftAndPublish: boolean; populate: string }> = {
  'api::article.article': {
    plural: 'articles', single: false, localized: true, draftAndPublish: true,
    populate: 'populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[quotes]=true&populate[author]=true&populate[tags]=true' +
      '&populate[sections][on][shared.quote]=true&populate[sections][on][shared.media-block][populate][file]=true',
  },
  'api::author.author': { plural: 'authors', single: false, localized: false, draftAndPublish: false, populate: 'populate[avatar]=true' },
  'api::tag.tag': { plural: 'tags', single: false, localized: false, draftAndPublish: true, populate: '' },
  'api::homepage.homepage': { plural: 'homepage', single: true, localized: true, draftAndPublish: true, populate: 'populate[featuredArticles]=true&populate[seo]=true' },
};
const SCALARS: Record<string, string[]> = {
  'api::article.article': ['title', 'slug', 'summary', 'body', 'content', 'views', 'bigCount', 'rating', 'score', 'featured', 'publishDate', 'publishTime', 'eventAt', 'contactEmail', 'kind', 'meta'],
  'api::author.author': ['name', 'email'],
  'api::tag.tag': ['name'],
  'api::homepage.homepage': ['heading'],
};
const MEDIA: Record<string, string[]> = { 'api::article.article': ['cover', 'gallery'], 'api::author.author': ['avatar'] };
const RELATIONS: Record<string, string[]> = { 'api::article.article': ['author', 'tags'], 'api::homepage.homepage': ['featuredArticles'] };
const COMPONENTS: Record<string, string[]> = { 'api::article.article': ['seo', 'quotes'], 'api::homepage.homepage': ['seo'] };

/** What an import of the fixture into `project` reports (ImportReport.toText()). */
export function fixtureReport(project: string): string {
  return [
    `Imported into ${project}:`,
    'TYPE                    LOCALE  STATUS     FOUND  IMPORTED',
    'api::article.article    en      draft      3      3',
    'api::article.article    en      published  2      2',
    'api::article.article    fr      draft      1      1',
    'api::article.article    fr      published  1      1',
    'api::author.author      -       published  2      2',
    'api::homepage.homepage  en      draft      1      1',
    'api::homepage.homepage  en      published  1      1',
    'api::homepage.homepage  fr      draft      1      1',
    'api::homepage.homepage  fr      published  1      1',
    'api::tag.tag            -       draft      4      4',
    'api::tag.tag            -       published  3      3',
    'files                   -       -          3      3',
    'users                   -       -          2      2',
    'Relation links: 27',
    'Skipped (1):',
    '  13 entries of plugin::users-permissions.permission: users-permissions permissions are not imported: set each role\'s permissions in the dashboard (or PUT /v1/projects/{slug}/roles/{type}/permissions)',
  ].join('\n');
}

/** A full-access API token of `project`. */
export async function fullAccessToken(t: TestApp, session: Session, project: string): Promise<string> {
  const res = await as(t, session).post(`/v1/projects/${project}/api-tokens`, { name: `read ${Math.random()}`, type: 'full-access' });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().accessKey;
}

/** The fixture's model (content types and components) and locales (`en` the default) in `project`. */
export async function assertFixtureModel(t: TestApp, session: Session, project: string): Promise<void> {
  const schema = (await as(t, session).get(`/v1/projects/${project}/schema`)).json();
  assert.deepEqual(Object.keys(schema.contentTypes).sort(), Object.keys(FIXTURE_TYPES).sort());
  assert.deepEqual(Object.keys(schema.components).sort(), ['shared.media-block', 'shared.quote', 'shared.seo']);
  const locales = (await as(t, session).get(`/v1/projects/${project}/locales`)).json().locales as Array<{ code: string; isDefault: boolean }>;
  assert.deepEqual(locales.map((l) => [l.code, l.isDefault]).sort(), [['en', true], ['fr', false]]);
}

/**
 * Compare every content version of the fixture's archive (`fixture`, as readStrapiArchive reads
 * it) with what `project`'s REST API answers: scalars, components, dynamic zones, media (and their
 * image formats), relations in order, timestamps; and no version more than the archive holds.
 */
export async function assertMatchesArchive(t: TestApp, session: Session, project: string, fixture: ArchiveContents): Promise<void> {
  const token = await fullAccessToken(t, session, project);
  const get = async (url: string) => {
    const res = await t.inject({ method: 'GET', url: `/p/${project}/api/${url}`, headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json().data as Dict;
  };
  const rows = new Map(fixture.entities.map((e) => [`${e.type}:${e.id}`, e]));
  const files = new Map(fixture.entities.filter((e) => e.type === 'plugin::upload.file').map((e) => [String(e.id), e.data]));
  const mediaOf = (type: string, ref: number, field: string) => fixture.links
    .filter((l) => l.kind === 'relation.morph' && l.right.type === type && l.right.ref === ref && l.right.field === field)
    .sort((a, b) => a.right.pos! - b.right.pos!).map((l) => files.get(String(l.left.ref))!.name);
  let compared = 0;
  for (const entity of fixture.entities.filter((e) => FIXTURE_TYPES[e.type])) {
    const type = FIXTURE_TYPES[entity.type]!;
    const status = type.draftAndPublish && !entity.data.publishedAt ? 'draft' : 'published';
    const query = [`status=${status}`, type.localized ? `locale=${entity.data.locale}` : '', type.populate].filter(Boolean).join('&');
    const doc = await get(`${type.single ? type.plural : `${type.plural}/${entity.data.documentId}`}?${query}`);
    const where = `${entity.type} ${entity.data.documentId} ${entity.data.locale} ${status}`;
    assert.equal(doc.documentId, entity.data.documentId, where);
    if (type.localized) assert.equal(doc.locale, entity.data.locale, where);
    assert.equal(doc.createdAt, entity.data.createdAt, `${where} createdAt`);
    if (status === 'published') assert.equal(doc.publishedAt, entity.data.publishedAt, `${where} publishedAt`);
    else assert.equal(doc.publishedAt, null, where);
    for (const name of SCALARS[entity.type]!) assert.deepEqual(doc[name], entity.data[name], `${where} ${name}`);
    for (const name of COMPONENTS[entity.type] ?? []) assert.deepEqual(withoutIds(doc[name]), withoutIds(entity.data[name]), `${where} ${name}`);
    for (const name of MEDIA[entity.type] ?? []) {
      const got = doc[name] === null ? [] : ([] as Dict[]).concat(doc[name] as Dict);
      assert.deepEqual(got.map((f) => f.name), mediaOf(entity.type, entity.id, name), `${where} ${name}`);
      // The media pipeline made the images' formats again.
      for (const f of got) if (String(f.mime).startsWith('image/')) assert.ok((f.formats as Dict | null)?.thumbnail, `${where} ${name} ${String(f.name)} formats`);
    }
    for (const name of RELATIONS[entity.type] ?? []) {
      const expected = fixture.links
        .filter((l) => l.kind !== 'relation.morph' && l.left.type === entity.type && l.left.ref === entity.id && l.left.field === name)
        .sort((a, b) => (a.left.pos ?? 0) - (b.left.pos ?? 0))
        .map((l) => rows.get(`${l.right.type}:${l.right.ref}`)!.data.documentId);
      const got = doc[name] === null ? [] : ([] as Dict[]).concat(doc[name] as Dict).map((d) => d.documentId);
      assert.deepEqual(got, expected, `${where} ${name}`);
    }
    if (entity.type === 'api::article.article') {
      const sections = entity.data.sections as Dict[];
      const gotSections = doc.sections as Dict[];
      assert.deepEqual(gotSections.map((s) => s.__component), sections.map((s) => s.__component), `${where} sections`);
      for (const [i, s] of sections.entries()) {
        const got = gotSections[i]!;
        if (s.__component === 'shared.quote') assert.deepEqual(withoutIds(got), withoutIds(s), `${where} sections[${i}]`);
        else {
          assert.equal(got.caption, s.caption);
          assert.deepEqual(got.file ? [(got.file as Dict).name] : [], mediaOf('shared.media-block', s.id as number, 'file'), `${where} sections[${i}].file`);
        }
      }
    }
    compared++;
  }
  assert.equal(compared, 20);
  // Nothing more than the archive holds: per type and status, the same number of versions.
  for (const [uid, type] of Object.entries(FIXTURE_TYPES)) {
    if (type.single) continue;
    for (const status of type.draftAndPublish ? ['draft', 'published'] : ['published']) {
      const res = await t.inject({ method: 'GET', url: `/p/${project}/api/${type.plural}?status=${status}${type.localized ? '&locale=*' : ''}&pagination[pageSize]=100`, headers: { authorization: `Bearer ${token}` } });
      const expected = fixture.entities.filter((e) => e.type === uid && (!type.draftAndPublish || (status === 'draft') === !e.data.publishedAt)).length;
      assert.equal(res.json().meta.pagination.total, expected, `${uid} ${status}`);
    }
  }
}

/**
 * The fixture's end users in `project`: their documentIds, roles (the custom one created) and
 * password hashes — they log in with their original passwords, then stored as argon2id.
 */
export async function assertFixtureUsers(t: TestApp, session: Session, project: string, fixture: ArchiveContents): Promise<void> {
  const id = (await as(t, session).get(`/v1/projects/${project}`)).json().project.id as number;
  const users = (await t.platform.db.pool.any(compiledQuery({ text: `SELECT document_id, email, username, role, password FROM "t_${id}".up_users ORDER BY id`, values: [] }))) as unknown as Array<Dict>;
  const archived = fixture.entities.filter((e) => e.type === 'plugin::users-permissions.user');
  assert.deepEqual(users.map((u) => [u.document_id, u.email, u.username, u.role]), [
    [archived[0]!.data.documentId, 'reader@example.com', 'reader', 'authenticated'],
    [archived[1]!.data.documentId, 'writer@example.com', 'writer', 'editor'],
  ]);
  assert.equal(users[0]!.password, archived[0]!.data.password);
  const roles = (await as(t, session).get(`/v1/projects/${project}/roles`)).json().roles as Array<{ type: string; name: string }>;
  assert.ok(roles.some((r) => r.type === 'editor' && r.name === 'Editor'));
  const login = (identifier: string, password: string) => t.inject({ method: 'POST', url: `/p/${project}/api/auth/local`, payload: { identifier, password } });
  assert.equal((await login('reader@example.com', 'wrong password')).statusCode, 400);
  const ok = await login('reader@example.com', 'Reader-pass-1');
  assert.equal(ok.statusCode, 200, ok.body);
  assert.equal(ok.json().user.email, 'reader@example.com');
  assert.equal((await login('writer', 'Writer-pass-2')).statusCode, 200);
  const [rehashed] = (await t.platform.db.pool.any(compiledQuery({ text: `SELECT password FROM "t_${id}".up_users WHERE email = 'reader@example.com'`, values: [] }))) as unknown as Array<{ password: string }>;
  assert.match(rehashed!.password, /^\$argon2id\$/);
  assert.equal((await login('reader@example.com', 'Reader-pass-1')).statusCode, 200);
}
