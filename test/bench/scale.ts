// `make bench-scale`: many projects on one gateway. Creates projects in steps 10 → 100 → 1,000 →
// 10,000 (BENCH_SCALE_MAX stops earlier) through the management API of a real gateway process on
// the real Postgres, in a database of its own (`bench_scale`, dropped at the end), each with a
// 3-type model and public read access, and measures at each step:
// - project creation latency (POST /v1/projects) one at a time on an idle gateway (the last
//   SAMPLE projects of each step), and with its model and permissions; the rest are created
//   CREATE_CONCURRENCY at a time (throughput, and latency under that load);
// - cold first request: the first REST request, then the first GraphQL request, to those
//   SAMPLE projects, which this gateway has never served;
// - warm read p99 over a random spread of every warm project (autocannon, one path per
//   request, after an unmeasured run that warms the JIT and the caches), against the same
//   moment's reads of the first 10 projects only — for our gateway and for a hand-written server
//   making the same reads (baseline-scale-server.ts; identical bodies checked at each step);
// - the gateway's RSS, and its growth per warm project since the previous step;
// - the Postgres catalog: database size, pg_class / pg_proc / pg_trigger rows, pg_catalog size.
// Writes the generated section `bench-scale` of docs/performance.md (BENCH_SCALE_SECTION names
// another, e.g. for a shorter run beside it). BENCH_SCALE_KEEP=1 keeps the database;
// BENCH_SCALE_REUSE=1 measures only the warm reads on a kept one (measureKept). The reads repeat
// per project, so with the answer cache on (ANSWER_CACHE_MB, default 64) they are its hits: the
// share of ours answered `x-answer-cache: hit` is reported.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL, testDatabaseUrl } from '../helpers/db.ts';
import { spawnCompiledGateway, type GatewayProcess } from '../helpers/process.ts';
import { writeDocSection } from './doc-section.ts';
import { startBaseline, type BaselineProcess } from './baseline-process.ts';

const DATABASE = 'bench_scale';
const MAX = Number(process.env.BENCH_SCALE_MAX ?? 10_000);
// BENCH_SCALE_STEPS (e.g. `10,100,1000,2000`) replaces the steps, for a look between them.
const STEPS = (process.env.BENCH_SCALE_STEPS ? process.env.BENCH_SCALE_STEPS.split(',').map(Number) : [10, 100, 1_000, 10_000]).filter((n) => n <= MAX);
const CREATE_CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 4);
const WARM_CONCURRENCY = 8;
const SAMPLE = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECTION = process.env.BENCH_SCALE_SECTION ?? 'bench-scale';

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true },
        body: { type: 'richtext' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
      },
    },
    'api::author.author': {
      kind: 'collectionType', info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
    },
    'api::tag.tag': {
      kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      attributes: { label: { type: 'string' }, articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' } },
    },
  },
  components: {},
};
const PERMISSIONS = { 'api::article.article': ['find', 'findOne'], 'api::author.author': ['find', 'findOne'], 'api::tag.tag': ['find', 'findOne'] };
const READ = (slug: string) => `/p/${slug}/api/articles?pagination[pageSize]=5`;
const GRAPHQL_READ = { query: 'query { articles(pagination: { pageSize: 5 }) { documentId title } }' };

async function admin<T>(fn: (c: pg.Client) => Promise<T>, url = TEST_PG_ADMIN_URL): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (v: number) => v.toFixed(v < 10 ? 1 : 0);

async function call(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - started, text };
}

/** Run `fn` over `items` with `concurrency` workers. */
async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

