// `make bench-memory`: does the answer cache's byte budget hold the gateway's memory? One
// compiled gateway with a small budget (ANSWER_CACHE_MB, 16 here) under a mixed load for
// BENCH_MEMORY_MINUTES (30 by default): reads of many distinct URLs across BENCH_MEMORY_PROJECTS
// projects (list pages of several sizes, filters and populates, documents by id, GraphQL GETs),
// so the cache fills and evicts, and creates (BENCH_MEMORY_WRITES of the requests, to half of the
// projects: each moves its project's content version on; BENCH_MEMORY_READS=documents reads only
// documents by id, the smallest answers). The gateway's RSS and its answer-cache
// counters (`/metrics`) are sampled every BENCH_MEMORY_SAMPLE_SECONDS; after the warm-up
// (BENCH_MEMORY_WARMUP_SECONDS, default a fifth of the run, 1 to 5 minutes) RSS should stay flat.
// The gateway runs with --trace-gc: its V8 heap after each full collection tells the JS heap from
// the rest of RSS. First, the idle RSS of a fresh gateway with the default configuration (nothing
// in its cache). Writes the generated section `bench-memory` of docs/performance.md
// (`bench-memory-cache-off` with BENCH_MEMORY_CACHE_MB=0, the same load without the answer cache).
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '@cms/config';
import { silentLogger } from '@cms/telemetry';
import { createPlatform } from '@cms/gateway';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { spawnCompiledGateway, type GatewayProcess } from '../helpers/process.ts';
import { writeDocSection } from './doc-section.ts';
import { benchProject } from './seed.ts';
import { articleId, authorId, LARGE_MODEL } from './seed-large.ts';

const MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 30);
const CACHE_MB = Number(process.env.BENCH_MEMORY_CACHE_MB ?? 16);
const PROJECTS = Number(process.env.BENCH_MEMORY_PROJECTS ?? 20);
const DOCUMENTS = Number(process.env.BENCH_MEMORY_DOCUMENTS ?? 2_000);
const WRITES = Number(process.env.BENCH_MEMORY_WRITES ?? 0.01);
// BENCH_MEMORY_READS=documents: only documents by id (many small answers) instead of the mix.
const ONLY_DOCUMENTS = process.env.BENCH_MEMORY_READS === 'documents';
const SAMPLE_SECONDS = Number(process.env.BENCH_MEMORY_SAMPLE_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_MEMORY_WARMUP_SECONDS ?? Math.min(300, Math.max(60, (MINUTES * 60) / 5)));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const AUTHORS = 50;
const METRICS_TOKEN = 'bench-memory';
const SECTION = process.env.BENCH_MEMORY_SECTION ?? (CACHE_MB === 0 ? 'bench-memory-cache-off' : 'bench-memory');
// glibc's malloc arenas (MALLOC_ARENA_MAX), passed to the gateway when set: how much of RSS is the allocator's.
const ARENAS: Record<string, string> = process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {};

const rssMb = (gateway: GatewayProcess) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gateway.child.pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const int = (n: number) => 1 + Math.floor(Math.random() * n);

/** PROJECTS projects of the 100k bench's model, each with DOCUMENTS published articles (and drafts) by AUTHORS authors. */
async function seedProjects(env: Record<string, string>): Promise<string[]> {
  const platform = await createPlatform(loadConfig(env), silentLogger());
  const bulk = new pg.Client({ connectionString: env.DATABASE_URL });
  await bulk.connect();
  try {
    const slugs: string[] = [];
    for (let p = 1; p <= PROJECTS; p++) {
      const project = await benchProject(platform, `Memory ${p}`, `memory-${p}`, LARGE_MODEL);
      const s = `"${project.schemaName}"`;
      await bulk.query(`INSERT INTO ${s}.ct_author (document_id, published_at, name)
        SELECT 'author' || lpad(i::text, 18, '0'), now(), 'Author ' || i FROM generate_series(1, ${AUTHORS}) i`);
      await bulk.query(`INSERT INTO ${s}.ct_article (document_id, published_at, name, body, rating)
        SELECT 'article' || lpad(i::text, 17, '0'), CASE WHEN v THEN now() ELSE NULL END, 'Article ' || i,
               repeat('Lorem ipsum dolor sit amet. ', 8), (i * 31) % 6
        FROM generate_series(1, $1) i, (VALUES (false), (true)) AS x(v)`, [DOCUMENTS]);
      await bulk.query(`INSERT INTO ${s}.lnk_ct_article__author (source_id, target_document_id, ord, inv_ord)
        SELECT a.id, 'author' || lpad((1 + (substr(a.document_id, 8)::int % ${AUTHORS}))::text, 18, '0'), 1,
               row_number() OVER (PARTITION BY substr(a.document_id, 8)::int % ${AUTHORS} ORDER BY a.id)
        FROM ${s}.ct_article a`);
      slugs.push(project.slug);
    }
    await bulk.query('VACUUM ANALYZE');
    return slugs;
  } finally {
    await bulk.end();
    await platform.close();
  }
}

