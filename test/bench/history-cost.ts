// `make bench` (after run.ts): what recording content history costs a write. Two compiled
// gateways on the same database, one with CONTENT_HISTORY=false, take the same load in turn
// (autocannon, alternating rounds): a create and an update of an article with a component, a
// manyToOne and two manyToMany relations. Prints req/s, p50, p99 and the ratio and writes the
// `bench-history` section of docs/performance.md.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { loadConfig } from '@cms/config';
import { compiledQuery } from '@cms/db';
import { createPlatform } from '@cms/gateway';
import { parseModel, type RawModel } from '@cms/schema';
import { silentLogger } from '@cms/telemetry';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { spawnCompiledGateway, type GatewayProcess } from '../helpers/process.ts';
import { benchProject } from './seed.ts';
import { writeDocSection } from './doc-section.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_HISTORY_ROUNDS ?? 6);
/** Requests of each kind sent one at a time to each gateway in turn. */
const PAIRS = Number(process.env.BENCH_HISTORY_PAIRS ?? 400);
/** Articles the updates go round (each connection updates its own in turn: no two wait on one row lock). */
const UPDATED = 2_000;

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true },
        body: { type: 'text' },
        views: { type: 'integer' },
        seo: { type: 'component', component: 'shared.seo' },
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
  components: {
    'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' }, metaDescription: { type: 'text' } } },
  },
} satisfies RawModel;

const author = (i: number) => `author${String(1 + (i % 100)).padStart(18, '0')}`;
const tag = (i: number) => `tag${String(1 + (i % 50)).padStart(21, '0')}`;
const article = (i: number) => JSON.stringify({ data: {
  title: `Article ${i}`, body: 'Lorem ipsum dolor sit amet. '.repeat(8), views: i,
  seo: { metaTitle: `Article ${i}`, metaDescription: 'A realistic write: a component, a manyToOne and two manyToMany.' },
  author: author(i), tags: [tag(i), tag(i + 17)],
} });
const change = (i: number) => JSON.stringify({ data: { title: `Article ${i} (edited)`, views: i + 1, seo: { metaTitle: `Edited ${i}`, metaDescription: 'Changed.' }, tags: [tag(i + 3)] } });

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time per request (ms) of the gateway process and of the database's Postgres backends (NaN without /proc). */
  gatewayCpu: number;
  postgresCpu: number;
}

/**
 * CPU time (ms) a process has used (Linux: /proc/{pid}/stat utime + stime, in clock ticks of
 * 10 ms). Throughput on a shared machine moves with whatever else runs; the CPU a write costs
 * each process much less.
 */
function cpuMs(pid: number): number {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return NaN;
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of each of the bench database's Postgres backends (the gateways run in turn: the running one's). */
async function postgresCpuMs(): Promise<Map<number, number>> {
  const pids = await db.pool.anyFirst(compiledQuery({ text: "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()", values: [] }));
  return new Map(pids.map((pid) => [Number(pid), cpuMs(Number(pid))]));
}

/** What the backends used between two readings: a backend opened meanwhile counts whole (one closed meanwhile, idle, is lost). */
function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) if (Number.isFinite(ms)) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** One autocannon run of `scenario` against `gateway` (its requests built per request: new bodies, the next document). */
async function measure(gateway: GatewayProcess, scenario: Scenario): Promise<Figures> {
  let n = 0;
  const [gatewayBefore, postgresBefore] = [cpuMs(gateway.child.pid!), await postgresCpuMs()];
  const result = await autocannon({
    url: gateway.url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1,
    requests: [{ setupRequest: (req: any) => ({ ...req, ...scenario.request(n++) }) }],
  } as autocannon.Options);
  const requests = result.requests.total;
  return {
    rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx,
    gatewayCpu: (cpuMs(gateway.child.pid!) - gatewayBefore) / requests,
    postgresCpu: postgresDelta(postgresBefore, await postgresCpuMs()) / requests,
  };
}

/**
 * `PAIRS` requests of `scenario` to each gateway, one at a time, alternating request by request
 * (which goes first alternates too): the machine's other load falls on both alike. p50 and p90, ms.
 */
