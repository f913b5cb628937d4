// The Dockerfile, checked and run where no container engine exists. The file is parsed
// (dockerfile-ast) and its rules asserted: stages, pinned base images, a non-root user, a health
// check, production dependencies only, no tsx at run time. Then its steps run as a script in a
// temporary directory, one directory per stage as that stage's filesystem: COPY from the build
// context (filtered by .dockerignore) or from an earlier stage, WORKDIR, ENV, and every RUN of the
// stages the image is built from, verbatim — except two kinds:
//   - `npm ci` (network, minutes): replaced by the repository's installed node_modules, linked
//     entry by entry, with the workspace links npm would make; for the production install, the
//     test asserts instead that every package the compiled server imports (dist/externals.json)
//     is installed with the gateway's or the worker's production dependencies (what
//     `npm ci --omit=dev -w …` installs);
//   - the runtime stage's RUN (creates the image's user: root inside an image): asserted to create
//     the uid USER names.
// The assembled runtime directory then runs the image's commands from its ENTRYPOINT and CMD:
// `migrate` exits 0, the gateway answers /readyz 200 and serves content and the dashboard (with
// OpenTelemetry's loader hooks instrumenting pg), the HEALTHCHECK command passes (and fails once
// it stopped), the worker starts and answers its probes (WORKER_HEALTH_PORT) and the HEALTHCHECK,
// both exit 0 on SIGTERM.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { DockerfileParser, type Dockerfile, type Instruction } from 'dockerfile-ast';
import { EXTERNALS_FILE, keptExternal } from '../../scripts/build.ts';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../helpers/db.ts';
import { call, freePort } from '../helpers/process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Stage {
  name: string;
  /** the base: an image reference (ARGs expanded) or an earlier stage's name */
  from: string;
  instructions: Instruction[];
}

function parseStages(df: Dockerfile): Stage[] {
  const args = new Map(df.getInitialARGs().map((a) => [a.getProperty()!.getName(), a.getProperty()!.getValue() ?? '']));
  const expand = (text: string) => text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => args.get(a ?? b) ?? '');
  const stages: Stage[] = [];
  for (const ins of df.getInstructions()) {
    if (ins.getKeyword() === 'FROM') {
      const [image, as, name] = ins.getArguments().map((a) => a.getValue());
      assert.equal(as?.toUpperCase(), 'AS', `every stage is named: FROM ${image}`);
      stages.push({ name: name!, from: expand(image!), instructions: [] });
    } else if (stages.length) {
      stages.at(-1)!.instructions.push(ins);
    }
  }
  return stages;
}

const keyword = (stage: Stage, word: string) => stage.instructions.filter((i) => i.getKeyword() === word);
/** A RUN's shell text as Docker hands it to `sh -c` (line continuations removed). */
const shellText = (ins: Instruction) => ins.getRawArgumentsContent()!.replace(/\\\r?\n/g, '');
const jsonArgs = (ins: Instruction): string[] => JSON.parse(ins.getArgumentsContent()!.replace(/^CMD\s+/i, ''));
const flag = (ins: Instruction, name: string) =>
  (ins as unknown as { getFlags(): Array<{ getName(): string; getValue(): string | null }> }).getFlags().find((f) => f.getName() === name)?.getValue() ?? null;

/** .dockerignore patterns (Docker's: anchored at the context root, `**` any depth) as a test of relative paths. */
function dockerignore(text: string): (path: string) => boolean {
  const rules = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((line) => {
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
    const source = pattern.split(/(\*\*\/|\*\*|\*|\?)/).map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }).join('');
    return { negate, re: new RegExp(`^${source}(?:/.*)?$`) };
  });
  return (path) => {
    let ignored = false;
    for (const rule of rules) if (rule.re.test(path)) ignored = !rule.negate;
    return ignored;
  };
}

/** Workspaces reachable from `names` through `dependencies`, and the npm packages they declare. */
function productionClosure(manifests: Map<string, { dependencies?: Record<string, string> }>, names: string[]): Set<string> {
  const seen = new Set<string>();
  const npm = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of Object.keys(manifests.get(name)?.dependencies ?? {})) {
      if (manifests.has(dep)) visit(dep);
      else npm.add(dep);
    }
  };
  names.forEach(visit);
  return npm;
}

/**
 * The npm packages `names` install with, through the lockfile's dependencies and optional
 * dependencies (hoisted packages, as `npm ci` lays them out).
 */