function rssKb(gateway: GatewayProcess): number {
  const status = readFileSync(`/proc/${gateway.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

interface StepResult {
  projects: number;
  createP50: number; createP99: number; readyP99: number;
  loadedCreateP99: number | null; loadedReadyP99: number | null; rate: number | null;
  coldP50: number; coldP99: number; coldGraphqlP50: number; coldGraphqlP99: number;
  warmP50: number; warmP99: number; warmRps: number; warmErrors: number;
  /** The same moment's reads spread over the first 10 projects only. */
  tenP99: number; tenRps: number;
  /** The hand-written baseline's, at the same time: over every project, over the first 10. */
  baseP99: number; baseRps: number; baseTenP99: number; baseTenRps: number; baseErrors: number;
  /** The share of our measured answers that were answer-cache hits (x-answer-cache). */
  hitShare: number;
  rssMb: number; perProjectKb: number | null;
  /** Creations answered with an error (the project left out of the reads). */
  failedCreates?: number;
  dbMb: number; catalogMb: number; pgClass: number; pgProc: number; pgTrigger: number;
}

type WarmReads = Pick<StepResult, 'warmP50' | 'warmP99' | 'warmRps' | 'warmErrors' | 'tenP99' | 'tenRps' | 'baseP99' | 'baseRps' | 'baseTenP99' | 'baseTenRps' | 'baseErrors' | 'hitShare'>;

/**
 * Reads spread over every warm project and over the first step's (10) only, by our gateway and by
 * the hand-written server, alternated twice after an unmeasured 2 s run of each: the machine's
 * load drifts, so the ratios compare runs made at the same time.
 */
async function measureWarm(ours: string, theirs: string, warm: string[], firstCount = STEPS[0] ?? 10): Promise<WarmReads> {
  // Answers by x-answer-cache (none: the hand-written server's), of the measured runs.
  const outcomes = { hit: 0, all: 0, counting: false };
  const spread = (server: string, paths: string[], duration: number) => autocannon({
    url: server, connections: CONNECTIONS, duration, pipelining: 1,
    requests: [{
      setupRequest: (req: any) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)] }),
      onResponse: (_status: number, _body: string, _context: unknown, headers: Record<string, string>) => {
        if (!outcomes.counting || server !== ours) return;
        outcomes.all++;
        if (headers['x-answer-cache'] === 'hit') outcomes.hit++;
      },
    }],
  } as autocannon.Options);
  const all = warm.map(READ);
  const firstTen = warm.slice(0, firstCount).map(READ);
  await spread(ours, all, 2);
  await spread(theirs, all, 2);
  outcomes.counting = true;
  type Run = { ours: boolean; all: boolean; result: autocannon.Result };
  const runs: Run[] = [];
  const order: Array<[boolean, boolean]> = [[true, false], [true, true], [false, false], [false, true]];
  for (const round of [0, 1]) {
    for (const [isOurs, wide] of round === 0 ? order : [...order].reverse()) {
      runs.push({ ours: isOurs, all: wide, result: await spread(isOurs ? ours : theirs, wide ? all : firstTen, SECONDS) });
    }
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const of = (wide: boolean, pick: (r: autocannon.Result) => number, isOurs = true) =>
    mean(runs.filter((r) => r.all === wide && r.ours === isOurs).map((r) => pick(r.result)));
  const errorsOf = (isOurs: boolean) => runs.filter((r) => r.ours === isOurs).reduce((n, r) => n + r.result.errors + r.result.non2xx, 0);
  return {
    warmP50: of(true, (r) => r.latency.p50), warmP99: of(true, (r) => r.latency.p99), warmRps: of(true, (r) => r.requests.average),
    tenP99: of(false, (r) => r.latency.p99), tenRps: of(false, (r) => r.requests.average),
    baseP99: of(true, (r) => r.latency.p99, false), baseRps: of(true, (r) => r.requests.average, false),
    baseTenP99: of(false, (r) => r.latency.p99, false), baseTenRps: of(false, (r) => r.requests.average, false),
    warmErrors: errorsOf(true), baseErrors: errorsOf(false),
    hitShare: outcomes.all ? outcomes.hit / outcomes.all : 0,
  };
}

// BENCH_SCALE_REUSE=1: measure only the warm reads, on the database a run with BENCH_SCALE_KEEP=1
// left (e.g. after changing a Postgres setting); nothing is created, written to the docs or dropped.
const REUSE = Boolean(process.env.BENCH_SCALE_REUSE);
if (!REUSE) {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`));
  await admin((c) => c.query(`CREATE DATABASE "${DATABASE}"`));
}
// Profiling: BENCH_SCALE_LOG_MS=n logs this database's statements slower than n ms, and lock waits
// longer than n ms, to the server log.
if (process.env.BENCH_SCALE_LOG_MS) {
  const logMs = Number(process.env.BENCH_SCALE_LOG_MS);
  for (const setting of [`log_min_duration_statement = ${logMs}`, 'log_lock_waits = on', `deadlock_timeout = ${Math.max(logMs, 10)}`]) {
    await admin((c) => c.query(`ALTER DATABASE "${DATABASE}" SET ${setting}`));
  }
}
const url = testDatabaseUrl(DATABASE);
const env = {
  DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `bench:scale:${randomBytes(4).toString('hex')}:`,
  APP_SECRET: randomBytes(24).toString('hex'), BASE_DOMAIN: 'example.test', LOG_LEVEL: 'warn', DB_POOL_SIZE: '20',
  // Cache sizes other than the defaults, to compare.
  ...Object.fromEntries(['RUNTIME_CACHE_SIZE', 'RUNTIME_CACHE_MB', 'READ_CACHE_SIZE', 'GRAPHQL_CACHE_SIZE', 'ANSWER_CACHE_MB'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : []))),
};
let gateway: GatewayProcess | null = null;
let baseline: BaselineProcess | null = null;
const results: StepResult[] = [];
try {
  gateway = await spawnCompiledGateway(env);
  baseline = await startBaseline('test/bench/baseline-scale-server.ts', READ('none'), { DATABASE_URL: url, DB_POOL_SIZE: env.DB_POOL_SIZE }, 404);
  const base = gateway.url;
  if (REUSE) await measureKept(base, baseline.url);
  else await measureSteps(base, baseline.url, gateway);
} finally {
  baseline?.stop();
  await gateway?.stop();
  // Profiling: BENCH_SCALE_KEEP=1 keeps the database for a look afterwards (the next run drops it).
  if (!process.env.BENCH_SCALE_KEEP && !REUSE) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`));
}

if (!REUSE) process.stdout.write(`\n${writeResults()}\n\nwritten to docs/performance.md (section ${SECTION})\n`);

/** Every one of `slugs` read once through `server` (`label` in the error), WARM_CONCURRENCY at a time: each must answer 200. */
async function warmUp(server: string, slugs: string[], label: string): Promise<void> {
  await pool(slugs, WARM_CONCURRENCY, async (slug) => {
    const r = await call(server, 'GET', READ(slug), null);
    if (r.status !== 200) throw new Error(`warm-up ${slug} (${label}): ${r.status} ${r.text}`);
  });
}

/**
 * The steps: create projects up to each of STEPS, then measure creation, the cold and warm reads,
 * the gateway's memory and the catalog, writing docs/performance.md after each.
 */
async function measureSteps(base: string, baselineUrl: string, gatewayProcess: GatewayProcess): Promise<void> {
  const signup = await call(base, 'POST', '/v1/auth/signup', null, { email: 'scale@example.com', password: 'a long password' });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${signup.text}`);
  const token = JSON.parse(signup.text).token as string;
  const warm: string[] = [];
  let created = 0;
  let previous: { rssKb: number; warm: number } | null = null;
  const runStarted = performance.now();
  for (const target of STEPS) {
    // 1. Create the projects up to `target`, each with its model and public read access: all but
    // the last SAMPLE CREATE_CONCURRENCY at a time, those one at a time on the idle gateway.
    const numbers = Array.from({ length: target - created }, (_, k) => created + k + 1);
    const loaded = { createMs: [] as number[], readyMs: [] as number[] };
    const oneAtATime = { createMs: [] as number[], readyMs: [] as number[] };
    const slugs: string[] = [];
    const failures: string[] = [];
    const createOne = async (n: number, into: typeof loaded) => {
      const slug = `scale-${n}`;
      const made = await call(base, 'POST', '/v1/projects', token, { name: `Scale ${n}`, slug });
      // A failed creation (e.g. 503: a statement over STATEMENT_TIMEOUT_MS) is counted and reported, not retried.
      if (made.status !== 201) {
        failures.push(`${slug}: ${made.status} ${made.text.slice(0, 200)}`);
        process.stdout.write(`  create ${slug} failed: ${made.status} ${made.text.slice(0, 200)}\n`);
        return;
      }
      const pushed = await call(base, 'PUT', `/v1/projects/${slug}/schema`, token, MODEL);
      if (pushed.status !== 200) throw new Error(`schema ${slug}: ${pushed.status} ${pushed.text}`);
      const granted = await call(base, 'PUT', `/v1/projects/${slug}/roles/public/permissions`, token, { permissions: PERMISSIONS });
      if (granted.status !== 200) throw new Error(`permissions ${slug}: ${granted.status} ${granted.text}`);
      into.createMs.push(made.ms);
      into.readyMs.push(made.ms + pushed.ms + granted.ms);
      slugs.push(slug);
      if (slugs.length % 500 === 0) {
        const elapsed = (performance.now() - runStarted) / 1000;
        process.stdout.write(`  ${created + slugs.length} projects, ${elapsed.toFixed(0)} s since the start…\n`);
      }
    };
    const bulk = numbers.slice(0, Math.max(0, numbers.length - SAMPLE));
    const started = performance.now();
    await pool(bulk, CREATE_CONCURRENCY, (n) => createOne(n, loaded));
    const seconds = (performance.now() - started) / 1000;
    for (const n of numbers.slice(bulk.length)) await createOne(n, oneAtATime);
    created = target;
    // 2. Cold: the first REST request, then the first GraphQL request, to the projects created
    // one at a time (this gateway has not served them yet), one at a time.
    const alone = new Set(numbers.slice(bulk.length).map((n) => `scale-${n}`));
    const cold = slugs.filter((slug) => alone.has(slug));
    const coldMs: number[] = [];
    const coldGraphqlMs: number[] = [];
    for (const slug of cold) {
      const r = await call(base, 'GET', READ(slug), null);
      if (r.status !== 200) throw new Error(`cold read ${slug}: ${r.status} ${r.text}`);
      coldMs.push(r.ms);
      const g = await call(base, 'POST', `/p/${slug}/graphql`, null, GRAPHQL_READ);
      if (g.status !== 200 || g.text.includes('"errors"')) throw new Error(`cold GraphQL read ${slug}: ${g.status} ${g.text}`);
      coldGraphqlMs.push(g.ms);
    }
    // 3. Warm every project, then read a random spread of them: a first run warms the JIT and
    // the caches, the second is measured.
    // The baseline reads every project once too (its own connections' catalog caches); both
    // servers must answer every sampled project with the same body.
    await warmUp(base, slugs.filter((slug) => !cold.includes(slug)), 'ours');
    await warmUp(baselineUrl, slugs, 'baseline');
    for (const slug of [slugs[0]!, ...cold]) {
      const [ours, theirs] = await Promise.all([call(base, 'GET', READ(slug), null), call(baselineUrl, 'GET', READ(slug), null)]);
      if (ours.text !== theirs.text) throw new Error(`${slug}: the servers answer differently\nours     ${ours.text}\nbaseline ${theirs.text}`);
    }
    warm.push(...slugs);
    const reads = await measureWarm(base, baselineUrl, warm);
    // 4. Memory and catalog.
    await new Promise((r) => setTimeout(r, 1000));
    const rss = rssKb(gatewayProcess);
    const catalog = await admin(async (c) => (await c.query(
      `SELECT pg_database_size(current_database()) AS size,
              (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'r') AS catalog,
              (SELECT count(*) FROM pg_class)::int AS classes, (SELECT count(*) FROM pg_proc)::int AS procs,
              (SELECT count(*) FROM pg_trigger)::int AS triggers`)).rows[0], url);
    const result: StepResult = {
      projects: target,
      createP50: percentile(oneAtATime.createMs, 50), createP99: percentile(oneAtATime.createMs, 99), readyP99: percentile(oneAtATime.readyMs, 99),
      loadedCreateP99: bulk.length ? percentile(loaded.createMs, 99) : null,
      loadedReadyP99: bulk.length ? percentile(loaded.readyMs, 99) : null,
      rate: bulk.length ? bulk.length / seconds : null,
      coldP50: percentile(coldMs, 50), coldP99: percentile(coldMs, 99),
      coldGraphqlP50: percentile(coldGraphqlMs, 50), coldGraphqlP99: percentile(coldGraphqlMs, 99),
      ...reads,
      rssMb: rss / 1024,
      perProjectKb: previous && warm.length > previous.warm ? (rss - previous.rssKb) / (warm.length - previous.warm) : null,
      dbMb: Number(catalog.size) / 1024 / 1024, catalogMb: Number(catalog.catalog) / 1024 / 1024,
      pgClass: catalog.classes, pgProc: catalog.procs, pgTrigger: catalog.triggers,
    };
    previous = { rssKb: rss, warm: warm.length };
    result.failedCreates = failures.length;
    results.push(result);
    writeResults();
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}

