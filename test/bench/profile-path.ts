// A quick, repeatable look at the request path (not part of `make bench`): our gateway and the
// hand-written baseline on one seeded database, measured back to back in alternating rounds, plus
// exact Postgres round trips per request (counted by a proxy that reads the wire protocol) and,
// optionally, a CPU profile of the gateway under load.
//
//   node --import tsx test/bench/profile-path.ts                 # seed (kept), measure, print ratios
//   PROFILE_CASES=one,create ROUNDS=3 SECONDS=4 node --import tsx test/bench/profile-path.ts
//   COUNT=1 …   round trips per request (through the counting proxy; no speed numbers)
//   COUNT=1 TRACE=1 …  also the statements of one request (TRACE=n > 1: n characters of each)
//   CPU_PROF=/tmp/perf/prof …   the gateway writes a .cpuprofile there when stopped
//   CPU=1 …     CPU time per request (gateway or baseline process, and the Postgres backends of the
//               database), from /proc: steadier than req/s on a shared, busy machine
//   DROP=1 …    drop the kept database at the end
//   LARGE=1 …   the model and data of `make bench-100k` (seed-large.ts, BENCH_DOCUMENTS default
//               100,000) against its exact-count baseline; create = published, 3 links, component
// The seeded database is kept between runs (its name and slug in /tmp/perf/state.json).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL, testDatabaseUrl } from '../helpers/db.ts';
import { freePort } from '../helpers/process.ts';
import { CountingProxy } from '../helpers/pg-proxy.ts';
import { ensureBuilt } from '../../scripts/build.ts';
import { seed, type Seeded } from './seed.ts';
import { authorId, cloneTables, seedLarge, tagId } from './seed-large.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STATE = '/tmp/perf/state.json';
const LARGE = Boolean(process.env.LARGE);
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? (LARGE ? 100_000 : 10_000));
const SECONDS = Number(process.env.SECONDS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const CASES = (process.env.PROFILE_CASES ?? 'one,create,list,gqlone').split(',');

interface State extends Seeded { database: string; documents: number; large?: boolean }

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try { await client.query(text); } finally { await client.end(); }
}

async function seededDatabase(): Promise<State> {
  if (existsSync(STATE)) {
    const state = JSON.parse(readFileSync(STATE, 'utf8')) as State;
    if (state.documents === DOCUMENTS && Boolean(state.large) === LARGE) return state;
    await admin(`DROP DATABASE IF EXISTS "${state.database}" WITH (FORCE)`);
  }
  mkdirSync('/tmp/perf', { recursive: true });
  const database = `cms_perf_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${database}"`);
  process.stdout.write(`seeding ${DOCUMENTS} documents into ${database}…\n`);
  const seeded = LARGE ? await seedLargeCopy(database) : await seed(envFor(database, testDatabaseUrl(database)), DOCUMENTS);
  const state = { ...seeded, database, documents: DOCUMENTS, large: LARGE };
  writeFileSync(STATE, JSON.stringify(state));
  return state;
}

/** The large model and data, plus the exact-count baseline's copy of its tables. */
async function seedLargeCopy(database: string): Promise<Seeded> {
  const url = testDatabaseUrl(database);
  const seeded = await seedLarge(envFor(database, url), DOCUMENTS);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await cloneTables(client, seeded.schema, `${seeded.schema}_exact`); } finally { await client.end(); }
  return { slug: seeded.slug, schema: seeded.schema, sampleDocumentId: seeded.sampleDocumentIds[25]! };
}

function envFor(database: string, url: string): Record<string, string> {
  return {
    DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `perf:${database}:`, APP_SECRET: 'perf-secret-perf-secret-perf-secret',
    BASE_DOMAIN: 'localhost', LOG_LEVEL: 'warn', DB_POOL_SIZE: '20', MEDIA_DIR: `/tmp/perf/media-${database}`,
  };
}