async function interleaved(on: GatewayProcess, off: GatewayProcess, scenario: Scenario): Promise<Array<{ p50: number; p90: number }>> {
  const times: [number[], number[]] = [[], []];
  const send = async (gateway: GatewayProcess, i: number, into: number[]) => {
    const { method, path, body, headers } = scenario.request(i);
    const started = performance.now();
    const res = await fetch(`${gateway.url}${path}`, { method, body, headers });
    await res.arrayBuffer();
    into.push(performance.now() - started);
    if (res.status >= 300) throw new Error(`${scenario.name} answered ${res.status}`);
  };
  // Offsets apart so the two never update one document in the same pair.
  for (let i = 0; i < PAIRS; i++) {
    if (i % 2 === 0) {
      await send(on, i, times[0]);
      await send(off, i + 1_000, times[1]);
    } else {
      await send(off, i + 1_000, times[1]);
      await send(on, i, times[0]);
    }
  }
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return times.map((t) => {
    const sorted = [...t].sort((a, b) => a - b);
    return { p50: at(sorted, 0.5), p90: at(sorted, 0.9) };
  });
}

interface Scenario {
  name: string;
  short: string;
  request(i: number): { method: 'POST' | 'PUT'; path: string; body: string; headers: Record<string, string> };
}

const db = await createTestDatabase('cms_bench_history');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
try {
  const platform = await createPlatform(loadConfig(env), silentLogger());
  let schema = '';
  try {
    const project = await benchProject(platform, 'Bench history', 'bench-history', MODEL);
    schema = project.schemaName;
    await platform.roles.setPermissions(project.id, 'public', {
      'api::article.article': ['find', 'findOne', 'create', 'update'], 'api::author.author': ['find', 'findOne'], 'api::tag.tag': ['find', 'findOne'],
    }, parseModel(MODEL));
    const exec = (text: string) => platform.db.pool.query(compiledQuery({ text, values: [] }));
    await exec(`INSERT INTO "${schema}".ct_author (document_id, published_at, name) SELECT 'author' || lpad(i::text, 18, '0'), now(), 'Author ' || i FROM generate_series(1, 100) i`);
    await exec(`INSERT INTO "${schema}".ct_tag (document_id, published_at, label) SELECT 'tag' || lpad(i::text, 21, '0'), now(), 'Tag ' || i FROM generate_series(1, 50) i`);
  } finally {
    await platform.close();
  }
  const [on, off] = await Promise.all([spawnCompiledGateway(env), spawnCompiledGateway({ ...env, CONTENT_HISTORY: 'false' })]);
  const api = '/p/bench-history/api/articles';
  const json = { 'content-type': 'application/json' };
  // The articles the updates change, created through the API (with their component and links).
  const ids: string[] = [];
  for (let i = 0; i < UPDATED; i += 50) {
    ids.push(...await Promise.all(Array.from({ length: 50 }, async (_, k) => {
      const res = await fetch(`${off.url}${api}`, { method: 'POST', headers: json, body: article(i + k) });
      if (res.status !== 201) throw new Error(`seeding answered ${res.status}: ${await res.text()}`);
      return (await res.json() as { data: { documentId: string } }).data.documentId;
    })));
  }
  const versions = async () => Number(await db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${schema}".history_versions`, values: [] })));
  if (await versions() !== 0) throw new Error('the gateway with CONTENT_HISTORY=false recorded versions');
  const links = Number(await db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${schema}".lnk_ct_article__tags`, values: [] })));
  if (links < 2 * UPDATED) throw new Error(`the seeded articles have ${links} tag links, not ${2 * UPDATED}`);
  const scenarios: Scenario[] = [
    { name: 'create (published, a component, manyToOne + 2 manyToMany)', short: 'create', request: (i) => ({ method: 'POST', path: api, body: article(i), headers: { ...json } }) },
    { name: 'update (draft: 2 fields, the component, the manyToMany replaced)', short: 'update', request: (i) => ({ method: 'PUT', path: `${api}/${ids[i % ids.length]}?status=draft`, body: change(i), headers: { ...json } }) },
  ];
  for (const s of scenarios) {
    for (const g of [on, off]) {
      const res = await fetch(`${g.url}${s.request(0).path}`, { method: s.request(0).method, headers: json, body: s.request(0).body });
      if (res.status !== 200 && res.status !== 201) throw new Error(`${s.name} answered ${res.status}: ${await res.text()}`);
    }
  }
  const rows: string[] = [];
  const latencyRows: string[] = [];
  const cpuRows: string[] = [];
  const load = loadavg()[0]!.toFixed(1);
  for (const s of scenarios) {
    await measure(on, s); // warm-up: plans, caches, connections
    await measure(off, s);
    // Alternated (which goes first too) and averaged: one pair in turn on a shared machine is mostly noise.
    const runs: Array<[Figures, Figures]> = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        const h = await measure(on, s);
        runs.push([h, await measure(off, s)]);
      } else {
        const n = await measure(off, s);
        runs.push([await measure(on, s), n]);
      }
    }
    for (const [h, n] of runs) process.stdout.write(`  ${s.name.split(' ')[0]}: on ${h.rps.toFixed(0)} req/s (${h.gatewayCpu.toFixed(2)} + ${h.postgresCpu.toFixed(2)} ms CPU), off ${n.rps.toFixed(0)} req/s (${n.gatewayCpu.toFixed(2)} + ${n.postgresCpu.toFixed(2)} ms CPU)\n`);
    const mean = (k: 0 | 1, key: Exclude<keyof Figures, 'errors'>) => runs.reduce((t, r) => t + r[k][key], 0) / runs.length;
    const errors = (k: 0 | 1) => runs.reduce((t, r) => t + r[k].errors, 0);
    const [h, n] = ([0, 1] as const).map((k) => ({
      rps: mean(k, 'rps'), p50: mean(k, 'p50'), p99: mean(k, 'p99'), errors: errors(k), gatewayCpu: mean(k, 'gatewayCpu'), postgresCpu: mean(k, 'postgresCpu'),
    })) as [Figures, Figures];
    const row = `| ${s.name} | ${h.rps.toFixed(0)} | ${h.p50.toFixed(1)} | ${h.p99.toFixed(1)} | ${n.rps.toFixed(0)} | ${n.p50.toFixed(1)} | ${n.p99.toFixed(1)} | **${(h.rps / n.rps).toFixed(2)}×** |`;
    rows.push(row);
    process.stdout.write(`${row}${h.errors || n.errors ? `  (errors: on ${h.errors}, off ${n.errors})` : ''}\n`);
    if (h.errors || n.errors) throw new Error(`${s.name}: ${h.errors} errors with history, ${n.errors} without`);
    const cpu = (f: Figures) => f.gatewayCpu + f.postgresCpu;
    cpuRows.push(`| ${s.short} | ${h.gatewayCpu.toFixed(2)} | ${h.postgresCpu.toFixed(2)} | ${n.gatewayCpu.toFixed(2)} | ${n.postgresCpu.toFixed(2)} | **${(cpu(h) / cpu(n)).toFixed(2)}×** |`);
    const [lh, ln] = await interleaved(on, off, s);
    const latencyRow = `| ${s.short} | ${lh.p50.toFixed(2)} | ${lh.p90.toFixed(2)} | ${ln.p50.toFixed(2)} | ${ln.p90.toFixed(2)} | **${(lh.p50 / ln.p50).toFixed(2)}×** |`;
    latencyRows.push(latencyRow);
    process.stdout.write(`${latencyRow}\n`);
  }
  await Promise.all([on.stop(), off.stop()]);
  process.stdout.write(`${await versions()} versions recorded by the gateway with history on\n`);
  const table = [
    '| write | history on req/s | p50 ms | p99 ms | history off req/s | p50 ms | p99 ms | on ÷ off |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const latencyTable = [
    '| write, one at a time | on: p50 ms | p90 ms | off: p50 ms | p90 ms | on ÷ off (p50) |',
    '|---|---|---|---|---|---|',
    ...latencyRows,
  ].join('\n');
  const cpuTable = [
    '| write | on: gateway ms | Postgres ms | off: gateway ms | Postgres ms | on ÷ off |',
    '|---|---|---|---|---|---|',
    ...cpuRows,
  ].join('\n');
  writeDocSection('bench-history', `## Recording content history: what it costs a write

Measured by \`make bench\` (\`test/bench/history-cost.ts\`): two compiled gateways on the same
Postgres and project, one with \`CONTENT_HISTORY=false\`, started together and given the same
requests. The creates add a new article each time (\`POST /api/articles\`, published: a
component, a manyToOne and two manyToMany); the updates go round ${UPDATED} articles made the
same way (\`PUT /api/articles/:documentId?status=draft\`: two fields, the component, the
manyToMany replaced). With history on each write also runs the version's \`INSERT … SELECT\`
(\`packages/documents/src/history.ts\`) in its transaction: one version per document-locale it
changed (here one: the published content of a create, the draft of an update). Machine:
${cpus().length} cores shared by the load generator, both gateways and Postgres (load average
${load} when the run started).

Under load — autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run after a warm-up of
each, ${ROUNDS} runs per gateway alternating (mean req/s, p50 and p99):

${table}

One write at a time, alternating between the two gateways request by request (${PAIRS} pairs):
the fairest comparison on a machine whose other load changes from one second to the next.

${latencyTable}

CPU time per write in the runs under load (the gateway's process and the database's Postgres
backends, from \`/proc\`, means):

${cpuTable}

Last run: ${new Date().toISOString().slice(0, 10)}.`);
  process.stdout.write(`\n${table}\n\n${latencyTable}\n\n${cpuTable}\n\nwritten to docs/performance.md (section bench-history)\n`);
} finally {
  await db.drop();
}
