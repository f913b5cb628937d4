// `make bench-cache` (and `make bench`): the answer cache's targets (issue 37), side by side in
// one run on the 100,000-document project of `make bench-100k` (seed-large.ts; BENCH_DOCS
// changes the size): our compiled gateway with its answer cache on (the default) and a twin with
// ANSWER_CACHE_MB=0, against the hand-written server that keeps its counts
// (baseline-large-server.ts, COUNT_MODE=cached), and for the create the exact-count one too.
// - Repeated reads (the same URL or GraphQL body every time): hits with the cache on.
// - Reads that never repeat: each server walks its own pass of one shuffled deck (random pages,
//   random rating filters; random documents), so no URL is asked twice — misses that fill and
//   evict the cache.
// - Creates: each one moves the project's content version in Redis before it is answered.
// Every answer's `x-answer-cache` header is counted; bodies are checked identical first. Rounds
// alternate the servers' order (BENCH_ROUNDS, default 2; means of req/s and p99). Writes the
// generated section `bench-answer-cache` of docs/performance.md.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { spawnCompiledGateway } from '../helpers/process.ts';
import { startBaseline } from './baseline-process.ts';
import { writeDocSection } from './doc-section.ts';
import { articleId, authorId, cloneTables, seedLarge, tagId } from './seed-large.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

type Method = 'GET' | 'POST';
/** The next request's path (and body) on one server. */
type Next = () => { path: string; body?: string };
interface Run {
  rps: number; p99: number; errors: number; outcomes: Record<string, number>;
  /** CPU ms per request: the server's process with its Postgres backends and Redis; the load generator. */
  cpu: number; loadCpu: number;
}
interface Server { name: string; url: string; pid: number }
interface Case { name: string; method: Method; target: string; group: 'repeated' | 'never repeats' | 'write'; next(server: Server): Next }

/** CPU time (ms) a process has used, from /proc (0 when it is gone). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 100 ticks a second
  } catch {
    return 0;
  }
}
const REDIS_PID = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).find((d) => {
  try { return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'redis-server'; } catch { return false; }
});

/** CPU ms used so far by `server`, by the Postgres backends of the bench's database and by Redis. */
async function serverCpu(server: Server): Promise<Map<number, number>> {
  const backends = (await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map((r) => r.pid as number);
  return new Map([server.pid, ...backends, ...(REDIS_PID ? [Number(REDIS_PID)] : [])].map((pid) => [pid, cpuMs(pid)]));
}

async function measure(server: Server, c: Case, next: Next, seconds: number): Promise<Run> {
  const outcomes: Record<string, number> = {};
  const before = await serverCpu(server);
  const loadBefore = process.cpuUsage();
  const r = await autocannon({
    url: server.url, connections: CONNECTIONS, duration: seconds, pipelining: 1,
    requests: [{
      method: c.method,
      ...(c.method === 'POST' ? { headers: { 'content-type': 'application/json' } } : {}),
      setupRequest: (req: any) => ({ ...req, ...next() }),
      onResponse: (_status: number, _body: string, _ctx: unknown, headers: Record<string, string>) => {
        const o = headers['x-answer-cache'] ?? 'none';
        outcomes[o] = (outcomes[o] ?? 0) + 1;
      },
    }],
  } as autocannon.Options);
  const after = await serverCpu(server);
  const used = [...after].reduce((n, [pid, ms]) => n + ms - (before.get(pid) ?? 0), 0);
  const load = process.cpuUsage(loadBefore);
  const requests = Math.max(1, r.requests.total);
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx, outcomes, cpu: used / requests, loadCpu: (load.user + load.system) / 1000 / requests };
}

async function ask(url: string, method: Method, body?: string): Promise<{ status: number; text: string; cache: string | null }> {
  const res = await fetch(url, method === 'POST' ? { method, body, headers: { 'content-type': 'application/json' } } : {});
  return { status: res.status, text: await res.text(), cache: res.headers.get('x-answer-cache') };
}