/** One request of the mix: mostly reads of many distinct URLs, WRITES of them creates. */
function nextRequest(slugs: string[]): { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> } {
  if (Math.random() < WRITES) {
    const body = JSON.stringify({ data: { name: 'Written by the memory bench', body: 'Lorem ipsum', rating: int(6) - 1, author: authorId(int(AUTHORS)) } });
    return { method: 'POST', path: `/p/${pick(slugs.slice(0, Math.ceil(slugs.length / 2)))}/api/articles`, body, headers: { 'content-type': 'application/json' } };
  }
  const slug = pick(slugs);
  const api = `/p/${slug}/api/articles`;
  const kind = Math.random();
  if (kind < 0.3 || ONLY_DOCUMENTS) return { method: 'GET', path: `${api}/${articleId(int(DOCUMENTS))}` };
  if (kind < 0.4) {
    const query = `{ articles(pagination: { page: ${int(40)}, pageSize: ${pick([5, 10, 25])} }) { documentId name rating author { name } } }`;
    // With a preflight header, as a GraphQL client sends a GET (the CSRF check).
    return { method: 'GET', path: `/p/${slug}/graphql?query=${encodeURIComponent(query)}`, headers: { 'apollo-require-preflight': 'true' } };
  }
  const params = [`pagination[page]=${int(40)}`, `pagination[pageSize]=${pick([10, 25, 50, 100])}`];
  if (Math.random() < 0.5) params.push(`filters[rating][$gte]=${int(6) - 1}`);
  if (Math.random() < 0.3) params.push('populate[author][fields][0]=name');
  if (Math.random() < 0.2) params.push('sort=name:desc');
  return { method: 'GET', path: `${api}?${params.join('&')}` };
}

/** The answer cache's counters from `/metrics` (Prometheus text). */
async function cacheCounters(gateway: GatewayProcess): Promise<Record<string, number>> {
  const text = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^cms_answer_cache_(\w+?)(?:_total)?(?:\{([^}]*)\})?\s+(\S+)$/.exec(line);
    const result = m?.[2] ? /result="(\w+)"/.exec(m[2])?.[1] : undefined;
    if (m) out[result ? `lookups_${result}` : m[1]!] = Number(m[3]);
  }
  return out;
}

interface Sample { seconds: number; rssMb: number; heapMb: number | null; heapCommittedMb: number | null; cacheMb: number; entries: number; evictions: number; hits: number; misses: number }

/**
 * The V8 heap after the last full collection, MB: what is live, and what the heap holds from the
 * system (`--trace-gc`: `Mark-Compact 412.1 (430.0) -> 301.5 (420.2) MB`, used (committed)).
 */
function heapAfterLastFullGc(output: string): { live: number; committed: number } | null {
  const at = output.lastIndexOf('Mark-Compact');
  if (at < 0) return null;
  const m = /->\s*([\d.]+)\s*\(([\d.]+)\)/.exec(output.slice(at, at + 200));
  return m ? { live: Number(m[1]), committed: Number(m[2]) } : null;
}

