// The `cms` CLI's model commands against a listening gateway: `schema pull` writes Strapi's file
// layout, `schema push` of that folder to another project gives the same model (and a Strapi
// project's folder is pushed as is), destructive pushes need --yes; `types` compiles with tsc
// against a sample program and describes the platform's real responses; `openapi` writes the
// project's document.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, ROOT, type Cli } from '../helpers/cli.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { createProject, PASSWORD } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';
import { KITCHEN_MODEL } from '../fixtures/kitchen.ts';

const run = promisify(execFile);
const STRAPI_PROJECT = join(ROOT, 'test/fixtures/strapi-project');
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Every file under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

describe('cms CLI: schema, types, openapi', () => {
  let t: TestApp;
  let cli: Cli;
  let p: ContentProject;
  let model: (slug: string) => Promise<{ contentTypes: Record<string, unknown>; components: Record<string, unknown>; version: number }>;
  let pulled: string;
  const copy = `copy-${process.pid}`;

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    p = await setupContentProject(t, KITCHEN_MODEL, ['fr']);
    model = async (slug) => {
      const res = await p.admin.get(`/v1/projects/${slug}/schema`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const login = await cli.run(['login', '--email', p.owner.account.email, '--password', PASSWORD]);
    assert.equal(login.code, 0, login.stderr);
    pulled = join(cli.home, 'pulled');
  });
  after(async () => {
    await cli?.close();
    await t?.close();
  });

  describe('schema pull', () => {
    it('writes the model in Strapi\'s file layout, each file the schema as stored', async () => {
      const res = await cli.run(['schema', 'pull', pulled, '--project', p.slug]);
      assert.equal(res.code, 0, res.stderr);
      const current = await model(p.slug);
      assert.equal(res.stdout, `Wrote 4 content types and 2 components of ${p.slug} (model version ${current.version}) to ${pulled} (6 files).\n`);
      assert.deepEqual(await tree(pulled), [
        'src/api/category/content-types/category/schema.json',
        'src/api/chef/content-types/chef/schema.json',
        'src/api/homepage/content-types/homepage/schema.json',
        'src/api/restaurant/content-types/restaurant/schema.json',
        'src/components/shared/quote.json',
        'src/components/shared/seo.json',
      ]);
      assert.deepEqual(await readJson(join(pulled, 'src/api/restaurant/content-types/restaurant/schema.json')), current.contentTypes['api::restaurant.restaurant']);
      assert.deepEqual(await readJson(join(pulled, 'src/components/shared/seo.json')), current.components['shared.seo']);
      // The same layout as a Strapi v5 project's (the fixture's paths have this shape).
      for (const path of await tree(join(STRAPI_PROJECT, 'src'))) {
        if (path.endsWith('.json')) assert.match(path, /^(api\/[^/]+\/content-types\/[^/]+\/schema|components\/[^/]+\/[^/]+)\.json$/);
      }
    });
  });

  describe('schema push', () => {
    before(async () => {
      await createProject(t, p.owner, { name: 'Copy', slug: copy });
    });

    it('shows the plan and pushes the pulled folder to a new project: the same model', async () => {
      const res = await cli.run(['schema', 'push', pulled, '--project', copy]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^Planned migration:\n/);
      assert.match(res.stdout, /^ {2}\+ create content type api::restaurant\.restaurant$/m);
      assert.doesNotMatch(res.stdout, /deletes stored data/);
      const [source, target] = [await model(p.slug), await model(copy)];
      assert.match(res.stdout, new RegExp(`\\nApplied: ${copy} is at model version ${target.version}\\.\\n$`));
      assert.deepEqual(target.contentTypes, source.contentTypes);
      assert.deepEqual(target.components, source.components);
    });

    it('pushing the same folder again changes nothing', async () => {
      const before = (await model(copy)).version;
      const res = await cli.run(['schema', 'push', pulled, '--project', copy]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, 'The project\'s model is already this one: nothing to change.\n');
      assert.equal((await model(copy)).version, before);
    });

    it('a destructive change is refused without --yes (no terminal), applied with it', async () => {
      const file = join(pulled, 'src/api/restaurant/content-types/restaurant/schema.json');
      const schema = await readJson(file);
      delete schema.attributes.score;
      schema.attributes.stars = { type: 'integer' };
      await writeFile(file, JSON.stringify(schema, null, 2));
      const before = await model(copy);

      const dry = await cli.run(['schema', 'push', pulled, '--project', copy, '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.equal(dry.stdout, 'Planned migration:\n'
        + '  ! drop attribute score of api::restaurant.restaurant  (deletes stored data)\n'
        + '  + add attribute stars to api::restaurant.restaurant\n');

      const refused = await cli.run(['schema', 'push', pulled, '--project', copy]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stdout, dry.stdout);
      assert.equal(refused.stderr, 'Error: The migration deletes stored data (1 step marked !): nothing was changed. Pass --yes to confirm without a prompt.\n');
      assert.deepEqual(await model(copy), before);

      const applied = await cli.run(['schema', 'push', pulled, '--project', copy, '--yes']);
      assert.equal(applied.code, 0, applied.stderr);
      const after = await model(copy);
      assert.equal(after.version, before.version + 1);
      assert.deepEqual(after.contentTypes['api::restaurant.restaurant'], schema);
    });

    it('an invalid model is the server\'s validation error, nothing changed', async () => {
      const dir = join(cli.home, 'invalid');
      await mkdir(join(dir, 'src/api/thing/content-types/thing'), { recursive: true });
      await writeFile(join(dir, 'src/api/thing/content-types/thing/schema.json'), JSON.stringify({
        kind: 'collectionType', info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
        attributes: { title: { type: 'nonsense' } },
      }));
      const before = await model(copy);
      const res = await cli.run(['schema', 'push', dir, '--project', copy, '--yes']);
      assert.equal(res.code, 1);
      assert.match(res.stderr, /^Error: contentTypes\.api::thing\.thing\.attributes\.title\.type: type "nonsense" is not a valid attribute type .+ \(400 ValidationError\)\n$/);
      assert.deepEqual(await model(copy), before);
    });

    it('a folder without model files, or with a broken one, is an error naming it', async () => {
      const empty = join(cli.home, 'empty-model');
      await mkdir(empty, { recursive: true });
      const none = await cli.run(['schema', 'push', empty, '--project', copy]);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /^Error: No model files in /);
      await mkdir(join(empty, 'src/components/shared'), { recursive: true });
      await writeFile(join(empty, 'src/components/shared/broken.json'), '{ nope');
      const broken = await cli.run(['schema', 'push', empty, '--project', copy]);
      assert.equal(broken.code, 1);
      assert.equal(broken.stderr, `Error: Cannot read the model of ${empty}:\n  src/components/shared/broken.json is not valid JSON\n`);
    });

    it('pushes a Strapi v5 project\'s folder as it is', async () => {
      const strapi = `strapi-${process.pid}`;
      await createProject(t, p.owner, { name: 'From Strapi', slug: strapi });
      const res = await cli.run(['schema', 'push', STRAPI_PROJECT, '--project', strapi]);
      assert.equal(res.code, 0, res.stderr);
      const got = await model(strapi);
      assert.deepEqual(got.contentTypes, {
        'api::article.article': await readJson(join(STRAPI_PROJECT, 'src/api/article/content-types/article/schema.json')),
        'api::category.category': await readJson(join(STRAPI_PROJECT, 'src/api/category/content-types/category/schema.json')),
      });
      assert.deepEqual(got.components, {
        'shared.quote': await readJson(join(STRAPI_PROJECT, 'src/components/shared/quote.json')),
        'shared.seo': await readJson(join(STRAPI_PROJECT, 'src/components/shared/seo.json')),
      });
      // Pulled back, the folder holds the project's files byte for byte (Strapi's 2-space JSON).
      const back = join(cli.home, 'strapi-back');
      assert.equal((await cli.run(['schema', 'pull', back, '--project', strapi])).code, 0);
      for (const path of ['src/api/article/content-types/article/schema.json', 'src/components/shared/seo.json']) {
        assert.deepEqual(await readJson(join(back, path)), await readJson(join(STRAPI_PROJECT, path)));
      }
    });

    it('pull reports model files the project does not hold, and --prune deletes them', async () => {
      const dir = join(cli.home, 'stale');
      await mkdir(join(dir, 'src/api/old/content-types/old'), { recursive: true });
      await writeFile(join(dir, 'src/api/old/content-types/old/schema.json'), '{}');
      await mkdir(join(dir, 'config'), { recursive: true });
      await writeFile(join(dir, 'config/database.json'), '{}');
      const kept = await cli.run(['schema', 'pull', dir, '--project', p.slug]);
      assert.equal(kept.code, 0, kept.stderr);
      assert.match(kept.stdout, /Not in the project's model \(kept; --prune deletes them\):\n {2}src\/api\/old\/content-types\/old\/schema\.json\n$/);
      const pruned = await cli.run(['schema', 'pull', dir, '--project', p.slug, '--prune']);
      assert.equal(pruned.code, 0, pruned.stderr);
      assert.ok(!(await tree(dir)).includes('src/api/old/content-types/old/schema.json'));
      assert.ok((await tree(dir)).includes('config/database.json'));
    });
  });

  describe('types', () => {
    let dir: string;
    let populated: unknown;
    let chefs: unknown;

    before(async () => {
      dir = join(cli.home, 'typed');
      await mkdir(join(dir, 'node_modules/@strapi'), { recursive: true });
      await mkdir(join(dir, 'node_modules/@types'), { recursive: true });
      // What a project using @strapi/client has installed (its declarations use Node's Buffer).
      await symlink(join(ROOT, 'node_modules/@strapi/client'), join(dir, 'node_modules/@strapi/client'));
      await symlink(join(ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));

      // A document with every kind of attribute filled, read back populated: the JSON the types describe.
      const file = await multipart({ files: { name: 'dot.png', content: PNG_1X1, type: 'image/png' } });
      const uploaded = await p.api.post('/api/upload', file.payload, file.headers);
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const chef = await p.api.post('/api/chefs', { data: { name: 'Ana' } });
      assert.equal(chef.statusCode, 201, chef.body);
      const category = await p.api.post('/api/categories', { data: { name: 'Fish', slug: 'fish' } });
      assert.equal(category.statusCode, 201, category.body);
      const created = await p.api.post('/api/restaurants?status=published', { data: {
        name: 'Chez Ana',
        description: [
          { type: 'heading', level: 2, children: [{ type: 'text', text: 'Menu' }] },
          { type: 'paragraph', children: [{ type: 'text', text: 'Fresh ', bold: true }, { type: 'link', url: 'https://example.com', children: [{ type: 'text', text: 'fish' }] }] },
          { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'cod' }] }] },
        ],
        rating: 4, price: 12.5, open: true, openedOn: '2020-01-02', opensAt: '10:30:00', lastVisit: '2024-02-03T04:05:06.789Z',
        visits: '9007199254740993', score: 1.5, email: 'ana@example.com', kind: 'bistro', code: 'ABC', tags: { a: [1, 'x'] },
        pin: 'secret-pin', secret: 'hidden',
        chef: chef.json().data.documentId, categories: [category.json().data.documentId],
        cover: uploaded.json()[0].id, gallery: [uploaded.json()[0].id],
        seo: { metaTitle: 'T', metaDescription: 'D' },
        blocks: [{ __component: 'shared.quote', body: 'Q', author: 'A' }, { __component: 'shared.seo', metaTitle: 'S' }],
        sections: [{ body: 's1' }],
      } });
      assert.equal(created.statusCode, 201, created.body);
      const read = await p.api.get(`/api/restaurants/${created.json().data.documentId}?populate=*`);
      assert.equal(read.statusCode, 200, read.body);
      populated = read.json();
      const chefList = await p.api.get('/api/chefs?populate=restaurants');
      assert.equal(chefList.statusCode, 200, chefList.body);
      chefs = chefList.json();
    });

    /** `tsc --noEmit --strict` over `files` (declaration files checked too: no skipLibCheck). */
    const tsc = async (cwd: string, files: string[]) => {
      await writeFile(join(cwd, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', types: ['node'], lib: ['es2022', 'dom'] },
        files,
      }));
      return run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit', '--strict'], { cwd })
        .then(() => ({ code: 0, out: '' }), (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }));
    };

    it('writes types that compile with tsc --strict against a sample program and the real responses', async () => {
      const res = await cli.run(['types', join(dir, 'cms.d.ts'), '--project', p.slug]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Wrote the types of 4 content types and 2 components to ${join(dir, 'cms.d.ts')}.\n`);
      const types = await readFile(join(dir, 'cms.d.ts'), 'utf8');
      assert.match(types, /^export type Restaurant = \{$/m);
      assert.match(types, /^ {2}kind: "bistro" \| "brasserie" \| "cafe" \| null;$/m);
      assert.match(types, /^ {2}blocks\?: Array<\(SharedQuote & \{ __component: "shared\.quote" \}\) \| \(SharedSeo & \{ __component: "shared\.seo" \}\)>;$/m);

      await writeFile(join(dir, 'main.ts'), `
import { strapi, type API } from '@strapi/client';
import type { CollectionTypes, DocumentResponse, DocumentResponseCollection, MediaFile, Restaurant, SingleTypes, Chef } from './cms';

const client = strapi({ baseURL: 'http://localhost:1337/api' });

export async function titles(): Promise<string[]> {
  const list = (await client.collection('restaurants').find({ populate: '*' })) as DocumentResponseCollection<CollectionTypes['restaurants']>;
  const out: string[] = [];
  for (const r of list.data) {
    const id: number = r.id;
    const documentId: string = r.documentId;
    const name: string = r.name;
    const rating: number | null = r.rating;
    const visits: string | null = r.visits;
    const locale: string = r.locale;
    const published: string | null = r.publishedAt;
    const chef: string | null | undefined = r.chef?.name;
    const categories: number = r.categories?.length ?? 0;
    const cover: MediaFile | null | undefined = r.cover;
    const thumbnail = cover?.formats?.thumbnail?.url;
    const seo: string | undefined = r.seo?.metaTitle;
    for (const item of r.blocks ?? []) {
      if (item.__component === 'shared.quote') out.push(item.body ?? '');
      else out.push(item.metaTitle);
    }
    for (const node of r.description ?? []) {
      if (node.type === 'heading') out.push(String(node.level));
      if (node.type === 'list') out.push(node.format);
    }
    out.push(String(id), documentId, name, String(rating), String(visits), locale, String(published), String(chef), String(categories), String(thumbnail), String(seo));
    // @ts-expect-error a password attribute is never returned
    r.pin;
    // @ts-expect-error a private attribute is never returned
    r.secret;
    // @ts-expect-error not one of the enumeration's values
    r.kind = 'diner';
    // @ts-expect-error relations are optional: not populated by default
    const sure: Chef = r.chef;
    void sure;
  }
  const home = (await client.single('homepage').find()) as DocumentResponse<SingleTypes['homepage']>;
  out.push(home.data.title ?? '');
  // Assignable to @strapi/client's own document type.
  const doc: API.Document = list.data[0]!;
  void doc;
  return out;
}

// What the platform really answered (object literals: any key the types lack is an error).
export const restaurant = ${JSON.stringify(populated, null, 2)} satisfies DocumentResponse<Restaurant>;
export const chefs = ${JSON.stringify(chefs, null, 2)} satisfies DocumentResponseCollection<Chef>;
`);
      const compiled = await tsc(dir, ['main.ts']);
      assert.equal(compiled.code, 0, compiled.out);
    });

    it('tsc really checks the program against the types (a wrong use fails)', async () => {
      await writeFile(join(dir, 'wrong.ts'), `
import type { Restaurant } from './cms';
export const n = (r: Restaurant): number => r.name;
`);
      const compiled = await tsc(dir, ['wrong.ts']);
      assert.equal(compiled.code, 2);
      assert.match(compiled.out, /wrong\.ts\(3,45\): error TS2322: Type 'string' is not assignable to type 'number'\./);
    });
  });

  describe('openapi', () => {
    it('writes the project\'s OpenAPI 3.1 document as the management API serves it', async () => {
      const out = join(cli.home, 'api', 'openapi.json');
      const res = await cli.run(['openapi', out, '--project', p.slug]);
      assert.equal(res.code, 0, res.stderr);
      // Fetched over the same address (the document's server URLs are the request's origin).
      const served = await fetch(`${cli.url}/v1/projects/${p.slug}/openapi.json`, { headers: { authorization: `Bearer ${p.owner.token}` } });
      assert.equal(served.status, 200);
      const written = (await readJson(out)) as { openapi: string; paths: Record<string, unknown> };
      assert.deepEqual(written, (await served.json()) as typeof written);
      assert.match(written.openapi, /^3\.1\./);
      assert.ok(written.paths['/restaurants'], 'the document describes the project\'s types');
      assert.equal(res.stdout, `Wrote the OpenAPI ${written.openapi} document of ${p.slug} (${Object.keys(written.paths).length} paths) to ${out}.\n`);
    });
  });

  after(async () => {
    await rm(join(cli.home, 'typed'), { recursive: true, force: true });
  });
});