async function startProcess(args: string[], env: Record<string, string>, ready: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try { if ((await fetch(`${url}${ready}`)).ok) return { url, child }; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${args.join(' ')} did not start`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

interface Case { name: string; ours: string; baseline: string; method?: 'POST'; body?: string }

function casesFor(state: State, gateway: string, baseline: string, graphqlBaseline: string): Case[] {
  const api = `${gateway}/p/${state.slug}/api/articles`;
  const create = JSON.stringify({ data: LARGE ? {
    name: 'Created by the bench', body: 'Lorem ipsum', rating: 3, author: authorId(7), tags: [tagId(3), tagId(11)],
    seo: { metaTitle: 'Bench', metaDescription: 'Created by the bench' },
  } : {
    title: 'Created by the bench', body: 'Lorem ipsum', views: 1, author: 'author000000000000000001', tags: ['tag000000000000000000001', 'tag000000000000000000002'],
  } });
  const gqlOne = JSON.stringify({
    query: 'query One($id: ID!) { article(documentId: $id) { documentId title views author { name } tags { label } } }',
    variables: { id: state.sampleDocumentId },
  });
  const all: Record<string, Case> = {
    one: { name: 'findOne', ours: `${api}/${state.sampleDocumentId}`, baseline: `${baseline}/one/${state.sampleDocumentId}` },
    create: { name: 'create', ours: api, baseline: `${baseline}/create`, method: 'POST', body: create },
    list: { name: 'list 25', ours: api, baseline: `${baseline}/list` },
    populate: { name: 'populate', ours: `${api}?populate[author][fields][0]=name&populate[tags][fields][0]=label`, baseline: `${baseline}/populate` },
    gqlone: { name: 'GraphQL one', ours: `${gateway}/p/${state.slug}/graphql`, baseline: `${graphqlBaseline}/graphql`, method: 'POST', body: gqlOne },
  };
  return CASES.map((c) => all[c]!);
}

async function measure(url: string, c: Case): Promise<number> {
  const post = c.body ? { method: 'POST' as const, body: c.body, headers: { 'content-type': 'application/json' } } : {};
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, ...post });
  if (r.errors || r.non2xx) process.stdout.write(`  (${url}: ${r.errors} errors, ${r.non2xx} non-2xx)\n`);
  return r.requests.average;
}

/** CPU ms (user + system) used so far by each of the processes `pids`. */
function cpuMs(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch { /* gone */ }
  }
  return used;
}

/** CPU used between two readings by the processes alive at the second (new ones: all of theirs). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}

async function backendPids(database: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    const r = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    return r.rows.map((row) => row.pid as number);
  } finally { await client.end(); }
}

/** Gateway (or baseline) CPU and Postgres CPU per request over `amount` requests. */
async function cpuPerRequest(url: string, c: Case, pid: number, amount: number): Promise<{ app: number; db: number }> {
  const post = c.body ? { method: 'POST' as const, body: c.body, headers: { 'content-type': 'application/json' } } : {};
  await autocannon({ url, connections: CONNECTIONS, amount: 200, pipelining: 1, ...post });
  const app0 = cpuMs([pid]);
  const db0 = cpuMs(await backendPids(state.database));
  const r = await autocannon({ url, connections: CONNECTIONS, amount, pipelining: 1, ...post });
  if (r.errors || r.non2xx) process.stdout.write(`  (${url}: ${r.errors} errors, ${r.non2xx} non-2xx)\n`);
  const db1 = cpuMs(await backendPids(state.database));
  return { app: cpuBetween(app0, cpuMs([pid])) / amount, db: cpuBetween(db0, db1) / amount };
}

const state = await seededDatabase();
const dbUrl = testDatabaseUrl(state.database);
const proxy = process.env.COUNT ? new CountingProxy() : null;
await proxy?.listen();
const gatewayUrl = proxy ? dbUrl.replace(':5432/', `:${proxy.port}/`) : dbUrl;
const prof = process.env.CPU_PROF;
if (prof) mkdirSync(prof, { recursive: true });
await ensureBuilt();
const gateway = await startProcess(
  [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), '--enable-source-maps', 'dist/gateway.js'],
  envFor(state.database, gatewayUrl), '/healthz',
);
const baselineEnv = { DATABASE_URL: dbUrl, BENCH_SCHEMA: state.schema };
const baseline = proxy ? null : LARGE
  ? await startProcess(['--import', 'tsx', 'test/bench/baseline-large-server.ts'], { ...baselineEnv, BENCH_SCHEMA: `${state.schema}_exact`, COUNT_MODE: 'exact' }, '/list')
  : await startProcess([...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}/baseline`] : []), '--import', 'tsx', 'test/bench/baseline-server.ts'], baselineEnv, '/list');