/** Fisher–Yates, seeded: every run walks the same deck. */
function shuffled<T>(items: T[], seed = 37): T[] {
  let s = seed;
  const random = () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Each server's own pass over `deck` (continued across its runs; a wrap is reported). */
function dealer<T>(deck: T[], toRequest: (card: T, server: Server) => { path: string; body?: string }) {
  const positions = new Map<string, number>();
  const wrapped = new Set<string>();
  return {
    wrapped,
    next: (server: Server): Next => () => {
      const at = positions.get(server.name) ?? 0;
      if (at > 0 && at % deck.length === 0) wrapped.add(server.name);
      positions.set(server.name, at + 1);
      return toRequest(deck[at % deck.length]!, server);
    },
  };
}

/** A created document's answer without what differs by nature (its ids and timestamps). */
function normalizeCreated(text: string): string {
  const json = JSON.parse(text);
  const d = json?.data ?? {};
  const same = (k: string, v: unknown) => (['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'].includes(k) ? typeof v : v);
  return JSON.stringify({ data: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, same(k, v)])), meta: json?.meta });
}

const share = (o: Record<string, number>, key: string) => {
  const total = Object.values(o).reduce((a, b) => a + b, 0);
  return total ? `${((100 * (o[key] ?? 0)) / total).toFixed(total > 1000 && (o[key] ?? 0) < total ? 1 : 0)}%` : '–';
};
const mean = (runs: Run[]): Run => ({
  rps: runs.reduce((n, r) => n + r.rps, 0) / runs.length,
  cpu: runs.reduce((n, r) => n + r.cpu, 0) / runs.length,
  loadCpu: runs.reduce((n, r) => n + r.loadCpu, 0) / runs.length,
  p99: runs.reduce((n, r) => n + r.p99, 0) / runs.length,
  errors: runs.reduce((n, r) => n + r.errors, 0),
  outcomes: runs.reduce((o, r) => {
    for (const [k, v] of Object.entries(r.outcomes)) o[k] = (o[k] ?? 0) + v;
    return o;
  }, {} as Record<string, number>),
});