/** BENCH_SCALE_REUSE: every kept project read once by each server, then the warm reads, printed. */
async function measureKept(ours: string, theirs: string): Promise<void> {
  const kept = await admin(async (c) => (await c.query<{ slug: string }>('SELECT slug FROM platform.projects ORDER BY id')).rows.map((r) => r.slug), url);
  // A run cut short may have left its last projects without their model or permissions: left out.
  const readable = new Set<string>();
  await pool(kept, WARM_CONCURRENCY, async (slug) => {
    if ((await call(ours, 'GET', READ(slug), null)).status === 200) readable.add(slug);
  });
  const slugs = kept.filter((slug) => readable.has(slug));
  await warmUp(theirs, slugs, 'baseline');
  const settings = await admin(async (c) => (await c.query("SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'effective_cache_size')")).rows, url);
  process.stdout.write(`${JSON.stringify({ projects: slugs.length, settings, ...(await measureWarm(ours, theirs, slugs, 10)) })}\n`);
}

/** Write the steps measured so far to docs/performance.md (after each step: a run cut short keeps them). */
function writeResults(): string {
  const fmt = (v: number | null, f = ms) => (v === null ? '–' : f(v));
  const latencyRows = results.map((r) => `| ${r.projects.toLocaleString('en-US')} | ${ms(r.createP50)} / ${ms(r.createP99)} | ${ms(r.readyP99)} | `
    + `${fmt(r.loadedCreateP99)} / ${fmt(r.loadedReadyP99)}${r.failedCreates ? ` (${r.failedCreates} failed)` : ''} | ${fmt(r.rate, (v) => v.toFixed(1))} | ${ms(r.coldP50)} / ${ms(r.coldP99)} | ${ms(r.coldGraphqlP50)} / ${ms(r.coldGraphqlP99)} | `
    + `${ms(r.warmP50)} / ${ms(r.warmP99)} | ${r.warmRps.toFixed(0)}${r.warmErrors ? ` (${r.warmErrors} errors)` : ''} | ${ms(r.tenP99)} / ${r.tenRps.toFixed(0)} | ${(r.warmP99 / r.tenP99).toFixed(2)}× |`);
  const resourceRows = results.map((r) => `| ${r.projects.toLocaleString('en-US')} | ${r.rssMb.toFixed(0)} | ${fmt(r.perProjectKb, (v) => v.toFixed(1))} | `
    + `${r.dbMb.toFixed(0)} | ${r.catalogMb.toFixed(0)} | ${r.pgClass.toLocaleString('en-US')} | ${r.pgProc.toLocaleString('en-US')} | ${r.pgTrigger.toLocaleString('en-US')} |`);
  const baselineRows = results.map((r) => `| ${r.projects.toLocaleString('en-US')} | ${ms(r.warmP99)} / ${r.warmRps.toFixed(0)} | ${ms(r.tenP99)} / ${r.tenRps.toFixed(0)} | ${(r.warmP99 / r.tenP99).toFixed(2)}× | `
    + `${ms(r.baseP99)} / ${r.baseRps.toFixed(0)}${r.baseErrors ? ` (${r.baseErrors} errors)` : ''} | ${ms(r.baseTenP99)} / ${r.baseTenRps.toFixed(0)} | ${(r.baseP99 / r.baseTenP99).toFixed(2)}× | ${(r.warmRps / r.baseRps).toFixed(2)}× / ${(r.tenRps / r.baseTenRps).toFixed(2)}× | ${(100 * (r.hitShare ?? 0)).toFixed(1)}% |`);
  const firstStep = results[0];
  const lastStep = results[results.length - 1];
  const warmRatio = firstStep && lastStep && firstStep.warmP99 ? lastStep.warmP99 / firstStep.warmP99 : 0;
  const sameTimeRatio = lastStep ? lastStep.warmP99 / lastStep.tenP99 : 0;
  const tables = [
    `| projects | create p50 / p99 ms (one at a time) | + model + permissions p99 ms | under load: create / + model + permissions p99 ms (${CREATE_CONCURRENCY} at a time) | projects created / s | cold first REST request p50 / p99 ms | cold first GraphQL request p50 / p99 ms | warm read, all projects: p50 / p99 ms | req/s | same time, first 10 projects only: p99 ms / req/s | warm p99 all ÷ first 10 |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...latencyRows,
    '',
    '| projects | ours, all projects: p99 ms / req/s | ours, first 10: p99 ms / req/s | ours: all ÷ first 10 (p99) | hand-written, all projects: p99 ms / req/s | hand-written, first 10: p99 ms / req/s | hand-written: all ÷ first 10 (p99) | ours ÷ hand-written req/s: all / first 10 | ours: answer-cache hits |',
    '|---|---|---|---|---|---|---|---|---|',
    ...baselineRows,
    '',
    '| projects | gateway RSS MB | RSS growth per warm project since the previous step KB | database MB | pg_catalog MB | pg_class rows | pg_proc rows | pg_trigger rows |',
    '|---|---|---|---|---|---|---|---|',
    ...resourceRows,
  ].join('\n');
  const done = lastStep?.projects ?? 0;
  const notRun = done < 10_000
    ? `\n\nThis run stopped at ${done.toLocaleString('en-US')} projects (${done < STEPS[STEPS.length - 1]! ? 'the run was cut short' : `steps ${STEPS.map((n) => n.toLocaleString('en-US')).join(', ')}`}): the steps above it were not run.${process.env.BENCH_SCALE_NOTE ? ` ${process.env.BENCH_SCALE_NOTE}` : ''}`
    : '';
  const answerCache = process.env.ANSWER_CACHE_MB ?? '64 (the default)';
  writeDocSection(SECTION, `${SECTION === 'bench-scale' ? '## Many projects on one gateway' : `### Many projects on one gateway, answer cache ${answerCache === '0' ? 'off' : 'on'} (\`${SECTION}\`)`}

Measured by \`make bench-scale\` (\`test/bench/scale.ts\`, steps of 10, 100, 1,000 and 10,000 projects;
BENCH_SCALE_MAX stops earlier): projects created through the management API of one gateway process,
each with a 3-type model (article, author, tag; a manyToOne and a manyToMany) and public read
access, in a database of their own. At each step: the last ${SAMPLE} projects are created one at a time
on the idle gateway (creation latency), the others ${CREATE_CONCURRENCY} at a time (latency under that load, and
throughput); the first REST request and then the first GraphQL request to each of those ${SAMPLE}
(cold: never served by this gateway); every project read once, an unmeasured 2 s run, then ${SECONDS} s of
reads (${CONNECTIONS} connections) each to a random project of all created so far (warm), alternated twice with
as many seconds of reads spread over the first 10 projects only (means of the two runs), and the same
reads by a hand-written fastify + pg server (\`test/bench/baseline-scale-server.ts\`: the same one
statement with the schema's name in its text, unprepared, 20 connections; both servers' bodies checked
identical at each step) in the same alternation; the gateway's RSS
after that, its growth per warm project since the previous step, and the catalog. Targets:
creation p99 < 200 ms; warm p99 at 10,000 within 20% of 10; cold first request < 50 ms; RSS growth
< 100 KB per warm project. Gateway with its default cache sizes (RUNTIME_CACHE_SIZE, RUNTIME_CACHE_MB, READ_CACHE_SIZE, GRAPHQL_CACHE_SIZE;
ANSWER_CACHE_MB ${answerCache}: each project's read repeats, so the warm reads are answer-cache hits once each project was read, each checking its project's content version in Redis — the last column).
2 cores shared by Postgres, the gateway and the load generator: indicative numbers.

${tables}

Warm p99 at ${lastStep?.projects.toLocaleString('en-US') ?? '–'} ÷ at ${firstStep?.projects ?? '–'}: ${warmRatio.toFixed(2)}× across runs, ${sameTimeRatio.toFixed(2)}× against the first 10 projects' reads at the same time (the hand-written server: ${lastStep ? (lastStep.baseP99 / lastStep.baseTenP99).toFixed(2) : '–'}×). Last run: ${new Date().toISOString().slice(0, 10)}.${notRun}`);
  return tables;
}