function installedWith(lock: { packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }> }, names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const visit = (name: string) => {
    if (out.has(name)) return;
    out.add(name);
    const entry = lock.packages[`node_modules/${name}`];
    for (const dep of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) visit(dep);
  };
  for (const name of names) visit(name);
  return out;
}

/**
 * Whether the repository has the package installed. A bundled dependency may import an optional
 * package it does without (in a `try`), which esbuild leaves to run time when it is missing.
 */
const installed = (name: string) => existsSync(join(ROOT, 'node_modules', name, 'package.json'));

interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

describe('Dockerfile', () => {
  let df: Dockerfile;
  let stages: Stage[];
  let runtime: Stage;

  before(async () => {
    df = DockerfileParser.parse(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
    stages = parseStages(df);
    runtime = stages.at(-1)!;
  });

  it('is multi-stage on pinned base images (no latest)', () => {
    assert.deepEqual(stages.map((s) => s.name), ['manifests', 'deps', 'build', 'prod-deps', 'runtime']);
    const names = new Set<string>();
    for (const stage of stages) {
      if (!names.has(stage.from)) {
        const m = /^([a-z0-9./_-]+)(?::([\w.-]+))?(?:@sha256:[0-9a-f]{64})?$/.exec(stage.from);
        assert.ok(m, `${stage.name}: a base image reference, not "${stage.from}"`);
        assert.ok(m[2] || stage.from.includes('@sha256:'), `${stage.name}: ${stage.from} names a tag or digest`);
        assert.notEqual(m[2], 'latest', `${stage.name}: ${stage.from}`);
        assert.match(m[2] ?? '', /^\d+\.\d+\.\d+/, `${stage.name}: ${stage.from} pins the Node version`);
      }
      names.add(stage.name);
    }
    // The runtime starts from the base image, not from a stage with the build's tools in it.
    assert.equal(runtime.from, stages[0]!.from);
    assert.ok(!stages.some((s) => s.name === runtime.from));
  });

  it('runs as a non-root user, with a health check and the three commands', () => {
    const users = keyword(runtime, 'USER');
    assert.equal(users.length, 1);
    const [uid, gid] = users[0]!.getArgumentsContent()!.split(':');
    assert.match(uid!, /^[1-9]\d*$/, 'a numeric uid (Kubernetes runAsNonRoot can check it), not 0');
    assert.match(gid ?? '', /^[1-9]\d*$/);
    // The runtime stage's RUN creates that user.
    assert.ok(keyword(runtime, 'RUN').some((r) => shellText(r).includes(`--uid ${uid}`) && shellText(r).includes(`--gid ${gid}`)));
    // USER comes after every RUN and COPY (nothing runs as root after it, nothing is written by it).
    const userIndex = runtime.instructions.indexOf(users[0]!);
    assert.ok(runtime.instructions.slice(userIndex).every((i) => !['RUN', 'COPY', 'ADD'].includes(i.getKeyword())));

    const health = keyword(runtime, 'HEALTHCHECK');
    assert.equal(health.length, 1);
    assert.equal((health[0] as unknown as { getSubcommand(): { getValue(): string } }).getSubcommand().getValue(), 'CMD');
    assert.deepEqual(jsonArgs(health[0]!), ['node', 'dist/cms-server.js', 'healthcheck']);
    assert.ok(flag(health[0]!, 'interval') && flag(health[0]!, 'timeout'));

    const [entrypoint] = keyword(runtime, 'ENTRYPOINT');
    const [cmd] = keyword(runtime, 'CMD');
    assert.deepEqual(jsonArgs(entrypoint!), ['node', 'dist/cms-server.js']);
    assert.deepEqual(jsonArgs(cmd!), ['gateway']);
    // No TypeScript loader at run time.
    assert.ok(runtime.instructions.every((i) => !/\btsx\b/.test(i.getRawArgumentsContent() ?? '')));
    // Dependencies come from the production install only.
    const copies = keyword(runtime, 'COPY');
    assert.deepEqual(copies.filter((c) => /node_modules/.test(c.getArgumentsContent()!)).map((c) => flag(c, 'from')), ['prod-deps']);
    const prod = stages.find((s) => s.name === 'prod-deps')!;
    assert.match(shellText(keyword(prod, 'RUN')[0]!), /^npm ci --omit=dev --workspace @cms\/gateway --workspace @cms\/worker /);
  });

  it('keeps local state, secrets and installed or built output out of the build context', async () => {
    const ignored = dockerignore(await readFile(join(ROOT, '.dockerignore'), 'utf8'));
    for (const path of ['node_modules', 'apps/dashboard/node_modules/x', 'dist/gateway.js', 'apps/dashboard/dist/index.html', '.data/pg', '.git/HEAD', '.env', 'apps/gateway/.env.local', 'test/helpers/app.ts', 'packages/db/src/x.test.ts', '.cluster/gateway-1.pid']) {
      assert.ok(ignored(path), path);
    }
    for (const path of ['package.json', 'package-lock.json', 'tsconfig.json', 'packages/db/src/index.ts', 'apps/dashboard/src/main.tsx', 'scripts/build.ts']) {
      assert.ok(!ignored(path), path);
    }
  });

  describe('its steps, run as a script', () => {
    let work = '';
    let db: TestDatabase;
    let app = '';
    let env: Record<string, string> = {};
    const procs: Proc[] = [];

    /** The stage's filesystem root in `work`. */
    const rootOf = (name: string) => join(work, 'stages', name);

    /** `npm ci`, from the repository's installed node_modules (see the top of the file). */
    async function installDependencies(dir: string): Promise<void> {
      const modules = join(dir, 'node_modules');
      await mkdir(modules, { recursive: true });
      for (const entry of await readdir(join(ROOT, 'node_modules'))) {
        if (entry === '@cms' || entry === '.package-lock.json') continue;
        await symlink(join(ROOT, 'node_modules', entry), join(modules, entry));
      }
      // The workspace links npm makes, from the lockfile (`node_modules/@cms/x` → `packages/x`).
      const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { link?: boolean; resolved?: string }> };
      for (const [path, entry] of Object.entries(lock.packages)) {
        if (!entry.link || !path.startsWith('node_modules/')) continue;
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await symlink(relative(dirname(join(dir, path)), join(dir, entry.resolved!)), join(dir, path));
      }
    }

    async function copyStep(root: string, workdir: string, ins: Instruction, ignored: (p: string) => boolean): Promise<void> {
      const from = flag(ins, 'from');
      const args = ins.getArguments().map((a) => a.getValue());
      const dest = args.pop()!;
      const target = dest.startsWith('/') ? join(root, dest) : join(root, workdir, dest);
      for (const src of args) {
        const source = from ? join(rootOf(from), src) : join(ROOT, src);
        const isDir = (await stat(source)).isDirectory();
        const to = isDir || !(dest.endsWith('/') || args.length > 1) ? target : join(target, basename(src));
        await cp(source, to, {
          recursive: true, verbatimSymlinks: true, force: true,
          filter: from ? undefined : (s) => relative(ROOT, s) === '' || !ignored(relative(ROOT, s)),
        });
      }
    }

    before(async () => {
      work = await mkdtemp(join(tmpdir(), 'dockerfile-steps-'));
      const ignored = dockerignore(await readFile(join(ROOT, '.dockerignore'), 'utf8'));
      const envOf = new Map<string, Record<string, string>>();
      const workdirOf = new Map<string, string>();
      for (const stage of stages) {
        const root = rootOf(stage.name);
        const base = stages.find((s) => s.name === stage.from);
        if (base) await cp(rootOf(base.name), root, { recursive: true, verbatimSymlinks: true });
        else await mkdir(root, { recursive: true });
        const stageEnv = { ...(base ? envOf.get(base.name) : {}) };
        let workdir = base ? workdirOf.get(base.name)! : '/';
        for (const ins of stage.instructions) {
          switch (ins.getKeyword()) {
            case 'WORKDIR':
              workdir = ins.getArgumentsContent()!;
              await mkdir(join(root, workdir), { recursive: true });
              break;
            case 'ENV':
              for (const p of (ins as unknown as { getProperties(): Array<{ getName(): string; getValue(): string }> }).getProperties()) stageEnv[p.getName()] = p.getValue();
              break;
            case 'COPY':
              await copyStep(root, workdir, ins, ignored);
              break;
            case 'RUN': {
              if (stage === runtime) break; // the user's creation: asserted above
              const parts = shellText(ins).split(/\s+&&\s+/);
              const cwd = join(root, workdir);
              if (parts[0]!.startsWith('npm ci')) await installDependencies(cwd);
              const rest = parts.filter((p) => !p.startsWith('npm ci')).join(' && ');
              if (rest) {
                await run('bash', ['-c', rest], {
                  cwd, env: { ...process.env, ...stageEnv }, maxBuffer: 64 * 1024 * 1024,
                }).catch((err: { stdout?: string; stderr?: string }) => {
                  throw new Error(`RUN ${rest} failed in ${stage.name}:\n${err.stdout}\n${err.stderr}`);
                });
              }
              break;
            }
            default:
              break;
          }
        }
        envOf.set(stage.name, stageEnv);
        workdirOf.set(stage.name, workdir);
      }
      app = join(rootOf(runtime.name), workdirOf.get(runtime.name)!);
      db = await createTestDatabase();
      env = {
        PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp',
        ...envOf.get(runtime.name),
        // This machine's services, a loopback port, and the image's /data inside the stage.
        HOST: '127.0.0.1', PORT: String(await freePort()), WORKER_HEALTH_PORT: String(await freePort()), DATA_DIR: join(rootOf(runtime.name), 'data'),
        DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${db.name}:`,
        APP_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'info',
        // Telemetry on (to a port nothing listens on): its loader hooks must still instrument pg when bundled.
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}`, OTEL_METRIC_EXPORT_INTERVAL: '600000', METRICS_TOKEN: 'image-metrics',
      };
      await mkdir(env.DATA_DIR!, { recursive: true });
    });

    after(async () => {
      for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await db?.drop();
      if (work) await rm(work, { recursive: true, force: true });
    });

    /** One of the image's commands: ENTRYPOINT + the given CMD, in the runtime's workdir and environment. */
    function command(args: string[]): Proc {
      const [program, ...rest] = [...jsonArgs(keyword(runtime, 'ENTRYPOINT')[0]!), ...args];
      assert.equal(program, 'node');
      const child = spawn(process.execPath, rest, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const proc = { child, output: () => out, exited: new Promise<number | null>((r) => child.once('exit', (code) => r(code))) };
      procs.push(proc);
      return proc;
    }

    /**
     * The image's HEALTHCHECK command. It finds the container's command from pid 1, which is no
     * container here: `command` names it instead (an extra argument the image's command omits).
     */
    const healthcheck = async (command?: 'worker') => {
      const [program, ...rest] = jsonArgs(keyword(runtime, 'HEALTHCHECK')[0]!);
      assert.equal(program, 'node');
      return run(process.execPath, [...rest, ...(command ? [command] : [])], { cwd: app, env }).then(() => 0, (err: { code: number }) => err.code);
    };

    it('assembles an image of the compiled server, the dashboard and production dependencies only', async () => {
      const files = await readdir(join(app, 'dist'));
      for (const f of ['gateway.js', 'worker.js', 'migrate.js', 'cms-server.js', 'gateway.js.map', 'package.json']) assert.ok(files.includes(f), f);
      assert.match(await readFile(join(app, 'apps/dashboard/dist/index.html'), 'utf8'), /<div id="root">/);
      // No TypeScript and no workspace sources in the image: the workspace packages are compiled in.
      assert.deepEqual((await readdir(app)).sort(), ['apps', 'dist', 'node_modules', 'package.json']);
      assert.deepEqual(await readdir(join(app, 'apps')), ['dashboard']);
      // What the compiled server imports is what the production install of gateway + worker provides.
      const manifests = new Map<string, { dependencies?: Record<string, string> }>();
      for (const group of ['apps', 'packages']) {
        for (const name of await readdir(join(ROOT, group))) {
          const manifest = JSON.parse(await readFile(join(ROOT, group, name, 'package.json'), 'utf8').catch(() => 'null'));
          if (manifest) manifests.set(manifest.name, manifest);
        }
      }
      const production = productionClosure(manifests, ['@cms/gateway', '@cms/worker']);
      const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'));
      // esbuild's list of what the output imports from node_modules (dist/externals.json).
      const imported = (JSON.parse(await readFile(join(app, 'dist', EXTERNALS_FILE), 'utf8')) as string[]).filter(installed);
      assert.ok(imported.includes('pg') && imported.includes('ioredis') && imported.includes('sharp'), imported.join(', '));
      assert.deepEqual(imported.filter((p) => p.startsWith('@cms/')), [], 'workspace packages are bundled');
      // The rest of the npm dependencies are bundled too (a start opens a few hundred files, not ~2,000): only
      // the packages the build keeps external on purpose are imported at run time.
      assert.ok(!imported.includes('fastify') && !imported.includes('stripe'));
      assert.deepEqual(imported.filter((p) => !keptExternal(p)), [], 'imported at run time but not one of KEEP_EXTERNAL');
      const installedInImage = installedWith(lock, production);
      assert.deepEqual(imported.filter((p) => !installedInImage.has(p)), [], 'imported but not installed with the gateway\'s and the worker\'s production dependencies');
      assert.ok(!imported.includes('tsx'));
    });

    it('runs `migrate`, then the gateway: /readyz 200, content served, health check, SIGTERM exits 0', async () => {
      const migrate = command(['migrate']);
      assert.equal(await migrate.exited, 0, migrate.output());
      const { compiledQuery } = await import('@cms/db');
      const applied = await db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*) FROM platform.schema_migrations', values: [] }));
      assert.ok(Number(applied) >= 1);

      const gateway = command(CMD());
      const base = `http://127.0.0.1:${env.PORT}`;
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (gateway.child.exitCode !== null) assert.fail(`gateway exited ${gateway.child.exitCode}:\n${gateway.output()}`);
        const ready = await fetch(`${base}/readyz`).then((r) => r.status, () => 0);
        if (ready === 200) break;
        assert.ok(Date.now() < deadline, `not ready within 30 s:\n${gateway.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(await call(base, 'GET', '/readyz'), { status: 200, body: { status: 'ok', postgres: 'ok', redis: 'ok' } });
      assert.equal(await healthcheck(), 0);
      // Nothing to migrate at start: `migrate` did it.
      assert.doesNotMatch(gateway.output(), /control schema migrated/);

      const signup = await call(base, 'POST', '/v1/auth/signup', { email: `image-${db.name}@example.com`, password: 'a long password' });
      assert.equal(signup.status, 201);
      const project = await call(base, 'POST', '/v1/projects', { name: 'Image' }, signup.body.token);
      assert.equal(project.status, 201);
      const slug = project.body.project.slug as string;
      const model = {
        contentTypes: { 'api::note.note': { kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, options: { draftAndPublish: false }, attributes: { title: { type: 'string' } } } },
        components: {},
      };
      assert.equal((await call(base, 'PUT', `/v1/projects/${slug}/schema`, model, signup.body.token)).status, 200);
      const key = await call(base, 'POST', `/v1/projects/${slug}/api-tokens`, { name: 'image', type: 'full-access' }, signup.body.token);
      assert.equal(key.status, 201);
      const created = await call(base, 'POST', `/p/${slug}/api/notes`, { data: { title: 'from the image' } }, key.body.accessKey);
      assert.equal(created.status, 201);
      const read = await call(base, 'GET', `/p/${slug}/api/notes/${created.body.data.documentId}`, undefined, key.body.accessKey);
      assert.equal(read.status, 200);
      assert.equal(read.body.data.title, 'from the image');
      // pg was instrumented as it loaded: the SDK started before the app's chunk imported it.
      const metrics = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer image-metrics' } });
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /db_client_operation_duration_count\{[^}]*otel_scope_name="@opentelemetry\/instrumentation-pg"/);
      // The dashboard's static build.
      const page = await fetch(`${base}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="root">/);

      gateway.child.kill('SIGTERM');
      assert.equal(await gateway.exited, 0, gateway.output());
      assert.equal(await healthcheck(), 1);
    });

    it('runs `worker` (probes on WORKER_HEALTH_PORT, health check) until SIGTERM, then exits 0', async () => {
      const worker = command(['worker']);
      const deadline = Date.now() + 30_000;
      while (!worker.output().includes('worker ready')) {
        if (worker.child.exitCode !== null) assert.fail(`worker exited ${worker.child.exitCode}:\n${worker.output()}`);
        assert.ok(Date.now() < deadline, worker.output());
        await new Promise((r) => setTimeout(r, 50));
      }
      const probes = `http://127.0.0.1:${env.WORKER_HEALTH_PORT}`;
      assert.deepEqual(await call(probes, 'GET', '/healthz'), { status: 200, body: { status: 'ok' } });
      assert.deepEqual(await call(probes, 'GET', '/readyz'), { status: 200, body: { status: 'ok', postgres: 'ok', redis: 'ok' } });
      assert.equal(await healthcheck('worker'), 0);
      worker.child.kill('SIGTERM');
      assert.equal(await worker.exited, 0, worker.output());
      assert.equal(await healthcheck('worker'), 1);
      const unknown = command(['serve']);
      assert.equal(await unknown.exited, 64);
      assert.match(unknown.output(), /unknown command "serve"; usage: cms-server gateway \| worker \| migrate/);
    });

    /** The image's default command. */
    const CMD = () => jsonArgs(keyword(runtime, 'CMD')[0]!);
  });
});
