// `make bench-environments`: an environment of the bench project (BENCH_DOCUMENTS articles, 10,000
// by default, each with a draft and a published row, 100 authors, 50 tags, 3 tags and an author
// per row) made through the management API's service, timed from the create to `ready`: alone,
// then while clients read and write the parent (their errors and p99 reported). Target: under
// 10 s for 10,000 documents. Writes its section of docs/performance.md.
import { loadConfig } from '@cms/config';
import { createPlatform } from '@cms/gateway';
import { silentLogger } from '@cms/telemetry';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { writeDocSection } from './doc-section.ts';
import { seed } from './seed.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);

const ms = (from: number) => Math.round(performance.now() - from);

const db = await createTestDatabase('cms_bench_environments');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
try {
  process.stdout.write(`seeding ${DOCUMENTS} documents…\n`);
  const seeded = await seed(env, DOCUMENTS);
  const platform = await createPlatform(loadConfig(env), silentLogger());
  try {
    const parent = (await platform.registry.resolve(seeded.slug))!.project;
    const rows: Array<[string, string, string]> = [];
    const { buildApp } = await import('@cms/gateway');
    const app = await buildApp(platform);
    await app.fastify.ready();

    /** One environment copied, with `clients` reading and writing the parent meanwhile. */
    const copyWith = async (name: string, clients: number) => {
      let running = true;
      const latencies: number[] = [];
      let errors = 0;
      let writes = 0;
      const client = async (n: number) => {
        for (let i = 0; running; i++) {
          const write = (n + i) % 4 === 0;
          const t0 = performance.now();
          const res = write
            ? await app.fastify.inject({ method: 'POST', url: `/p/${seeded.slug}/api/articles`, payload: { data: { title: `during the copy ${n}-${i}` } } })
            : await app.fastify.inject({ method: 'GET', url: `/p/${seeded.slug}/api/articles?populate=*&pagination[pageSize]=25` });
          latencies.push(performance.now() - t0);
          if (write) writes++;
          if (res.statusCode >= 300) errors++;
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      const load = Array.from({ length: clients }, (_, n) => client(n));
      const began = performance.now();
      const created = await platform.environments.create(parent, name);
      await platform.environments.settled();
      const took = ms(began);
      running = false;
      await Promise.all(load);
      const [record] = (await platform.environments.list(parent.id)).filter((e) => e.id === created.id);
      if (record?.status !== 'ready') throw new Error(`environment ${record?.status}: ${record?.error}`);
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
      rows.push([`environment copied (create → ready)${clients ? `, ${clients} clients reading and writing the parent meanwhile` : ''}`, `${took} ms`,
        clients ? `${latencies.length} requests (${writes} writes), ${errors} errors, p99 ${p99.toFixed(1)} ms` : `${DOCUMENTS.toLocaleString('en')} documents`]);
      return took;
    };
    const alone = await copyWith('alone', 0);
    // The copy answers as its parent: same totals of both statuses.
    for (const status of ['draft', 'published']) {
      const total = async (slug: string) => (await app.fastify.inject({ method: 'GET', url: `/p/${slug}/api/articles?status=${status}&pagination[pageSize]=1` })).json().meta.pagination.total as number;
      const [parentTotal, copyTotal] = [await total(seeded.slug), await total(`${seeded.slug}--alone`)];
      if (parentTotal !== copyTotal || copyTotal < DOCUMENTS) throw new Error(`${status}: the copy has ${copyTotal} articles, its parent ${parentTotal}`);
    }
    // The plan allows 20 on enterprise; each run copies a fresh one.
    await copyWith('loaded', 4);
    await app.fastify.close();

    const table = ['| | time | |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
    const date = new Date().toISOString().slice(0, 10);
    writeDocSection('bench-environments', `### Environments (\`make bench-environments\`, ${date})\n\n` +
      `A copy of the bench project: ${DOCUMENTS.toLocaleString('en')} articles (a draft and a published row each), 100 authors, 50 tags, ` +
      `their links; the model's DDL, then every table in one REPEATABLE READ transaction. Target: under 10 s for 10,000 documents ` +
      `(${alone < 10_000 ? 'met' : 'missed'}). One run on this machine.\n\n${table}`);
    process.stdout.write(`\n${table}\n\nwritten to docs/performance.md (section bench-environments)\n`);
  } finally {
    await platform.close();
  }
} finally {
  await db.drop();
}
