// `make bench-100k` (or `make bench BENCH_DOCS=100000`): our gateway against two hand-written
// servers at 100,000 documents (seed-large.ts), in one run — one counting every list exactly
// with count(*), one keeping its exact counts without rescanning (baseline-large-server.ts) — so
// the ratios show what the count costs and what remains. Every server answers the same bodies:
// checked on a sample of requests per case before anything is measured. Writes the generated
// section `bench-large` of docs/performance.md.
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { spawnCompiledGateway } from '../helpers/process.ts';
import { startBaseline } from './baseline-process.ts';
import { writeDocSection } from './doc-section.ts';
import { authorId, cloneTables, seedLarge, tagId } from './seed-large.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCS ?? process.env.BENCH_DOCUMENTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
interface Result { rps: number; p99: number; errors: number }
interface Case {
  name: string;
  method: 'GET' | 'POST';
  ours: string;
  /** path on a baseline */
  baseline: string;
  body?: string;
  /** more [ours, baseline] URL pairs whose bodies must match too */
  samples: Array<[string, string]>;
}

async function measure(url: string, method: 'GET' | 'POST', body?: string): Promise<Result> {
  const post = method === 'POST' ? { method, body, headers: { 'content-type': 'application/json' } } : {};
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, ...post });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

function startLargeBaseline(mode: 'exact' | 'cached', schema: string, databaseUrl: string) {
  return startBaseline('test/bench/baseline-large-server.ts', '/one/none', { DATABASE_URL: databaseUrl, BENCH_SCHEMA: schema, COUNT_MODE: mode }, 404);
}

async function text(url: string, method: 'GET' | 'POST', body?: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, method === 'POST' ? { method, body, headers: { 'content-type': 'application/json' } } : {});
  const raw = await res.text();
  try {
    return { status: res.status, json: JSON.parse(raw) };
  } catch {
    return { status: res.status, json: raw };
  }
}

/** A created document's answer without what differs by nature (its ids and timestamps). */
function normalizeCreated(json: any): unknown {
  const d = json?.data ?? {};
  const same = (k: string, v: unknown) => (['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'].includes(k) ? typeof v : v);
  return { data: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, same(k, v)])), meta: json?.meta };
}

