// Environments (management-api.md § Environments): a copy of the import fixture (every attribute
// kind, relations with order, components, dynamic zones, two locales, drafts and published rows,
// media) whose content API answers exactly as its parent's, REST and GraphQL; writes in one never
// seen in the other; media shared, then separated on change; promote (an added attribute, a removed
// one refused without confirmation, a new type; a dry run changes nothing; content never moves);
// the parent under reads and writes during a copy; plan limits; deletion with the parent; access
// of other accounts and of members by role; the host-name form.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, TEST_BASE_DOMAIN, type TestApp } from '../helpers/app.ts';
import { cliFor, ROOT, type Cli } from '../helpers/cli.ts';
import { FIXTURE_READS, fullAccessToken } from '../helpers/fixture-answers.ts';
import { addMember, as, createProject, signup, type Session } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';

const FIXTURE = join(ROOT, 'test/fixtures/strapi-export');

type Dict = Record<string, any>;

describe('environments', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let editor: Session;
  let viewer: Session;
  let other: Session;
  let slug = '';
  let projectId = 0;
  let token = '';
  const envSlug = () => `${slug}--staging`;
  let envToken = '';

  const sql = async <T = Dict>(text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as unknown as T[];
  const content = (projectSlug: string, key: string, method: string, url: string, payload?: unknown) =>
    t.inject({ method: method as 'GET', url: `/p/${projectSlug}/api/${url}`, payload: payload as object, headers: { authorization: `Bearer ${key}` } });
  const get = (projectSlug: string, key: string, url: string) => content(projectSlug, key, 'GET', url);
  const ready = async () => {
    await t.platform.environments.settled();
  };
  const schemaExists = async (schema: string) => (await sql(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema])).length === 1;

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `env-${process.pid}@example.com`);
    editor = await signup(t, `env-editor-${process.pid}@example.com`);
    viewer = await signup(t, `env-viewer-${process.pid}@example.com`);
    other = await signup(t, `env-other-${process.pid}@example.com`);
    const res = await cli.run(['import', 'strapi', FIXTURE, '--data', join(FIXTURE, 'export.tar.gz')], { env: { CMS_TOKEN: me.token } });
    assert.equal(res.code, 0, res.stderr);
    slug = /^Imported into (\S+):/.exec(res.stdout)![1]!;
    projectId = (await as(t, me).get(`/v1/projects/${slug}`)).json().project.id;
    await addMember(t, projectId, editor, 'editor');
    await addMember(t, projectId, viewer, 'viewer');
    token = await fullAccessToken(t, me, slug);
  });
  after(async () => {
    await cli?.close();
    await t?.close();
  });

  it('refuses "--" in the slug of an ordinary project (it is kept for environments)', async () => {
    const res = await as(t, me).post('/v1/projects', { name: 'Dashes', slug: 'acme--staging' });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json().error.details.errors.map((e: Dict) => e.path), [['slug']]);
    assert.equal((await sql(`SELECT 1 FROM platform.projects WHERE slug = 'acme--staging'`)).length, 0);
  });

  it('creates an environment: 202 copying, then ready, with the parent\'s content, locales and roles but not its tokens or history', async () => {
    const parentJson = (await as(t, me).get(`/v1/projects/${slug}`)).json().project;
    const res = await as(t, me).post(`/v1/projects/${slug}/environments`, { name: 'staging' });
    assert.equal(res.statusCode, 202, res.body);
    const { environment } = res.json();
    assert.deepEqual(environment, {
      name: 'staging', slug: envSlug(), status: 'copying', error: null,
      apiUrl: parentJson.apiUrl.replace(`/p/${slug}/`, `/p/${envSlug()}/`), graphqlUrl: parentJson.graphqlUrl.replace(`/p/${slug}/`, `/p/${envSlug()}/`),
      createdAt: environment.createdAt,
    });
    await ready();
    const listed = await as(t, me).get(`/v1/projects/${slug}/environments`);
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(listed.json(), { environments: [{ ...environment, status: 'ready' }] });

    const project = (await as(t, me).get(`/v1/projects/${envSlug()}`)).json().project;
    assert.equal(project.slug, envSlug());
    assert.deepEqual(project.parent, { slug, name: parentJson.name });
    assert.equal(project.environment, 'staging');
    assert.equal(project.role, 'owner');
    assert.equal(project.plan, 'free');
    assert.equal(project.defaultLocale, parentJson.defaultLocale);
    // Not a project of the account's list; the parent's JSON has no such keys.
    const mine = (await as(t, me).get('/v1/projects')).json().projects.map((p: Dict) => p.slug);
    assert.deepEqual(mine, [slug]);
    assert.equal('parent' in parentJson, false);

    const [row] = await sql<Dict>(`SELECT id::int AS id, parent_id::int AS "parentId", environment_name AS name, environment_status AS status, plan, cluster, schema_name AS schema
      FROM platform.projects WHERE slug = $1`, [envSlug()]);
    assert.deepEqual({ ...row, id: 0, schema: '' }, { id: 0, parentId: projectId, name: 'staging', status: 'ready', plan: 'free', cluster: 'main', schema: '' });
    // Members are the parent's (no rows of its own); tokens, webhooks and history stay behind.
    assert.equal((await sql(`SELECT 1 FROM platform.project_members WHERE project_id = $1`, [row!.id])).length, 0);
    assert.equal((await sql(`SELECT 1 FROM platform.api_tokens WHERE project_id = $1`, [row!.id])).length, 0);
    assert.equal((await sql(`SELECT 1 FROM "${row!.schema}".history_versions`)).length, 0);
    const locales = async (id: number) => sql(`SELECT code, name, is_default FROM platform.locales WHERE project_id = $1 ORDER BY code`, [id]);
    assert.deepEqual(await locales(row!.id), await locales(projectId));
    const roles = async (id: number) => sql(`SELECT type, name, permissions FROM platform.roles WHERE project_id = $1 ORDER BY type`, [id]);
    assert.deepEqual(await roles(row!.id), await roles(projectId));
    // The row-count ledger was kept by the copy's inserts: the same totals.
    const totals = async (schema: string) => sql(`SELECT tbl, status, locale, sum(n)::int AS n FROM "${schema}".doc_counts WHERE status IS NOT NULL GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`);
    assert.deepEqual(await totals(row!.schema), await totals(`t_${projectId}`));
    envToken = await fullAccessToken(t, me, envSlug());
  });

  it('answers every REST read exactly as the parent (all kinds, relations in order, components, dynamic zones, locales, drafts)', async () => {
    for (const read of FIXTURE_READS) {
      const url = `${read}&pagination[pageSize]=100`;
      const [a, b] = [await get(slug, token, url), await get(envSlug(), envToken, url)];
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(b.statusCode, 200, b.body);
      assert.deepEqual(b.json(), a.json(), read);
    }
    const list = (await get(slug, token, 'articles?status=draft&locale=*&pagination[pageSize]=100')).json();
    assert.ok(list.data.length >= 2, 'the fixture has articles');
  });

  it('answers GraphQL exactly as the parent', async () => {
    const query = `query($locale: I18NLocaleCode, $status: PublicationStatus) {
      articles(locale: $locale, status: $status, sort: "documentId", pagination: { limit: 100 }) {
        documentId title slug summary body content views bigCount rating score featured publishDate publishTime eventAt contactEmail kind meta locale
        cover { documentId url name } gallery { documentId url } author { documentId name } tags { documentId }
        seo { __typename } quotes { __typename } sections { __typename }
        localizations { documentId locale }
      }
      authors(sort: "documentId") { documentId name articles { documentId } }
    }`;
    for (const locale of ['en', 'fr']) {
      for (const status of ['DRAFT', 'PUBLISHED']) {
        const ask = (s: string, key: string) => t.inject({
          method: 'POST', url: `/p/${s}/graphql`, payload: { query, variables: { locale, status } }, headers: { authorization: `Bearer ${key}` },
        });
        const [a, b] = [await ask(slug, token), await ask(envSlug(), envToken)];
        assert.equal(a.statusCode, 200, a.body);
        assert.equal(a.json().errors, undefined, a.body);
        assert.deepEqual(b.json(), a.json(), `${locale} ${status}`);
      }
    }
  });

  it('answers through the host-name form `{parent}--{name}.{BASE_DOMAIN}`', async () => {
    const read = 'articles?status=draft&locale=*&sort=documentId';
    const byHost = await t.inject({ method: 'GET', url: `/api/${read}`, headers: { host: `${envSlug()}.${TEST_BASE_DOMAIN}`, authorization: `Bearer ${envToken}` } });
    assert.equal(byHost.statusCode, 200, byHost.body);
    assert.deepEqual(byHost.json(), (await get(envSlug(), envToken, read)).json());
    assert.ok(envSlug().length > 40 || envSlug().length <= 62);
  });

  it('keeps writes of one out of the other', async () => {
    const [first] = (await get(slug, token, 'articles?status=draft&locale=en&sort=documentId')).json().data as Dict[];
    const id = first!.documentId as string;
    const changed = await content(envSlug(), envToken, 'PUT', `articles/${id}?locale=en`, { data: { title: 'Changed in staging' } });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await get(envSlug(), envToken, `articles/${id}?locale=en&status=draft`)).json().data.title, 'Changed in staging');
    assert.equal((await get(slug, token, `articles/${id}?locale=en&status=draft`)).json().data.title, first!.title);

    const made = await content(slug, token, 'POST', 'tags', { data: { name: 'only-in-parent' } });
    assert.equal(made.statusCode, 201, made.body);
    const tagId = made.json().data.documentId;
    assert.equal((await get(envSlug(), envToken, `tags/${tagId}?status=draft`)).statusCode, 404);
    // Ids go on past the copied ones in the environment (identity sequences moved).
    const madeInEnv = await content(envSlug(), envToken, 'POST', 'tags', { data: { name: 'only-in-staging' } });
    assert.equal(madeInEnv.statusCode, 201, madeInEnv.body);
    assert.equal((await get(slug, token, `tags/${madeInEnv.json().data.documentId}?status=draft`)).statusCode, 404);
  });

  it('shares media files until one side changes them; deleting in one never deletes for the other', async () => {
    const mediaDir = t.env.MEDIA_DIR!;
    const [env] = await sql<Dict>(`SELECT id::int AS id FROM platform.projects WHERE slug = $1`, [envSlug()]);
    const files = (await get(slug, token, 'upload/files?sort=id')).json() as Dict[];
    assert.ok(files.length >= 2, 'the fixture has files');
    assert.deepEqual((await get(envSlug(), envToken, 'upload/files?sort=id')).json(), files);
    // Shared: the environment stored nothing of its own.
    assert.equal(existsSync(join(mediaDir, String(env!.id))), false);
    const served = async (s: string, url: string) => t.inject({ method: 'GET', url: `/p/${s}${url}` });
    const [a, b] = files as [Dict, Dict];
    const parentBytes = (await served(slug, a.url)).rawPayload;
    const envServed = await served(envSlug(), a.url);
    assert.equal(envServed.statusCode, 200);
    assert.deepEqual(envServed.rawPayload, parentBytes);

    // Deleted in the environment: the parent's file is still there.
    const removed = await content(envSlug(), envToken, 'DELETE', `upload/files/${a.id}`);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal((await served(slug, a.url)).statusCode, 200);
    assert.equal((await get(slug, token, `upload/files/${a.id}`)).statusCode, 200);
    // Deleted in the parent: the environment's copy still serves it.
    const removedInParent = await content(slug, token, 'DELETE', `upload/files/${b.id}`);
    assert.equal(removedInParent.statusCode, 200, removedInParent.body);
    assert.equal((await served(envSlug(), b.url)).statusCode, 200);
    assert.ok(existsSync(join(mediaDir, String(projectId), b.url.replace('/uploads/', ''))), 'the parent kept the object its environment names');

    // An upload in the environment stores its own object, under its own prefix.
    const body = await multipart({ files: { name: 'staging.txt', content: Buffer.from('only in staging'), type: 'text/plain' } });
    const uploaded = await t.inject({ method: 'POST', url: `/p/${envSlug()}/api/upload`, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${envToken}` } });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const [file] = uploaded.json() as Dict[];
    assert.deepEqual(readdirSync(join(mediaDir, String(env!.id))), [file!.url.replace('/uploads/', '')]);
    assert.equal((await served(envSlug(), file!.url)).body, 'only in staging');
    assert.equal(((await get(slug, token, 'upload/files')).json() as Dict[]).some((f) => f.name === 'staging.txt'), false);

    // Replaced in the parent while the environment still shows it: the parent's new content gets a
    // stored object of its own; the environment keeps answering the old bytes.
    const c = files[2]!;
    const oldBytes = (await served(envSlug(), c.url)).rawPayload;
    const replacement = await multipart({ files: { name: 'notes.txt', content: Buffer.from('replaced in the parent'), type: 'text/plain' } });
    const replaced = await t.inject({ method: 'POST', url: `/p/${slug}/api/upload?id=${c.id}`, payload: replacement.payload, headers: { ...replacement.headers, authorization: `Bearer ${token}` } });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const newUrl = (await get(slug, token, `upload/files/${c.id}`)).json().url as string;
    assert.notEqual(newUrl, c.url);
    assert.equal((await served(slug, newUrl)).body, 'replaced in the parent');
    assert.deepEqual((await served(envSlug(), c.url)).rawPayload, oldBytes);
    assert.equal((await get(envSlug(), envToken, `upload/files/${c.id}`)).json().url, c.url);
  });

  it('counts the environment\'s requests and documents in the parent\'s usage', async () => {
    const [env] = await sql<Dict>(`SELECT id::int AS id FROM platform.projects WHERE slug = $1`, [envSlug()]);
    assert.equal((await get(envSlug(), envToken, 'tags')).statusCode, 200);
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(t.platform.usage.unflushed(projectId) >= 1);
    assert.equal(t.platform.usage.unflushed(env!.id), 0);
    // Documents: the parent's own and its environment's (each has the fixture and one tag of its own).
    const envUsage = (await as(t, me).get(`/v1/projects/${envSlug()}/usage`)).json();
    const parentUsage = (await as(t, me).get(`/v1/projects/${slug}/usage`)).json();
    assert.ok(envUsage.documents > 0);
    assert.equal(parentUsage.documents, 2 * envUsage.documents);
    // With plan limits on, the environment spends its parent's monthly quota.
    const limited = await startTestApp({ share: t, env: { PLAN_LIMITS: 'true' } });
    try {
      const monthStart = `${new Date().toISOString().slice(0, 7)}-01`;
      await sql(`INSERT INTO platform.usage_counters (project_id, period, requests) VALUES ($1, $2::date, 100000)
        ON CONFLICT (project_id, period) DO UPDATE SET requests = 100000`, [projectId, monthStart]);
      const refused = await limited.inject({ method: 'GET', url: `/p/${envSlug()}/api/tags?x=1`, headers: { authorization: `Bearer ${envToken}` } });
      assert.equal(refused.statusCode, 429, refused.body);
      assert.match(refused.json().error.message, /100000 requests a month of its free plan/);
    } finally {
      await sql(`DELETE FROM platform.usage_counters WHERE project_id = $1`, [projectId]);
      await limited.close();
    }
  });

  it('keeps other accounts out (404) and lets members read it by their parent\'s role, owners alone change it (403)', async () => {
    const base = `/v1/projects/${slug}/environments`;
    for (const res of [
      await as(t, other).get(base), await as(t, other).post(base, { name: 'mine' }), await as(t, other).del(`${base}/staging`),
      await as(t, other).post(`${base}/staging/promote`, { dryRun: true }), await as(t, other).get(`/v1/projects/${envSlug()}`),
      await as(t, other).get(`/v1/projects/${envSlug()}/schema`),
    ]) {
      assert.equal(res.statusCode, 404, res.body);
    }
    for (const who of [editor, viewer]) {
      const created = await as(t, who).post(base, { name: 'mine' });
      assert.equal(created.statusCode, 403, created.body);
      assert.match(created.json().error.message, /Only the owners/);
      assert.equal((await as(t, who).del(`${base}/staging`)).statusCode, 403);
      assert.equal((await as(t, who).post(`${base}/staging/promote`, { dryRun: true })).statusCode, 403);
      assert.equal((await as(t, who).get(base)).statusCode, 200);
      const seen = await as(t, who).get(`/v1/projects/${envSlug()}`);
      assert.equal(seen.statusCode, 200);
      assert.equal(seen.json().project.role, who === editor ? 'editor' : 'viewer');
      assert.equal((await as(t, who).get(`/v1/projects/${envSlug()}/schema`)).statusCode, 200);
    }
    // A viewer of the parent only reads the environment too.
    assert.equal((await as(t, viewer).put(`/v1/projects/${envSlug()}/content-types/api::tag.tag`, {})).statusCode, 403);
    assert.equal((await sql(`SELECT 1 FROM platform.projects WHERE environment_name = 'mine'`)).length, 0);
    // Its team and billing are its parent's: changed there (400), read here.
    const invited = await as(t, me).post(`/v1/projects/${envSlug()}/invitations`, { email: 'someone@example.com', role: 'editor' });
    assert.equal(invited.statusCode, 400, invited.body);
    assert.equal(invited.json().error.message, `An environment's team, billing and single sign-on are its parent's: change them on ${slug}`);
    assert.equal((await as(t, me).post(`/v1/projects/${envSlug()}/billing/checkout`, { plan: 'pro' })).statusCode, 400);
    assert.equal((await as(t, me).get(`/v1/projects/${envSlug()}/members`)).statusCode, 200);
  });

  it('refuses an environment of an environment (400), a bad name (400) and a second one on the free plan (403 naming the limit)', async () => {
    const nested = await as(t, me).post(`/v1/projects/${envSlug()}/environments`, { name: 'deeper' });
    assert.equal(nested.statusCode, 400, nested.body);
    assert.match(nested.json().error.message, /cannot have environments/);
    const limited = await as(t, me).post(`/v1/projects/${slug}/environments`, { name: 'second' });
    assert.equal(limited.statusCode, 403, limited.body);
    assert.deepEqual(limited.json().error, {
      status: 403, name: 'ForbiddenError', message: 'The free plan allows 1 environment per project: delete one, or upgrade the plan',
      details: { limit: 'environments', plan: 'free', max: 1 },
    });
  });

  describe('promote', () => {
    const schemaOf = async (s: string) => {
      const res = await as(t, me).get(`/v1/projects/${s}/schema`);
      assert.equal(res.statusCode, 200, res.body);
      const { contentTypes, components } = res.json();
      return { contentTypes, components } as { contentTypes: Dict; components: Dict };
    };
    const promote = (body?: unknown) => as(t, me).post(`/v1/projects/${slug}/environments/staging/promote`, body);
    const pushEnv = async (model: Dict) => {
      const res = await as(t, me).put(`/v1/projects/${envSlug()}/schema`, model);
      assert.equal(res.statusCode, 200, res.body);
    };
    const articles = async () => (await get(slug, token, 'articles?status=draft&locale=*&sort=documentId&pagination[pageSize]=100')).json().data
      .map((a: Dict) => [a.documentId, a.locale, a.title]);

    it('shows an added attribute with a dry run (nothing changes), then applies it after a backup of the parent', async () => {
      const model = await schemaOf(envSlug());
      model.contentTypes['api::article.article'].attributes.subtitle = { type: 'string' };
      await pushEnv(model);
      const parentBefore = await schemaOf(slug);
      const contentBefore = await articles();
      const dry = await promote({ dryRun: true });
      assert.equal(dry.statusCode, 200, dry.body);
      assert.deepEqual(dry.json(), {
        plan: { steps: [{ kind: 'addAttribute', uid: 'api::article.article', attribute: 'subtitle', description: dry.json().plan.steps[0].description, destructive: false }], changed: true },
        applied: false, backup: null,
      });
      assert.deepEqual(await schemaOf(slug), parentBefore);
      const backupsBefore = (await as(t, me).get(`/v1/projects/${slug}/backups`)).json().backups.length;

      const applied = await promote();
      assert.equal(applied.statusCode, 200, applied.body);
      assert.equal(applied.json().applied, true);
      assert.deepEqual(applied.json().plan, dry.json().plan);
      const backups = (await as(t, me).get(`/v1/projects/${slug}/backups`)).json().backups as Dict[];
      assert.equal(backups.length, backupsBefore + 1);
      assert.deepEqual(backups.find((b) => b.id === applied.json().backup.id)?.status, 'done');
      assert.deepEqual(await schemaOf(slug), model);
      // Content never moves.
      assert.deepEqual(await articles(), contentBefore);
      const again = await promote({ dryRun: true });
      assert.deepEqual(again.json(), { plan: { steps: [], changed: false }, applied: false, backup: null });
    });

    it('refuses to remove an attribute without confirmation (400 listing it), then removes it with it', async () => {
      const model = await schemaOf(envSlug());
      delete model.contentTypes['api::article.article'].attributes.summary;
      await pushEnv(model);
      const parentBefore = await schemaOf(slug);
      const refused = await promote({ dryRun: false });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().error.name, 'ValidationError');
      assert.match(refused.json().error.message, /^This promotion deletes data: .*summary.*"confirm": true/);
      assert.deepEqual(refused.json().error.details.steps.map((s: Dict) => [s.kind, s.uid, s.attribute, s.destructive]), [['dropAttribute', 'api::article.article', 'summary', true]]);
      assert.deepEqual(await schemaOf(slug), parentBefore);
      assert.equal((await promote({ dryRun: false, confirm: false })).statusCode, 400);

      const applied = await promote({ dryRun: false, confirm: true });
      assert.equal(applied.statusCode, 200, applied.body);
      assert.equal(applied.json().applied, true);
      assert.deepEqual(await schemaOf(slug), model);
      const [first] = (await get(slug, token, 'articles?status=draft&locale=en')).json().data as Dict[];
      assert.equal('summary' in first!, false);
    });

    it('adds a new type to the parent, without the environment\'s documents of it', async () => {
      const model = await schemaOf(envSlug());
      model.contentTypes['api::event.event'] = {
        kind: 'collectionType', info: { singularName: 'event', pluralName: 'events', displayName: 'Event' }, options: { draftAndPublish: false },
        attributes: { label: { type: 'string' } },
      };
      await pushEnv(model);
      const roles = await as(t, me).get(`/v1/projects/${envSlug()}/roles`);
      assert.equal(roles.statusCode, 200);
      const made = await content(envSlug(), envToken, 'POST', 'events', { data: { label: 'staging only' } });
      assert.equal(made.statusCode, 201, made.body);
      const applied = await promote({ dryRun: false });
      assert.equal(applied.statusCode, 200, applied.body);
      const steps = applied.json().plan.steps as Dict[];
      assert.ok(steps.some((s) => s.kind === 'createContentType' && s.uid === 'api::event.event'), JSON.stringify(steps));
      assert.equal(steps.some((s) => s.destructive), false);
      assert.deepEqual(await schemaOf(slug), model);
      const events = await get(slug, token, 'events');
      assert.equal(events.statusCode, 200, events.body);
      assert.deepEqual(events.json().data, []);
    });

    it('refuses unknown keys and non-boolean options (400)', async () => {
      assert.equal((await promote({ dryRun: 'yes' })).statusCode, 400);
      assert.equal((await promote({ force: true })).statusCode, 400);
      assert.equal((await as(t, me).post(`/v1/projects/${slug}/environments/nothing/promote`, { dryRun: true })).statusCode, 404);
    });
  });

  it('deletes an environment at once (204): its schema and row go, the parent is untouched', async () => {
    const [env] = await sql<Dict>(`SELECT id::int AS id, schema_name AS schema FROM platform.projects WHERE slug = $1`, [envSlug()]);
    const res = await as(t, me).del(`/v1/projects/${slug}/environments/staging`);
    assert.equal(res.statusCode, 204, res.body);
    assert.equal((await sql(`SELECT 1 FROM platform.projects WHERE id = $1`, [env!.id])).length, 0);
    assert.equal(await schemaExists(env!.schema), false);
    assert.equal((await as(t, me).get(`/v1/projects/${envSlug()}`)).statusCode, 404);
    assert.equal((await get(envSlug(), envToken, 'tags')).statusCode, 404);
    assert.equal((await as(t, me).del(`/v1/projects/${slug}/environments/staging`)).statusCode, 404);
    assert.equal((await get(slug, token, 'tags')).statusCode, 200);
    // Its media went, the parent's stayed.
    const envDir = join(t.env.MEDIA_DIR!, String(env!.id));
    assert.ok(!existsSync(envDir) || readdirSync(envDir).length === 0);
    assert.ok(readdirSync(join(t.env.MEDIA_DIR!, String(projectId))).length > 0);
  });

  it('keeps the parent answering reads and writes with no error while it is copied', async () => {
    let stop = false;
    const failures: string[] = [];
    let requests = 0;
    const load = async (n: number) => {
      while (!stop) {
        const write = n % 2 === 0;
        const res = write
          ? await content(slug, token, 'POST', 'tags', { data: { name: `load ${n} ${requests}` } })
          : await get(slug, token, 'articles?status=draft&locale=*&populate=*');
        requests++;
        if (res.statusCode >= 300) failures.push(`${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    };
    const clients = [0, 1, 2, 3].map(load);
    await new Promise((r) => setTimeout(r, 200));
    const res = await as(t, me).post(`/v1/projects/${slug}/environments`, { name: 'load' });
    assert.equal(res.statusCode, 202, res.body);
    await ready();
    stop = true;
    await Promise.all(clients);
    assert.deepEqual(failures, []);
    assert.ok(requests > 10, `${requests} requests`);
    const [env] = await sql<Dict>(`SELECT environment_status AS status FROM platform.projects WHERE slug = $1`, [`${slug}--load`]);
    assert.equal(env!.status, 'ready');
    // The copy is one snapshot: every tag of the environment is one of the parent's.
    const loadToken = await fullAccessToken(t, me, `${slug}--load`);
    const envTags = (await get(`${slug}--load`, loadToken, 'tags?status=draft&pagination[pageSize]=100&sort=id')).json().meta.pagination.total;
    const parentTags = (await get(slug, token, 'tags?status=draft&pagination[pageSize]=1')).json().meta.pagination.total;
    assert.ok(envTags <= parentTags);
  });

  it('allows 3 environments on pro, 409 on a taken name, and deletes them with their parent', async () => {
    const small = await createProject(t, me, { name: 'Small parent' });
    await t.platform.db.pool.query(compiledQuery({ text: `UPDATE platform.projects SET plan = 'pro' WHERE id = $1`, values: [small.id] }));
    await t.platform.registry.invalidate({ projectId: small.id, slug: small.slug, scope: 'project' });
    for (const name of ['a', 'b', 'c']) {
      const res = await as(t, me).post(`/v1/projects/${small.slug}/environments`, { name });
      assert.equal(res.statusCode, 202, res.body);
    }
    await ready();
    const fourth = await as(t, me).post(`/v1/projects/${small.slug}/environments`, { name: 'd' });
    assert.equal(fourth.statusCode, 403);
    assert.deepEqual(fourth.json().error.details, { limit: 'environments', plan: 'pro', max: 3 });
    // Deleted as a project: dropped at once too (no restore window, not listed as deleted).
    assert.equal((await as(t, me).del(`/v1/projects/${small.slug}--c`)).statusCode, 204);
    assert.equal((await sql(`SELECT 1 FROM platform.projects WHERE slug = $1`, [`${small.slug}--c`])).length, 0);
    assert.deepEqual((await as(t, me).get('/v1/projects?status=deleted')).json().projects, []);
    const taken = await as(t, me).post(`/v1/projects/${small.slug}/environments`, { name: 'a' });
    assert.equal(taken.statusCode, 409, taken.body);
    assert.equal(taken.json().error.message, 'The environment name "a" is already taken');
    for (const name of ['Bad', '1abc', 'a'.repeat(21), '']) {
      const bad = await as(t, me).post(`/v1/projects/${small.slug}/environments`, { name });
      assert.equal(bad.statusCode, 400, `${name}: ${bad.body}`);
    }
    // A copy whose process stopped reads as failed a minute after its last heartbeat; it cannot be promoted.
    await sql(`UPDATE platform.projects SET environment_status = 'copying', environment_heartbeat_at = now() - interval '2 minutes' WHERE slug = $1`, [`${small.slug}--b`]);
    const listed = (await as(t, me).get(`/v1/projects/${small.slug}/environments`)).json().environments as Dict[];
    assert.deepEqual(listed.map((e) => [e.name, e.status, e.error]), [['a', 'ready', null], ['b', 'failed', 'the copy stopped: the process running it ended']]);
    const notReady = await as(t, me).post(`/v1/projects/${small.slug}/environments/b/promote`, { dryRun: true });
    assert.equal(notReady.statusCode, 409, notReady.body);
    assert.equal(notReady.json().error.message, 'The environment is not ready (it is failed)');
    // Its content API answers nothing of a partial copy: 503 while it is being copied, 404 once it failed.
    const envB = `${small.slug}--b`;
    const busy = await t.inject({ method: 'GET', url: `/p/${envB}/api/tags` });
    assert.equal(busy.statusCode, 503, busy.body);
    assert.equal(busy.headers['retry-after'], '2');
    assert.deepEqual(busy.json().error, {
      status: 503, name: 'ServiceUnavailableError', message: 'This environment is still being copied from its parent project; please try again in a few seconds.', details: {},
    });
    await sql(`UPDATE platform.projects SET environment_status = 'failed' WHERE slug = $1`, [envB]);
    await t.platform.registry.invalidate({ slug: envB, scope: 'project' });
    const gone = await t.inject({ method: 'GET', url: `/p/${envB}/api/tags` });
    assert.deepEqual([gone.statusCode, gone.json().error.message], [404, 'This environment could not be copied: delete it and create it again']);
    const envs = await sql<Dict>(`SELECT schema_name AS schema, plan FROM platform.projects WHERE parent_id = $1`, [small.id]);
    assert.deepEqual(envs.map((e) => e.plan), ['pro', 'pro']);
    // Deleting the parent drops its environments at once.
    assert.equal((await as(t, me).del(`/v1/projects/${small.slug}`)).statusCode, 204);
    assert.equal((await sql(`SELECT 1 FROM platform.projects WHERE parent_id = $1`, [small.id])).length, 0);
    for (const e of envs) assert.equal(await schemaExists(e.schema), false);
    assert.equal((await as(t, me).get(`/v1/projects/${small.slug}--a`)).statusCode, 404);
    assert.equal((await t.inject({ method: 'GET', url: `/p/${small.slug}--a/api/tags` })).statusCode, 404);
  });
});