const graphqlBaseline = proxy || LARGE ? null : await startProcess(['--import', 'tsx', 'test/bench/graphql-baseline-server.ts'], baselineEnv, '/graphql?query=%7B__typename%7D');
try {
  const cases = casesFor(state, gateway.url, baseline?.url ?? '', graphqlBaseline?.url ?? '');
  if (proxy) {
    const N = 20;
    for (const c of cases) {
      const send = () => fetch(c.ours, c.body ? { method: 'POST', body: c.body, headers: { 'content-type': 'application/json' } } : {});
      for (let i = 0; i < 3; i++) await (await send()).arrayBuffer(); // warm: plans, sessions
      const before = proxy.snapshot();
      for (let i = 0; i < N; i++) {
        const res = await send();
        if (res.status >= 300) throw new Error(`${c.name}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
      const after = proxy.snapshot();
      const per = Object.fromEntries(Object.keys(after).map((k) => [k, ((after[k]! - (before[k] ?? 0)) / N)]).filter(([, v]) => v !== 0));
      process.stdout.write(`${c.name.padEnd(12)} per request: ${JSON.stringify(per)}  (round trips ≈ S + Q)\n`);
      if (process.env.TRACE) {
        proxy.trace();
        await (await send()).arrayBuffer();
        for (const text of proxy.trace()) process.stdout.write(`    ${text.replace(/\s+/g, ' ').slice(0, Number(process.env.TRACE) > 1 ? Number(process.env.TRACE) : 400)}\n`);
      }
    }
  } else if (process.env.CPU) {
    const amount = Number(process.env.AMOUNT ?? 3000);
    for (const c of cases) {
      const ours = await cpuPerRequest(c.ours, c, gateway.child.pid!, amount);
      const target = c.name === 'GraphQL one' ? graphqlBaseline! : baseline!;
      const base = await cpuPerRequest(c.baseline, c, target.child.pid!, amount);
      const f = (x: number) => x.toFixed(3);
      process.stdout.write(`${c.name.padEnd(12)} CPU ms/request: ours app ${f(ours.app)} db ${f(ours.db)} = ${f(ours.app + ours.db)} | baseline app ${f(base.app)} db ${f(base.db)} = ${f(base.app + base.db)} | ratio ${((base.app + base.db) / (ours.app + ours.db)).toFixed(2)}×\n`);
    }
  } else {
    for (const c of cases) {
      await measure(c.ours, c);
      await measure(c.baseline, c);
      const ours: number[] = [];
      const base: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate which goes first: drift on a shared machine hits both sides alike.
        if (i % 2 === 0) { ours.push(await measure(c.ours, c)); base.push(await measure(c.baseline, c)); } else { base.push(await measure(c.baseline, c)); ours.push(await measure(c.ours, c)); }
      }
      const ratios = ours.map((o, i) => o / base[i]!);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      process.stdout.write(`${c.name.padEnd(12)} ours ${mean(ours).toFixed(0).padStart(6)} req/s  baseline ${mean(base).toFixed(0).padStart(6)} req/s  ratio ${mean(ratios).toFixed(2)}× (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})\n`);
    }
  }
} finally {
  await stop(gateway.child);
  if (baseline) await stop(baseline.child);
  if (graphqlBaseline) await stop(graphqlBaseline.child);
  proxy?.close();
  // The created documents go, so that every run lists the same 10k (links go with their rows).
  if (CASES.includes('create')) {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    for (const schema of LARGE ? [state.schema, `${state.schema}_exact`] : [state.schema]) {
      await client.query(`DELETE FROM "${schema}".ct_article WHERE document_id NOT LIKE 'article%'`);
      if (LARGE) await client.query(`DELETE FROM "${schema}".cmp_shared__seo c WHERE NOT EXISTS (SELECT 1 FROM "${schema}".ct_article a WHERE a.id = c.owner_id)`);
      for (const table of ['ct_article', 'lnk_ct_article__author', 'lnk_ct_article__tags']) await client.query(`VACUUM ANALYZE "${schema}".${table}`);
    }
    await client.end();
  }
  if (process.env.DROP) { await admin(`DROP DATABASE IF EXISTS "${state.database}" WITH (FORCE)`); }
}