const db = await createTestDatabase('cms_bench');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
const admin = new pg.Client({ connectionString: db.url });
const stops: Array<() => unknown> = [];
try {
  await admin.connect();
  await admin.query('SET statement_timeout = 0');
  let started = Date.now();
  process.stdout.write(`seeding ${DOCUMENTS} documents (SQL)…\n`);
  const seeded = await seedLarge(env, DOCUMENTS);
  process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s; copying the tables for the baselines…\n`);
  started = Date.now();
  await cloneTables(admin, seeded.schema, `${seeded.schema}_exact`);
  await cloneTables(admin, seeded.schema, `${seeded.schema}_cached`);
  process.stdout.write(`copied in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const gateway = await spawnCompiledGateway(env);
  stops.push(() => gateway.stop());
  const exact = await startLargeBaseline('exact', `${seeded.schema}_exact`, db.url);
  stops.push(exact.stop);
  const cached = await startLargeBaseline('cached', `${seeded.schema}_cached`, db.url);
  stops.push(cached.stop);

  const api = `${gateway.url}/p/${seeded.slug}/api/articles`;
  const POPULATE = 'populate[author][fields][0]=name&populate[tags][fields][0]=label';
  const FILTER = 'filters[rating][$gte]=4&sort=name:asc';
  const GQL = 'query { articles_connection(pagination: { pageSize: 25 }) { nodes { documentId name rating author { name } tags { label } } pageInfo { page pageSize pageCount total } } }';
  const ids = seeded.sampleDocumentIds;
  const cases: Case[] = [
    { name: 'list 25 + total', method: 'GET', ours: api, baseline: '/list', samples: [2, 40, 4000].map((p) => [`${api}?pagination[page]=${p}`, `/list?page=${p}`]) },
    { name: 'list 25 + populate manyToOne & manyToMany', method: 'GET', ours: `${api}?${POPULATE}`, baseline: '/populate', samples: [2, 1999].map((p) => [`${api}?${POPULATE}&pagination[page]=${p}`, `/populate?page=${p}`]) },
    { name: 'filter rating ≥ 4, sort by name, page 3', method: 'GET', ours: `${api}?${FILTER}&pagination[page]=3`, baseline: '/filtered', samples: [1, 700].map((p) => [`${api}?${FILTER}&pagination[page]=${p}`, `/filtered?page=${p}`]) },
    { name: 'GraphQL connection 25 + 2 relations + total', method: 'POST', ours: `${gateway.url}/p/${seeded.slug}/graphql`, baseline: '/graphql', body: JSON.stringify({ query: GQL }), samples: [] },
    { name: 'findOne by documentId', method: 'GET', ours: `${api}/${ids[25]}`, baseline: `/one/${ids[25]}`, samples: ids.slice(0, 10).map((id) => [`${api}/${id}`, `/one/${id}`]) },
  ];
  const create: Case = {
    name: 'create (published, 3 links, component)', method: 'POST', ours: api, baseline: '/create', samples: [],
    body: JSON.stringify({ data: {
      name: 'Created by the bench', body: 'Lorem ipsum', rating: 3, author: authorId(7), tags: [tagId(3), tagId(11)],
      seo: { metaTitle: 'Bench', metaDescription: 'Created by the bench' },
    } }),
  };

  // Same bodies from all three before measuring anything.
  let compared = 0;
  for (const c of cases) {
    for (const [ours, path] of [[c.ours, c.baseline] as [string, string], ...c.samples]) {
      const [a, b, x] = await Promise.all([text(ours, c.method, c.body), text(exact.url + path, c.method, c.body), text(cached.url + path, c.method, c.body)]);
      const [ja, jb, jx] = [a, b, x].map((r) => JSON.stringify(r.json));
      if (a.status !== 200 || ja !== jb || ja !== jx) {
        throw new Error(`"${c.name}": the answers differ for ${ours}\nours (${a.status})   ${ja!.slice(0, 800)}\nexact (${b.status})  ${jb!.slice(0, 800)}\ncached (${x.status}) ${jx!.slice(0, 800)}`);
      }
      compared++;
    }
  }
  const created = await Promise.all([create.ours, exact.url + create.baseline, cached.url + create.baseline].map((u) => text(u, 'POST', create.body)));
  if (created.some((r) => r.status !== 201) || new Set(created.map((r) => JSON.stringify(normalizeCreated(r.json)))).size !== 1) {
    throw new Error(`create answers differ: ${created.map((r) => `${r.status} ${JSON.stringify(r.json)}`).join('\n')}`);
  }
  process.stdout.write(`${compared + 1} requests answered identically by all three servers\n`);

  const rows: string[] = [];
  for (const c of [...cases, create]) {
    await measure(c.ours, c.method, c.body); // warm-up: plans, caches, connections
    const ours = await measure(c.ours, c.method, c.body);
    await measure(exact.url + c.baseline, c.method, c.body);
    const e = await measure(exact.url + c.baseline, c.method, c.body);
    await measure(cached.url + c.baseline, c.method, c.body);
    const k = await measure(cached.url + c.baseline, c.method, c.body);
    const ratio = (base: Result) => (base.rps ? `**${(ours.rps / base.rps).toFixed(2)}×**` : '–');
    const row = `| ${c.name} | ${ours.rps.toFixed(0)} | ${ours.p99} | ${e.rps.toFixed(0)} | ${e.p99} | ${k.rps.toFixed(0)} | ${k.p99} | ${ratio(e)} | ${ratio(k)} |`;
    rows.push(row);
    const errors = ours.errors + e.errors + k.errors;
    process.stdout.write(`${row}${errors ? `  (errors: ours ${ours.errors}, exact ${e.errors}, cached ${k.errors})` : ''}\n`);
  }
  const table = [
    '| case | ours req/s | p99 ms | exact-count baseline req/s | p99 ms | cached-count baseline req/s | p99 ms | ours ÷ exact | ours ÷ cached |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  writeDocSection('bench-large', `## ${DOCUMENTS.toLocaleString('en-US')} documents: ours against two hand-written servers

Measured by \`make bench-100k\` (\`test/bench/large.ts\`): ${DOCUMENTS.toLocaleString('en-US')} published articles (each with its
draft row, a manyToOne author of 1,000, two manyToMany tags of 200 and a \`shared.seo\` component;
seeded with SQL), autocannon with ${CONNECTIONS} connections, ${SECONDS} s per case after a warm-up, ${cpus().length} cores shared by
Postgres, the servers and the load generator; ours is the compiled gateway (\`dist/gateway.js\`). The two baselines are fastify + pg servers written
by hand (\`test/bench/baseline-large-server.ts\`), each on its own copy of the same tables and
indexes, building the JSON in Postgres: the **exact-count** one counts every list with
\`count(*)\`; the **cached-count** one keeps per-status counts in a table updated in each write's
transaction and caches filtered totals per filter and values while the type's write counter is
unchanged — exact at every commit, like ours. Before measuring, ${compared + 1} requests (a sample per
case) got byte-identical JSON from all three servers (a create: the same body but for its ids and
timestamps). Compare the ratios, not the absolute numbers.

${table}

Last run: ${new Date().toISOString().slice(0, 10)}.`);
  process.stdout.write(`\n${table}\n\nwritten to docs/performance.md (section bench-large)\n`);
} finally {
  for (const stop of stops.reverse()) await stop();
  await admin.end().catch(() => {});
  await db.drop();
}
