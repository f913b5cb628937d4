// `make bench`: our gateway vs. a hand-written fastify+pg server on the same database and the
// same queries, measured in one run with autocannon; prints req/s, p99 and the ratio and
// writes docs/performance.md. Servers run as separate processes from the load generator.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { freePort, spawnGateway } from '../helpers/process.ts';
import { seed } from './seed.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Scenario { name: string; ours: string; baseline: string; body?: string }

async function measure(url: string, body?: string): Promise<{ rps: number; p99: number; errors: number }> {
  const post = body ? { method: 'POST' as const, body, headers: { 'content-type': 'application/json' } } : {};
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, ...post });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function startBaseline(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/baseline-server.ts'], {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) }, stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try { if ((await fetch(`${url}/list`)).ok) break; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

const db = await createTestDatabase('cms_bench');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
try {
  process.stdout.write(`seeding ${DOCUMENTS} documents…\n`);
  const seeded = await seed(env, DOCUMENTS);
  const gateway = await spawnGateway(env);
  const baseline = await startBaseline({ DATABASE_URL: db.url, BENCH_SCHEMA: seeded.schema });
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
  scenarios.push(creation);
  const rows: string[] = [];
  for (const s of scenarios) {
    await measure(s.ours, s.body); // warm-up: plans, caches, connections
    const ours = await measure(s.ours, s.body);
    const base = await measure(s.baseline, s.body);
    const ratio = base.rps ? ours.rps / base.rps : 0;
    const row = `| ${s.name} | ${ours.rps.toFixed(0)} | ${ours.p99} | ${base.rps.toFixed(0)} | ${base.p99} | **${ratio.toFixed(2)}×** |`;
    rows.push(row);
    process.stdout.write(`${row}${ours.errors || base.errors ? `  (errors: ours ${ours.errors}, baseline ${base.errors})` : ''}\n`);
  }
  gateway.stop();
  baseline.stop();
  const table = [
    '| scenario | ours req/s | ours p99 ms | baseline req/s | baseline p99 ms | ours ÷ baseline |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  const doc = `# Performance

Measured by \`make bench\` (\`test/bench/run.ts\`): autocannon (${CONNECTIONS} connections, ${SECONDS} s per
scenario after a warm-up) against a real gateway process and, in the same run, a hand-written
fastify + pg server answering the same queries on the same Postgres (${DOCUMENTS} published
articles, each with its draft row; 100 authors; 50 tags, 3 per article). Both servers count the
total exactly on every list. Machine: ${cpus().length} cores, load generator on the same machine —
compare the ratio, not the absolute numbers.

${table}

Last run: ${new Date().toISOString().slice(0, 10)}.
`;
  writeFileSync(`${ROOT}docs/performance.md`, doc);
  process.stdout.write(`\n${table}\n\nwritten to docs/performance.md\n`);
} finally {
  await db.drop();
}