const db = await createTestDatabase('cms_bench');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
const stops: Array<() => Promise<void>> = [];
try {
  // A fresh gateway with the default configuration, idle: what it holds outside any cache.
  const fresh = await spawnCompiledGateway(env);
  await sleep(10_000);
  const idle = [rssMb(fresh)];
  for (let i = 0; i < 2; i++) {
    await sleep(5_000);
    idle.push(rssMb(fresh));
  }
  await fresh.stop();
  process.stdout.write(`fresh gateway idle RSS: ${idle.map((v) => v.toFixed(0)).join(', ')} MB\n`);

  process.stdout.write(`seeding ${PROJECTS} projects of ${DOCUMENTS} documents…\n`);
  const slugs = await seedProjects(env);
  const gateway = await spawnCompiledGateway({ ...env, ...ARENAS, ANSWER_CACHE_MB: String(CACHE_MB), METRICS_TOKEN }, { nodeArgs: ['--trace-gc'] });
  stops.push(() => gateway.stop());
  const started = performance.now();
  const samples: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const c = await cacheCounters(gateway).catch(() => ({} as Record<string, number>));
      const heap = heapAfterLastFullGc(gateway.output());
      const sample = {
        seconds: (performance.now() - started) / 1000, rssMb: rssMb(gateway), heapMb: heap?.live ?? null, heapCommittedMb: heap?.committed ?? null, cacheMb: (c.bytes ?? 0) / 1024 / 1024,
        entries: c.entries ?? 0, evictions: c.evictions ?? 0, hits: c.lookups_hit ?? 0, misses: c.lookups_miss ?? 0,
      };
      samples.push(sample);
      process.stdout.write(`${JSON.stringify({ ...sample, seconds: Math.round(sample.seconds), rssMb: Number(sample.rssMb.toFixed(1)), cacheMb: Number(sample.cacheMb.toFixed(1)) })}\n`);
      await sleep(SAMPLE_SECONDS * 1000);
    }
  })();
  const statuses: Record<string, number> = {};
  const result = await autocannon({
    url: gateway.url, connections: CONNECTIONS, duration: MINUTES * 60, pipelining: 1,
    requests: [{
      setupRequest: (req: any) => ({ ...req, ...nextRequest(slugs) }),
      onResponse: (status: number) => void (statuses[status] = (statuses[status] ?? 0) + 1),
    }],
  } as autocannon.Options);
  sampling = false;
  await sampler;

  const after = samples.filter((s) => s.seconds >= WARMUP_SECONDS);
  const rss = after.map((s) => s.rssMb);
  // Least-squares slope of RSS after the warm-up, MB per minute.
  const mx = after.reduce((n, s) => n + s.seconds, 0) / after.length;
  const my = rss.reduce((n, v) => n + v, 0) / rss.length;
  const slope = (after.reduce((n, s) => n + (s.seconds - mx) * (s.rssMb - my), 0) / after.reduce((n, s) => n + (s.seconds - mx) ** 2, 0)) * 60;
  const last = samples.at(-1)!;
  const heaps = after.map((s) => s.heapMb).filter((v): v is number => v !== null);
  const committed = after.map((s) => s.heapCommittedMb).filter((v): v is number => v !== null);
  const writes = Math.round(WRITES * result.requests.total);
  const table = [
    '| | MB |',
    '|---|---|',
    `| fresh gateway, default configuration, idle (10, 15, 20 s after start) | ${idle.map((v) => v.toFixed(0)).join(', ')} |`,
    `| under load, RSS at the end of the warm-up (${Math.round(after[0]?.seconds ?? 0)} s) | ${rss[0]?.toFixed(0) ?? '–'} |`,
    `| under load, RSS at the end (${Math.round(last.seconds)} s) | ${rss.at(-1)?.toFixed(0) ?? '–'} |`,
    `| under load after the warm-up: min / max RSS | ${Math.min(...rss).toFixed(0)} / ${Math.max(...rss).toFixed(0)} |`,
    `| RSS trend after the warm-up (least squares) | ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} per minute |`,
    `| V8 heap live after a full collection, after the warm-up: first / last / max | ${heaps.length ? `${heaps[0]!.toFixed(0)} / ${heaps.at(-1)!.toFixed(0)} / ${Math.max(...heaps).toFixed(0)}` : '–'} |`,
    `| V8 heap committed at that collection, after the warm-up: first / last / max | ${committed.length ? `${committed[0]!.toFixed(0)} / ${committed.at(-1)!.toFixed(0)} / ${Math.max(...committed).toFixed(0)}` : '–'} |`,
    `| answer cache held at the end (budget ${CACHE_MB}) | ${last.cacheMb.toFixed(1)} (${last.entries.toLocaleString('en-US')} answers) |`,
  ].join('\n');
  const counts = `${result.requests.total.toLocaleString('en-US')} requests (${result.requests.average.toFixed(0)}/s; about ${writes.toLocaleString('en-US')} creates), statuses ${JSON.stringify(statuses)}, `
    + `${result.errors} connection errors; the cache: ${last.hits.toLocaleString('en-US')} hits, ${last.misses.toLocaleString('en-US')} misses, ${last.evictions.toLocaleString('en-US')} evictions`;
  const curve = samples.filter((_, i) => i % Math.max(1, Math.round(samples.length / 12)) === 0 || i === samples.length - 1)
    .map((s) => `${Math.round(s.seconds)} s: ${s.rssMb.toFixed(0)} MB (heap live ${s.heapMb?.toFixed(0) ?? '–'} of ${s.heapCommittedMb?.toFixed(0) ?? '–'}, cache ${s.cacheMb.toFixed(1)})`).join(' · ');
  writeDocSection(SECTION, `Measured by \`make bench-memory\` (\`test/bench/memory.ts\`): ${MINUTES} minute${MINUTES === 1 ? '' : 's'} of mixed load
(autocannon, ${CONNECTIONS} connections, unthrottled) on one compiled gateway with \`ANSWER_CACHE_MB=${CACHE_MB}\`${ARENAS.MALLOC_ARENA_MAX ? ` and \`MALLOC_ARENA_MAX=${ARENAS.MALLOC_ARENA_MAX}\`` : ''} (and \`METRICS_TOKEN\`, to read
its cache counters, and \`--trace-gc\`, for its heap): ${PROJECTS} projects of ${DOCUMENTS.toLocaleString('en-US')} articles each, reads spread over all of them — list pages
1–40 of 10 to 100 articles, half with a rating filter, some populated or sorted by name; documents by
id; GraphQL GETs of pages${ONLY_DOCUMENTS ? ' (here: documents by id only)' : ''} — and ${(WRITES * 100).toFixed(1)}% creates to half of the projects. RSS from \`/proc\` every ${SAMPLE_SECONDS} s;
the warm-up is the first ${WARMUP_SECONDS} s. ${cpus().length} cores shared with Postgres, Redis and the load generator.

${table}

${counts}.

RSS over the run: ${curve}.

Last run: ${new Date().toISOString().slice(0, 10)}.`);
  process.stdout.write(`\n${table}\n\n${counts}\n\nwritten to docs/performance.md (section ${SECTION})\n`);
} finally {
  for (const stop of stops.reverse()) await stop();
  await db.drop();
}
