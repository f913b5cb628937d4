import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deriveKey } from '@cms/auth';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, count, createProject, signup, type Session } from '../helpers/management.ts';

const noteModel = {
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      pluginOptions: { i18n: { localized: true } },
      attributes: { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } },
    },
  },
  components: {},
};

describe('management API: locales, roles, API tokens, usage', () => {
  let t: TestApp;
  let owner: Session;
  let project: { id: number; slug: string };
  let other: { id: number; slug: string };
  const api = () => as(t, owner);
  const base = () => `/v1/projects/${project.slug}`;
  const exec = (text: string, values: unknown[] = []) => t.platform.db.pool.query(compiledQuery({ text, values }));

  before(async () => {
    t = await startTestApp();
    owner = await signup(t);
    project = await createProject(t, owner, { name: 'Settings' });
    other = await createProject(t, owner, { name: 'Other' });
    const push = await api().put(`${base()}/schema`, noteModel);
    assert.equal(push.statusCode, 200, push.body);
    await api().put(`/v1/projects/${other.slug}/schema`, noteModel);
  });
  after(async () => t?.close());

  it('adds locales (with default names), refuses duplicates, unknown and malformed codes', async () => {
    const fr = await api().post(`${base()}/locales`, { code: 'fr' });
    assert.equal(fr.statusCode, 201);
    assert.deepEqual(fr.json(), { locale: { code: 'fr', name: 'French (fr)', isDefault: false } });
    const br = await api().post(`${base()}/locales`, { code: 'pt-BR', name: 'Português' });
    assert.deepEqual(br.json(), { locale: { code: 'pt-BR', name: 'Português', isDefault: false } });
    assert.equal((await api().post(`${base()}/locales`, { code: 'fr' })).statusCode, 409);
    const before = await count(t, 'locales');
    for (const code of ['xx', 'qq-ZZ', 'EN', 'en_US', "fr'; --", 'x'.repeat(10_000), 'ﬀ', '']) {
      const res = await api().post(`${base()}/locales`, { code });
      assert.equal(res.statusCode, 400, code.slice(0, 20));
      assert.equal(res.json().error.name, 'ValidationError');
    }
    assert.equal(await count(t, 'locales'), before);
    const list = await api().get(`${base()}/locales`);
    assert.deepEqual(list.json().locales.map((l: { code: string }) => l.code), ['en', 'fr', 'pt-BR']);
  });

  it('switches the default locale and refuses deleting it; deleting another removes its content', async () => {
    const de = await api().post(`${base()}/locales`, { code: 'de', isDefault: true });
    assert.deepEqual(de.json().locale, { code: 'de', name: 'German (de)', isDefault: true });
    assert.equal((await api().get(base())).json().project.defaultLocale, 'de');
    const refused = await api().del(`${base()}/locales/de`);
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error.name, 'ApplicationError');
    const schema = `t_${project.id}`;
    await exec(`INSERT INTO "${schema}".ct_note (document_id, locale, published_at, title) VALUES ('n1', 'fr', now(), 'Bonjour'), ('n1', 'de', now(), 'Hallo')`);
    assert.equal((await api().del(`${base()}/locales/fr`)).statusCode, 204);
    const left = await t.platform.db.pool.anyFirst(compiledQuery({ text: `SELECT locale FROM "${schema}".ct_note ORDER BY locale`, values: [] }));
    assert.deepEqual(left, ['de']);
    assert.equal((await api().del(`${base()}/locales/fr`)).statusCode, 404);
  });

  it('deleting a locale deletes its rows, their component rows (recursively) and links to them; other locales stay', async () => {
    const site = await createProject(t, owner, { name: 'Pages', defaultLocale: 'de' });
    const pages = `/v1/projects/${site.slug}`;
    const localized = { pluginOptions: { i18n: { localized: true } } };
    const model = {
      contentTypes: {
        'api::page.page': {
          kind: 'collectionType', info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' }, options: { draftAndPublish: false }, ...localized,
          attributes: {
            title: { type: 'string', ...localized },
            sections: { type: 'component', repeatable: true, component: 'shared.section', ...localized },
            related: { type: 'relation', relation: 'oneToMany', target: 'api::page.page' },
          },
        },
      },
      components: {
        'shared.section': { info: { displayName: 'Section' }, attributes: { heading: { type: 'string' }, links: { type: 'component', repeatable: true, component: 'shared.link' } } },
        'shared.link': { info: { displayName: 'Link' }, attributes: { href: { type: 'string' } } },
      },
    };
    assert.equal((await api().put(`${pages}/schema`, model)).statusCode, 200);
    assert.equal((await api().post(`${pages}/locales`, { code: 'fr' })).statusCode, 201);
    const s = `"t_${site.id}"`;
    const one = async (text: string, values: unknown[] = []) => Number(await t.platform.db.pool.oneFirst(compiledQuery({ text, values })));
    const page = (locale: string) => one(`INSERT INTO ${s}.ct_page (document_id, locale, title) VALUES ('p1', $1, $1) RETURNING id`, [locale]);
    const section = (ownerId: number) => one(`INSERT INTO ${s}.cmp_shared__section (owner_id, owner_type, owner_field, heading) VALUES ($1, 'api::page.page', 'sections', 'h') RETURNING id`, [ownerId]);
    const link = (ownerId: number) => one(`INSERT INTO ${s}.cmp_shared__link (owner_id, owner_type, owner_field, href) VALUES ($1, 'shared.section', 'links', '/x') RETURNING id`, [ownerId]);
    const de = await page('de');
    const fr = await page('fr');
    const deSection = await section(de);
    const frSection = await section(fr);
    const deLink = await link(deSection);
    await link(frSection);
    await link(frSection);
    // A component row of another owner type with the same owner id is not the deleted page's.
    const foreignSection = await one(`INSERT INTO ${s}.cmp_shared__section (owner_id, owner_type, owner_field) VALUES ($1, 'api::other.other', 'x') RETURNING id`, [fr]);
    // de → fr link (dropped with its target) and fr → de link (dropped with its source).
    await exec(`INSERT INTO ${s}.lnk_ct_page__related (source_id, target_document_id, target_locale) VALUES ($1, 'p1', 'fr'), ($2, 'p1', 'de')`, [de, fr]);

    assert.equal((await api().del(`${pages}/locales/fr`)).statusCode, 204);
    const ids = async (table: string) => (await t.platform.db.pool.anyFirst(compiledQuery({ text: `SELECT id FROM ${s}.${table} ORDER BY id`, values: [] }))).map(Number);
    assert.deepEqual(await ids('ct_page'), [de]);
    assert.deepEqual(await ids('cmp_shared__section'), [deSection, foreignSection]);
    assert.deepEqual(await ids('cmp_shared__link'), [deLink]);
    assert.equal(await one(`SELECT count(*) FROM ${s}.lnk_ct_page__related`), 0);
    assert.deepEqual((await api().get(`${pages}/locales`)).json(), { locales: [{ code: 'de', name: 'German (de)', isDefault: true }] });
    assert.deepEqual((await t.inject({ url: `/p/${site.slug}/api/i18n/locales` })).json().map((l: { code: string }) => l.code), ['de']);
  });

  it('keeps exactly one default locale in the database when switching', async () => {
    const p = await createProject(t, owner, { name: 'Defaults' });
    for (const code of ['fr', 'it', 'es']) assert.equal((await api().post(`/v1/projects/${p.slug}/locales`, { code, isDefault: true })).statusCode, 201);
    const rows = await t.platform.db.pool.any(compiledQuery({ text: 'SELECT code, is_default FROM platform.locales WHERE project_id = $1 ORDER BY code', values: [p.id] }));
    assert.deepEqual(rows, [{ code: 'en', is_default: false }, { code: 'es', is_default: true }, { code: 'fr', is_default: false }, { code: 'it', is_default: false }]);
    const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT default_locale FROM platform.projects WHERE id = $1', values: [p.id] }));
    assert.equal(stored, 'es');
    assert.equal((await api().del(`/v1/projects/${p.slug}/locales/en`)).statusCode, 204);
    const refused = await api().del(`/v1/projects/${p.slug}/locales/es`);
    assert.deepEqual(refused.json(), { data: null, error: { status: 400, name: 'ApplicationError', message: 'The default locale cannot be deleted', details: {} } });
    const before = await count(t, 'locales');
    for (const body of [{ code: 'nl', name: 'bad\u0000name' }, { code: 'nl', name: 'x'.repeat(10_000) }, { code: 'nl', isDefault: 'yes' }, { code: 42 }, { code: 'nl', extra: 1 }]) {
      const res = await api().post(`/v1/projects/${p.slug}/locales`, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 60));
      assert.equal(res.json().error.name, 'ValidationError');
    }
    assert.equal(await count(t, 'locales'), before);
  });

  it('creates roles and replaces permission sets, validating uids and actions', async () => {
    const editor = await api().post(`${base()}/roles`, { type: 'editor', name: 'Editor' });
    assert.equal(editor.statusCode, 201);
    assert.deepEqual(editor.json(), { role: { type: 'editor', name: 'Editor', permissions: {} } });
    assert.equal((await api().post(`${base()}/roles`, { type: 'editor', name: 'Again' })).statusCode, 409);
    assert.equal((await api().post(`${base()}/roles`, { type: 'Bad Type', name: 'x' })).statusCode, 400);
    const set = await api().put(`${base()}/roles/public/permissions`, { permissions: { 'api::note.note': ['findOne', 'find', 'find'], 'plugin::upload': ['find'] } });
    assert.equal(set.statusCode, 200);
    assert.deepEqual(set.json(), { role: { type: 'public', name: 'Public', permissions: { 'api::note.note': ['find', 'findOne'], 'plugin::upload': ['find'] } } });
    const bad = await api().put(`${base()}/roles/public/permissions`, { permissions: { 'api::nope.nope': ['find'], 'api::note.note': ['fly'] } });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json().error.details.errors.map((e: { path: string[] }) => e.path), [['permissions', 'api::nope.nope'], ['permissions', 'api::note.note', '0']]);
    assert.equal((await api().put(`${base()}/roles/nobody/permissions`, { permissions: {} })).statusCode, 404);
    const up = await api().put(`${base()}/roles/authenticated/permissions`, {
      permissions: { 'plugin::users-permissions': ['me', 'count'], 'plugin::upload': ['upload', 'destroy'], 'api::note.note': ['createLocalization', 'delete'] },
    });
    assert.equal(up.statusCode, 200);
    const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT permissions FROM platform.roles WHERE project_id = $1 AND type = 'authenticated'`, values: [project.id] }));
    assert.deepEqual(stored, { 'plugin::users-permissions': ['me', 'count'], 'plugin::upload': ['upload', 'destroy'], 'api::note.note': ['delete', 'createLocalization'] });
    for (const [permissions, path] of [
      [{ 'plugin::upload': ['delete'] }, ['permissions', 'plugin::upload', '0']],
      [{ 'plugin::users-permissions': ['upload'] }, ['permissions', 'plugin::users-permissions', '0']],
      [{ 'api::note.note': 'find' }, ['permissions', 'api::note.note']],
      [{ 'api::note.note': [42] }, ['permissions', 'api::note.note', '0']],
      [{ "api::note.note'; --": ['find'] }, ['permissions', "api::note.note'; --"]],
      [{ 'plugin::i18n': ['find'] }, ['permissions', 'plugin::i18n']],
    ] as const) {
      const res = await api().put(`${base()}/roles/authenticated/permissions`, { permissions });
      assert.equal(res.statusCode, 400, JSON.stringify(permissions));
      assert.deepEqual(res.json().error.details.errors.map((e: { path: string[] }) => e.path), [path]);
    }
    assert.deepEqual(await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT permissions FROM platform.roles WHERE project_id = $1 AND type = 'authenticated'`, values: [project.id] })), stored);
    assert.equal((await api().del(`${base()}/roles/nobody`)).statusCode, 404);
    // The public role now lets anyone read notes; a replaced set takes effect at once.
    assert.equal((await t.inject({ url: `/p/${project.slug}/api/notes` })).statusCode, 200);
    await api().put(`${base()}/roles/public/permissions`, { permissions: {} });
    assert.equal((await t.inject({ url: `/p/${project.slug}/api/notes` })).statusCode, 403);
    assert.equal((await api().del(`${base()}/roles/public`)).statusCode, 400);
    assert.equal((await api().del(`${base()}/roles/editor`)).statusCode, 204);
  });

  it('creates API tokens: the key once, only its HMAC stored, never listed', async () => {
    const res = await api().post(`${base()}/api-tokens`, { name: 'reader', type: 'read-only', lifespanDays: 30, description: 'CI' });
    assert.equal(res.statusCode, 201);
    const { apiToken, accessKey } = res.json();
    assert.match(accessKey, /^[0-9a-f]{256}$/);
    assert.deepEqual(Object.keys(apiToken), ['id', 'name', 'type', 'permissions', 'expiresAt', 'createdAt']);
    assert.deepEqual(apiToken.permissions, {});
    assert.equal(apiToken.type, 'read-only');
    const days = (Date.parse(apiToken.expiresAt) - Date.parse(apiToken.createdAt)) / 86_400_000;
    assert.ok(Math.abs(days - 30) < 0.01, String(days));
    const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT key_hash FROM platform.api_tokens WHERE id = $1', values: [apiToken.id] }));
    assert.notEqual(stored, accessKey);
    assert.equal(stored, createHmac('sha512', deriveKey(t.env.APP_SECRET!, 'api-token-hmac')).update(accessKey).digest('hex'));
    const list = await api().get(`${base()}/api-tokens`);
    assert.equal(list.statusCode, 200);
    assert.ok(!list.body.includes(accessKey));
    assert.ok(!list.body.includes(String(stored)));
    assert.deepEqual(list.json(), { apiTokens: [apiToken] });
  });

  it('sets expiresAt from lifespanDays (7, 30, 90, null/absent = never) and echoes custom permissions', async () => {
    for (const lifespanDays of [7, 90]) {
      const { apiToken } = (await api().post(`${base()}/api-tokens`, { name: `life-${lifespanDays}`, type: 'full-access', lifespanDays })).json();
      assert.equal(Math.round((Date.parse(apiToken.expiresAt) - Date.parse(apiToken.createdAt)) / 3_600_000), lifespanDays * 24);
    }
    for (const body of [{ name: 'forever', type: 'full-access', lifespanDays: null }, { name: 'forever-2', type: 'full-access' }]) {
      const res = await api().post(`${base()}/api-tokens`, body);
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().apiToken.expiresAt, null);
    }
    const custom = await api().post(`${base()}/api-tokens`, { name: 'custom', type: 'custom', permissions: { 'api::note.note': ['findOne', 'find'], 'plugin::upload': ['upload'] } });
    assert.equal(custom.statusCode, 201);
    assert.deepEqual(custom.json().apiToken.permissions, { 'api::note.note': ['find', 'findOne'], 'plugin::upload': ['upload'] });
    for (const name of ['life-7', 'life-90', 'forever', 'forever-2', 'custom']) {
      const id = (await api().get(`${base()}/api-tokens`)).json().apiTokens.find((x: { name: string }) => x.name === name).id;
      assert.equal((await api().del(`${base()}/api-tokens/${id}`)).statusCode, 204);
    }
  });

  it('refuses bad token types, lifespans, duplicates and custom permissions', async () => {
    const before = await count(t, 'api_tokens');
    for (const [body, path] of [
      [{ name: 'a', type: 'god-mode' }, ['type']], [{ name: 'a', type: 'read-only', lifespanDays: 5 }, ['lifespanDays']],
      [{ name: 'a', type: 'read-only', lifespanDays: 0 }, ['lifespanDays']], [{ name: 'a', type: 'read-only', lifespanDays: 7.5 }, ['lifespanDays']],
      [{ name: 'a', type: 'custom', permissions: { 'api::x.x': ['find'] } }, ['permissions', 'api::x.x']],
      [{ name: 'a', type: 'custom', permissions: { 'api::note.note': ['fly'] } }, ['permissions', 'api::note.note', '0']],
      [{ name: 'a', type: 'read-only', permissions: { 'api::note.note': ['find'] } }, ['permissions']],
      [{ name: '', type: 'read-only' }, ['name']], [{ name: 'a', type: 'read-only', lifespanDays: '30' }, ['lifespanDays']],
      [{ name: 'x'.repeat(10_000), type: 'read-only' }, ['name']], [{ name: 'a', type: 'read-only', admin: true }, ['admin']],
    ] as const) {
      const res = await api().post(`${base()}/api-tokens`, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json().error.name, 'ValidationError');
      assert.deepEqual(res.json().error.details.errors.map((e: { path: string[] }) => e.path), [path], JSON.stringify(body).slice(0, 80));
    }
    assert.equal(await count(t, 'api_tokens'), before);
    assert.equal((await api().post(`${base()}/api-tokens`, { name: 'reader', type: 'full-access' })).statusCode, 409);
  });

  it('authenticates tokens on the content API: by type, only in their own project, expiry and revocation', async () => {
    const mk = async (body: object, slug = project.slug) => (await api().post(`/v1/projects/${slug}/api-tokens`, body)).json();
    const reader = await mk({ name: 'r2', type: 'read-only' });
    const custom = await mk({ name: 'c', type: 'custom', permissions: { 'api::note.note': ['find'] } });
    const none = await mk({ name: 'n', type: 'custom', permissions: {} });
    const foreign = await mk({ name: 'f', type: 'full-access' }, other.slug);
    const get = (key: string, slug = project.slug) => t.inject({ url: `/p/${slug}/api/notes`, headers: { authorization: `Bearer ${key}` } });
    assert.equal((await get(reader.accessKey)).statusCode, 200);
    assert.equal((await get(custom.accessKey)).statusCode, 200);
    assert.equal((await get(none.accessKey)).statusCode, 403);
    const cross = await get(foreign.accessKey);
    assert.equal(cross.statusCode, 401);
    assert.equal(cross.json().error.message, 'Missing or invalid credentials');
    assert.equal((await get(foreign.accessKey, other.slug)).statusCode, 200);
    await exec(`UPDATE platform.api_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1`, [custom.apiToken.id]);
    t.platform.apiTokens.forget();
    const expired = await get(custom.accessKey);
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json().error.message, 'Token expired');
    assert.equal((await api().del(`${base()}/api-tokens/${reader.apiToken.id}`)).statusCode, 204);
    assert.equal((await get(reader.accessKey)).statusCode, 401);
    assert.equal((await api().del(`${base()}/api-tokens/${reader.apiToken.id}`)).statusCode, 404);
    assert.equal((await api().del(`${base()}/api-tokens/abc`)).statusCode, 404);
  });

  it('records when a token was last used, batched, and shows it on the token itself', async () => {
    const { apiToken, accessKey } = (await api().post(`${base()}/api-tokens`, { name: 'used', type: 'read-only', description: 'dashboard' })).json();
    const unused = (await api().post(`${base()}/api-tokens`, { name: 'unused', type: 'read-only' })).json().apiToken;
    const detail = async (id: number, slug = project.slug) => api().get(`/v1/projects/${slug}/api-tokens/${id}`);
    assert.deepEqual((await detail(apiToken.id)).json(), { apiToken: { ...apiToken, description: 'dashboard', lastUsedAt: null } });
    const before = Date.now();
    for (let i = 0; i < 5; i++) assert.equal((await t.inject({ url: `/p/${project.slug}/api/notes`, headers: { authorization: `Bearer ${accessKey}` } })).statusCode, 200);
    // Uses are written in one statement every few seconds, never one write per request.
    const stored = async () => exec('SELECT last_used_at FROM platform.api_tokens WHERE id = $1', [apiToken.id]);
    assert.equal((await stored()).rows[0]!.last_used_at, null);
    await t.platform.apiTokens.flushLastUsed();
    const { lastUsedAt } = (await detail(apiToken.id)).json().apiToken;
    assert.match(lastUsedAt, /^\d{4}-\d{2}-\d{2}T/);
    assert.ok(Math.abs(Date.parse(lastUsedAt) - before) < 60_000, lastUsedAt);
    assert.equal((await detail(unused.id)).json().apiToken.lastUsedAt, null);
    // The contract's list keeps its exact keys.
    assert.deepEqual(Object.keys((await api().get(`${base()}/api-tokens`)).json().apiTokens[0]), ['id', 'name', 'type', 'permissions', 'expiresAt', 'createdAt']);
    // Unknown, malformed and other projects' token ids are 404s.
    for (const id of [999999, 'abc', '0']) assert.equal((await api().get(`${base()}/api-tokens/${id}`)).statusCode, 404);
    const foreign = (await api().post(`/v1/projects/${other.slug}/api-tokens`, { name: 'theirs', type: 'read-only' })).json().apiToken;
    assert.equal((await detail(foreign.id)).statusCode, 404);
    assert.equal((await detail(foreign.id, other.slug)).statusCode, 200);
    for (const id of [apiToken.id, unused.id]) assert.equal((await api().del(`${base()}/api-tokens/${id}`)).statusCode, 204);
  });

  it('reports real usage: requests, documents and storage', async () => {
    await t.platform.usage.flush();
    const start = (await api().get(`${base()}/usage`)).json();
    assert.deepEqual(Object.keys(start), ['period', 'requests', 'storageBytes', 'historyBytes', 'documents', 'limits']);
    assert.match(start.period, /^\d{4}-\d\d$/);
    assert.equal(start.documents, 1); // the 'de' version of document n1
    await exec(`INSERT INTO "t_${project.id}".ct_note (document_id, locale, published_at, title) VALUES ('n2', 'de', now(), 'x'), ('n2', 'en', now(), 'y')`);
    await exec(`INSERT INTO "t_${project.id}".files (document_id, name, hash, mime, size, url, provider) VALUES ('f1', 'a.png', 'a', 'image/png', 1.5, '/a.png', 'local')`);
    for (let i = 0; i < 3; i++) await t.inject({ url: `/p/${project.slug}/api/notes` });
    const now = (await api().get(`${base()}/usage`)).json();
    assert.equal(now.documents, 2);
    assert.equal(now.storageBytes, 1500); // sizes are kB of 1000 bytes, as Strapi records them
    assert.equal(now.requests, start.requests + 3);
    await t.platform.usage.flush();
    const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT requests FROM platform.usage_counters WHERE project_id = $1', values: [project.id] }));
    assert.equal(Number(stored), now.requests);
    assert.deepEqual(now.limits, { requestsPerMonth: 100_000, requestsPerSecond: 50, storageBytes: 1024 ** 3, documents: 10_000, maxUploadBytes: 50 * 1024 ** 2 });
  });
});
