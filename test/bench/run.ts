// `make bench`: our gateway vs. a hand-written fastify+pg server (REST) and a hand-written
// fastify+mercurius+pg server (GraphQL) on the same database and the same queries, measured in
// one run with autocannon; prints req/s, p99 and the ratio and writes its section of docs/performance.md
// (`large.ts` is the 100,000-document mode, `scale.ts` the 10,000-project one).
// Servers run as separate processes from the load generator. Our gateway runs with its answer
// cache on (the default): a repeated read is a hit (the column `answer cache` says what a read
// after the warm-up got; answer-cache.ts measures the cache on and off against the cached-count server).
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { spawnCompiledGateway } from '../helpers/process.ts';
import { startBaseline } from './baseline-process.ts';
import { seed } from './seed.ts';
import { writeDocSection } from './doc-section.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

interface Scenario { name: string; ours: string; baseline: string; body?: string }

async function measure(url: string, body?: string): Promise<{ rps: number; p99: number; errors: number }> {
  const post = body ? { method: 'POST' as const, body, headers: { 'content-type': 'application/json' } } : {};
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, ...post });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const db = await createTestDatabase('cms_bench');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
try {
  process.stdout.write(`seeding ${DOCUMENTS} documents…\n`);
  const seeded = await seed(env, DOCUMENTS);
  const gateway = await spawnCompiledGateway(env);
  const baselineEnv = { DATABASE_URL: db.url, BENCH_SCHEMA: seeded.schema };
  const baseline = await startBaseline('test/bench/baseline-server.ts', '/list', baselineEnv);
  const graphqlBaseline = await startBaseline('test/bench/graphql-baseline-server.ts', '/graphql?query=%7B__typename%7D', baselineEnv);
  const api = `${gateway.url}/p/${seeded.slug}/api/articles`;
  const scenarios: Scenario[] = [
    { name: 'list 25', ours: api, baseline: `${baseline.url}/list` },
    { name: 'list 25 + populate manyToOne & manyToMany', ours: `${api}?populate[author][fields][0]=name&populate[tags][fields][0]=label`, baseline: `${baseline.url}/populate` },
    { name: 'one by documentId', ours: `${api}/${seeded.sampleDocumentId}`, baseline: `${baseline.url}/one/${seeded.sampleDocumentId}` },
    { name: 'filtered + sorted list', ours: `${api}?filters[views][$gt]=50000&filters[title][$contains]=1&sort=views:desc`, baseline: `${baseline.url}/filtered` },
  ];
  const creation = { name: 'create (draft + published, manyToOne + 2 manyToMany)', ours: api, baseline: `${baseline.url}/create`, body: JSON.stringify({ data: {
    title: 'Created by the bench', body: 'Lorem ipsum', views: 1, author: 'author000000000000000001', tags: ['tag000000000000000000001', 'tag000000000000000000002'],
  } }) };
  // Same answers before measuring speed.
  for (const s of scenarios) {
    const [a, b] = await Promise.all([fetch(s.ours).then((r) => r.json()), fetch(s.baseline).then((r) => r.json())]) as any[];
    const ids = (x: any) => JSON.stringify(Array.isArray(x.data) ? x.data.map((d: any) => d.documentId) : x.data?.documentId);
    if (ids(a) !== ids(b) || JSON.stringify(a.meta) !== JSON.stringify(b.meta)) throw new Error(`scenario "${s.name}" answers differ`);
  }
  for (const url of [creation.ours, creation.baseline]) {
    const res = await fetch(url, { method: 'POST', body: creation.body, headers: { 'content-type': 'application/json' } });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  }
  // GraphQL: same operation sent to both (anonymous = the public role, like the REST scenarios).
  const ARTICLE_FIELDS = 'documentId title views author { name } tags { label }';
  const graphqlScenarios: Scenario[] = [
    { name: 'GraphQL connection 25 + manyToOne & manyToMany', query: `query { articles_connection(pagination: { pageSize: 25 }) { nodes { ${ARTICLE_FIELDS} } pageInfo { page pageSize pageCount total } } }` },
    { name: 'GraphQL one by documentId', query: `query One($id: ID!) { article(documentId: $id) { ${ARTICLE_FIELDS} } }`, variables: { id: seeded.sampleDocumentId } },
  ].map(({ name, query, variables }) => ({
    name, ours: `${gateway.url}/p/${seeded.slug}/graphql`, baseline: `${graphqlBaseline.url}/graphql`, body: JSON.stringify({ query, variables }),
  }));
  for (const s of graphqlScenarios) {
    const ask = async (url: string) => {
      const res = await fetch(url, { method: 'POST', body: s.body, headers: { 'content-type': 'application/json' } });
      const text = await res.text();
      let json: any;
      try { json = JSON.parse(text); } catch { json = undefined; }
      if (res.status !== 200 || !json?.data || json.errors) throw new Error(`scenario "${s.name}": POST ${url} ${s.body}\nanswered ${res.status}: ${text}`);
      return json.data;
    };
    const [a, b] = await Promise.all([ask(s.ours), ask(s.baseline)]);
    const ids = (d: any) => JSON.stringify(d.articles_connection
      ? { ids: d.articles_connection.nodes.map((n: any) => n.documentId), pageInfo: d.articles_connection.pageInfo }
      : d.article?.documentId);
    if (ids(a) !== ids(b)) throw new Error(`scenario "${s.name}" answers differ:\nours     ${ids(a)}\nbaseline ${ids(b)}`);
    if (JSON.stringify(a) !== JSON.stringify(b)) process.stdout.write(`note: scenario "${s.name}": same documents, other fields differ\n`);
  }
  scenarios.push(creation, ...graphqlScenarios);
  const rows: string[] = [];
  for (const s of scenarios) {
    await measure(s.ours, s.body); // warm-up: plans, caches, connections
    const cache = s === creation ? '–' : (await fetch(s.ours, s.body ? { method: 'POST', body: s.body, headers: { 'content-type': 'application/json' } } : {})).headers.get('x-answer-cache');
    const ours = await measure(s.ours, s.body);
    const base = await measure(s.baseline, s.body);
    const ratio = base.rps ? ours.rps / base.rps : 0;
    const row = `| ${s.name} | ${ours.rps.toFixed(0)} | ${ours.p99} | ${cache} | ${base.rps.toFixed(0)} | ${base.p99} | **${ratio.toFixed(2)}×** |`;
    rows.push(row);
    process.stdout.write(`${row}${ours.errors || base.errors ? `  (errors: ours ${ours.errors}, baseline ${base.errors})` : ''}\n`);
  }
  // The cost of plan rate limits: the same list through a gateway enforcing them (the project's
  // plan allows 5000 req/s, so nothing is refused) ÷ through a twin started with it, limits off.
  const [limited, unlimited] = await Promise.all([spawnCompiledGateway({ ...env, PLAN_LIMITS: 'true' }), spawnCompiledGateway(env)]);
  const limitedApi = `${limited.url}/p/${seeded.slug}/api/articles`;
  const unlimitedApi = `${unlimited.url}/p/${seeded.slug}/api/articles`;
  await measure(limitedApi);
  await measure(unlimitedApi);
  // Alternated and averaged: one pair in turn on a noisy machine is mostly noise.
  const runs: Array<[Awaited<ReturnType<typeof measure>>, Awaited<ReturnType<typeof measure>>]> = [];
  for (let i = 0; i < 3; i++) runs.push([await measure(limitedApi), await measure(unlimitedApi)]);
  const mean = (k: 0 | 1) => ({
    rps: runs.reduce((n, r) => n + r[k].rps, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r[k].p99)),
    errors: runs.reduce((n, r) => n + r[k].errors, 0),
  });
  const withLimits = mean(0);
  const withoutLimits = mean(1);
  const limitsRow = `| list 25 with PLAN_LIMITS=true (answer cache hits) | ${withLimits.rps.toFixed(0)} | ${withLimits.p99} | ${withoutLimits.rps.toFixed(0)} (same, limits off) | ${withoutLimits.p99} | **${(withLimits.rps / withoutLimits.rps).toFixed(2)}×** |`;
  process.stdout.write(`${limitsRow}${withLimits.errors ? `  (errors: ${withLimits.errors})` : ''}\n`);
  limited.stop();
  unlimited.stop();
  gateway.stop();
  baseline.stop();
  graphqlBaseline.stop();
  const table = [
    '| scenario | ours req/s | ours p99 ms | ours: answer cache | baseline req/s | baseline p99 ms | ours ÷ baseline |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const doc = `Measured by \`make bench\` (\`test/bench/run.ts\`): autocannon (${CONNECTIONS} connections, ${SECONDS} s per
scenario after a warm-up) against the compiled gateway (\`dist/gateway.js\`, as production runs it) and, in the same run, hand-written
baselines answering the same queries on the same Postgres (${DOCUMENTS} published articles, each
with its draft row; 100 authors; 50 tags, 3 per article): a fastify + pg server for the REST rows
and a fastify + mercurius (JIT, batched loaders for author and tags) + pg server for the GraphQL
rows (\`POST /graphql\`, anonymous via the public role on both). Both sides answer every list with
its exact total; the baselines count it on every request and read rows on every request, while ours
has its answer cache on (the default): each scenario repeats one URL (or GraphQL body), so after
the warm-up ours answers from memory (\`ours: answer cache\` is what a read then got; what the cache
adds, on and off against a server that keeps its counts, is § The answer cache below). Machine: ${cpus().length} cores, load generator on the same machine — compare the ratio,
not the absolute numbers.

${table}

The cost of plan rate limits (leases from Redis): the same list through two gateways started
together, one with PLAN_LIMITS=true; three alternating runs each, mean req/s and worst p99:

| scenario | ours req/s | p99 ms | ours without limits req/s | p99 ms | ratio |
|---|---|---|---|---|---|
${limitsRow}

Last run: ${new Date().toISOString().slice(0, 10)}.
`;
  writeDocSection('bench', doc);
  process.stdout.write(`\n${table}\n\nwritten to docs/performance.md (section bench)\n`);
} finally {
  await db.drop();
}