const db = await createTestDatabase('cms_bench');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
const admin = new pg.Client({ connectionString: db.url });
const stops: Array<() => unknown> = [];
try {
  await admin.connect();
  await admin.query('SET statement_timeout = 0');
  process.stdout.write(`seeding ${DOCUMENTS} documents (SQL) and the baselines' copies…\n`);
  const seeded = await seedLarge(env, DOCUMENTS);
  await cloneTables(admin, seeded.schema, `${seeded.schema}_cached`);
  await cloneTables(admin, seeded.schema, `${seeded.schema}_exact`);
  const ratings = (await admin.query(`SELECT rating, count(*)::int AS n FROM "${seeded.schema}".ct_article WHERE published_at IS NOT NULL GROUP BY 1`)).rows as Array<{ rating: number; n: number }>;

  const [on, off] = await Promise.all([spawnCompiledGateway(env), spawnCompiledGateway({ ...env, ANSWER_CACHE_MB: '0' })]);
  stops.push(() => on.stop(), () => off.stop());
  const baselineOf = (mode: 'exact' | 'cached') => startBaseline('test/bench/baseline-large-server.ts', '/one/none',
    { DATABASE_URL: db.url, BENCH_SCHEMA: `${seeded.schema}_${mode}`, COUNT_MODE: mode }, 404);
  const [cachedBase, exactBase] = await Promise.all([baselineOf('cached'), baselineOf('exact')]);
  stops.push(cachedBase.stop, exactBase.stop);
  const ON: Server = { name: 'on', url: on.url, pid: on.child.pid! };
  const OFF: Server = { name: 'off', url: off.url, pid: off.child.pid! };
  const CACHED: Server = { name: 'cached', url: cachedBase.url, pid: cachedBase.pid };
  const EXACT: Server = { name: 'exact', url: exactBase.url, pid: exactBase.pid };
  const ours = (s: Server) => s === ON || s === OFF;

  const api = `/p/${seeded.slug}/api/articles`;
  const POPULATE = 'populate[author][fields][0]=name&populate[tags][fields][0]=label';
  const GQL = JSON.stringify({ query: 'query { articles_connection(pagination: { pageSize: 25 }) { nodes { documentId name rating author { name } tags { label } } pageInfo { page pageSize pageCount total } } }' });
  const fixed = (oursPath: string, basePath: string, body?: string) => (s: Server): Next => () => ({ path: ours(s) ? oursPath : basePath, ...(body ? { body } : {}) });
  const one = seeded.sampleDocumentIds[25]!;
  // Random pages of the whole list, unfiltered or rating ≥ r (r = 0..5): every page of each.
  const pages: Array<{ min: number | null; page: number }> = [];
  const published = ratings.reduce((n, r) => n + r.n, 0);
  for (const min of [null, 0, 1, 2, 3, 4, 5]) {
    const n = min === null ? published : ratings.filter((r) => r.rating >= min).reduce((k, r) => k + r.n, 0);
    for (let page = 1; page <= Math.ceil(n / 25); page++) pages.push({ min, page });
  }
  const listDeck = dealer(shuffled(pages), ({ min, page }, s) => ({
    path: ours(s)
      ? `${api}?${min === null ? '' : `filters[rating][$gte]=${min}&`}pagination[page]=${page}`
      : `/list?page=${page}${min === null ? '' : `&min=${min}`}`,
  }));
  const oneDeck = dealer(shuffled(Array.from({ length: DOCUMENTS }, (_, i) => articleId(i + 1))), (id, s) => ({ path: ours(s) ? `${api}/${id}` : `/one/${id}` }));
  const CREATE = JSON.stringify({ data: {
    name: 'Created by the bench', body: 'Lorem ipsum', rating: 3, author: authorId(7), tags: [tagId(3), tagId(11)],
    seo: { metaTitle: 'Bench', metaDescription: 'Created by the bench' },
  } });
  const cases: Case[] = [
    { name: 'list 25 + total', method: 'GET', target: '≥ 2×', group: 'repeated', next: fixed(api, '/list') },
    { name: 'list 25 + populate manyToOne & manyToMany', method: 'GET', target: '≥ 2×', group: 'repeated', next: fixed(`${api}?${POPULATE}`, '/populate') },
    { name: 'GraphQL connection 25 + 2 relations + total (POST)', method: 'POST', target: '≥ 2×', group: 'repeated', next: (s) => fixed(`/p/${seeded.slug}/graphql`, '/graphql', GQL)(s) },
    { name: 'findOne by documentId', method: 'GET', target: '≥ 1.5×', group: 'repeated', next: fixed(`${api}/${one}`, `/one/${one}`) },
    { name: `list 25 + total, random page of ${pages.length.toLocaleString('en-US')} (unfiltered or rating ≥ random r)`, method: 'GET', target: '≥ 0.8×', group: 'never repeats', next: listDeck.next },
    { name: `findOne of a random document of ${DOCUMENTS.toLocaleString('en-US')}`, method: 'GET', target: '–', group: 'never repeats', next: oneDeck.next },
    { name: 'create (published, 3 links, component)', method: 'POST', target: '≥ 0.5×', group: 'write', next: (s) => fixed(api, '/create', CREATE)(s) },
  ];

  // Same answers, and the cache doing what the rows say, before anything is measured.
  for (const c of cases.filter((k) => k.group !== 'write')) {
    const samples = c.group === 'repeated' ? 1 : 8;
    for (let i = 0; i < samples; i++) {
      const byServer = new Map([ON, OFF, CACHED].map((s) => [s, c.next(s)()]));
      const first = await ask(ON.url + byServer.get(ON)!.path, c.method, byServer.get(ON)!.body);
      const again = await ask(ON.url + byServer.get(ON)!.path, c.method, byServer.get(ON)!.body);
      const cacheOff = await ask(OFF.url + byServer.get(OFF)!.path, c.method, byServer.get(OFF)!.body);
      const base = await ask(CACHED.url + byServer.get(CACHED)!.path, c.method, byServer.get(CACHED)!.body);
      const bodies = new Set([first, again, cacheOff, base].map((a) => JSON.stringify(JSON.parse(a.text))));
      if (first.status !== 200 || bodies.size !== 1) {
        throw new Error(`"${c.name}": the answers differ for ${byServer.get(ON)!.path}\n${[first, again, cacheOff, base].map((a) => `${a.status} ${a.text.slice(0, 400)}`).join('\n')}`);
      }
      if (first.cache !== 'miss' || again.cache !== 'hit' || cacheOff.cache !== 'bypass') {
        throw new Error(`"${c.name}": x-answer-cache ${first.cache} then ${again.cache} (cache on), ${cacheOff.cache} (off)`);
      }
    }
  }
  const created = await Promise.all([ON, OFF, CACHED, EXACT].map((s) => ask(s.url + (ours(s) ? api : '/create'), 'POST', CREATE)));
  if (created.some((r) => r.status !== 201) || new Set(created.map((r) => normalizeCreated(r.text))).size !== 1) {
    throw new Error(`create answers differ: ${created.map((r) => `${r.status} ${r.text}`).join('\n')}`);
  }
  process.stdout.write('identical answers; second reads are hits with the cache on, bypass with it off\n');

  /** The measured runs of a case, by server; `full`: the cache-on gateway's, again, once the cache is full. */
  const results = new Map<Case, { by: Map<Server, Run>; full?: Run }>();
  async function measureCase(c: Case, servers: Server[]): Promise<Map<Server, Run>> {
    const nexts = new Map(servers.map((s) => [s, c.next(s)]));
    for (const s of servers) await measure(s, c, nexts.get(s)!, WARM_SECONDS); // plans, connections, the JIT; the cache filled
    const runs = new Map<Server, Run[]>(servers.map((s) => [s, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 === 0 ? servers : [...servers].reverse()) runs.get(s)!.push(await measure(s, c, nexts.get(s)!, SECONDS));
    }
    const errors = servers.filter((s) => runs.get(s)!.some((r) => r.errors)).map((s) => `${s.name} ${mean(runs.get(s)!).errors}`);
    process.stdout.write(`${c.name}: ${servers.map((s) => `${s.name} ${runs.get(s)!.map((r) => r.rps.toFixed(0)).join(', ')}`).join(' | ')} req/s${errors.length ? ` (errors: ${errors.join(', ')})` : ''}\n`);
    return new Map(servers.map((s) => [s, mean(runs.get(s)!)]));
  }
  // The repeated reads with only their own answers kept, then the reads that never repeat (which
  // fill the project's share of the cache: 20% of 64 MB), then the repeated reads again on the
  // cache-on gateway with the cache that full, then the creates.
  for (const c of cases.filter((k) => k.group !== 'write')) results.set(c, { by: await measureCase(c, [ON, OFF, CACHED]) });
  for (const c of cases.filter((k) => k.group === 'repeated')) results.get(c)!.full = (await measureCase(c, [ON])).get(ON);
  for (const c of cases.filter((k) => k.group === 'write')) results.set(c, { by: await measureCase(c, [ON, OFF, CACHED, EXACT]) });

  const x = (a: Run, b: Run) => `${(a.rps / b.rps).toFixed(2)}×`;
  const rows: string[] = [];
  const createRows: string[] = [];
  const cpuRows: string[] = [];
  for (const c of cases) {
    const { by, full } = results.get(c)!;
    const [m, mOff, mBase] = [by.get(ON)!, by.get(OFF)!, by.get(CACHED)!];
    if (c.group === 'write') {
      const mExact = by.get(EXACT)!;
      createRows.push(`| ${c.name} | ${m.rps.toFixed(0)} | ${m.p99.toFixed(0)} | ${mOff.rps.toFixed(0)} | ${mOff.p99.toFixed(0)} | ${mExact.rps.toFixed(0)} | ${mExact.p99.toFixed(0)} | ${mBase.rps.toFixed(0)} | ${mBase.p99.toFixed(0)} | **${x(m, mExact)}** | ${x(m, mBase)} | ${x(m, mOff)} | ${m.cpu.toFixed(2)} / ${mOff.cpu.toFixed(2)} / ${mExact.cpu.toFixed(2)} / ${mBase.cpu.toFixed(2)} | ${c.target} of the exact-count server |`);
    } else {
      const fullCells = full ? `${full.rps.toFixed(0)} | ${full.p99.toFixed(0)} | ${share(full.outcomes, 'hit')} | **${x(full, mBase)}**` : '– | – | – | –';
      const ms = (r: Run) => r.cpu.toFixed(2);
      cpuRows.push(`| ${c.name} | ${ms(m)} | ${full ? ms(full) : '–'} | ${ms(mOff)} | ${ms(mBase)} | **${(mBase.cpu / m.cpu).toFixed(2)}×**${full ? ` / ${(mBase.cpu / full.cpu).toFixed(2)}×` : ''} | ${m.loadCpu.toFixed(2)} / ${mBase.loadCpu.toFixed(2)} |`);
      rows.push(`| ${c.group} | ${c.name} | ${m.rps.toFixed(0)} | ${m.p99.toFixed(0)} | ${share(m.outcomes, 'hit')} | ${mOff.rps.toFixed(0)} | ${mOff.p99.toFixed(0)} | ${mBase.rps.toFixed(0)} | ${mBase.p99.toFixed(0)} | **${x(m, mBase)}** | ${x(mOff, mBase)} | ${x(m, mOff)} | ${fullCells} | ${c.target} |`);
    }
  }
  const wraps = [...listDeck.wrapped, ...oneDeck.wrapped];
  if (wraps.length) process.stdout.write(`note: a deck was walked more than once by ${wraps.join(', ')}: some of its reads repeated\n`);

  const table = [
    '| reads | case | cache on req/s | p99 ms | hits | cache off req/s | p99 ms | cached-count server req/s | p99 ms | on ÷ server | off ÷ server | on ÷ off | cache on, full: req/s | p99 ms | hits | on (full) ÷ server | target (on ÷ server) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const cpuTable = [
    '| reads | CPU ms per request: cache on | cache on, full | cache off | cached-count server | server ÷ on (÷ on, full) | load generator ms per request: on / server |',
    '|---|---|---|---|---|---|---|',
    ...cpuRows,
  ].join('\n');
  const createTable = [
    '| write | cache on req/s | p99 ms | cache off req/s | p99 ms | exact-count server req/s | p99 ms | cached-count server req/s | p99 ms | on ÷ exact | on ÷ cached | on ÷ off | CPU ms per request: on / off / exact / cached | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...createRows,
  ].join('\n');
  writeDocSection('bench-answer-cache', `Measured by \`make bench-cache\` (\`test/bench/answer-cache.ts\`, also run by \`make bench\`): the
${DOCUMENTS.toLocaleString('en-US')}-document project of \`make bench-100k\` (seed-large.ts), two compiled gateways started together on it —
the answer cache on (\`ANSWER_CACHE_MB\` 64, the default) and off (\`ANSWER_CACHE_MB=0\`) — and the
hand-written fastify + pg servers of \`baseline-large-server.ts\` on their own copies of the tables:
the **cached-count** one (per-status counts kept in each write's transaction, filtered totals
cached per filter and values) for the reads, and for the create the **exact-count** one too (plain
inserts, no counter to move). autocannon, ${CONNECTIONS} connections, a ${WARM_SECONDS} s warm-up of each server per case,
then ${ROUNDS} rounds of ${SECONDS} s alternating the servers' order (means of req/s and of p99). Before
measuring: every server's answer the same JSON (a sample of each case), a second read \`hit\` with
the cache on and \`bypass\` with it off. **hits**: the share of the cache-on gateway's measured
answers whose \`x-answer-cache\` said \`hit\`. Repeated reads ask the same URL (GraphQL: the same
POST body) every time; they are measured first with only their own answers in the cache, and again
(cache on only: **cache on, full**) after the reads that never repeat have filled the project's share
of it (20% of the 64 MB without plan limits), as a busy gateway's would be. Reads that never repeat walk a shuffled deck, each server its own pass, so no
URL is asked twice: every page of the whole list unfiltered and with \`filters[rating][$gte]\` of 0 to
5 (the baseline: \`/list?page=&min=\`, its filtered totals cached per value like ours), or every
document by documentId. ${cpus().length} cores shared by Postgres, Redis, the servers and the load generator:
compare the ratios, not the absolute numbers.

${table}

CPU time per request, from \`/proc\` over the same runs: the server's process, the Postgres backends of
the bench's database and Redis (shared with whatever else runs on the machine) — steadier than req/s on a
busy machine, and the measure of what each answer costs; the load generator's own (autocannon, in the
bench's process, on the same ${cpus().length} cores) for scale:

${cpuTable}

${createTable}

Last run: ${new Date().toISOString().slice(0, 10)}.`);
  process.stdout.write(`\n${table}\n\n${cpuTable}\n\n${createTable}\n\nwritten to docs/performance.md (section bench-answer-cache)\n`);
} finally {
  for (const stop of stops.reverse()) await stop();
  await admin.end().catch(() => {});
  await db.drop();
}
