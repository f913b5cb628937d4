// `make bench-export`: exports, backups and restores of the bench project (BENCH_DOCUMENTS
// articles, 10,000 by default, each with a draft and a published row, 100 authors, 50 tags, 3 tags
// and an author per row), measured in one run against a hand-written baseline doing the same
// work: `pg_dump` of the project's schema piped through gzip (a consistent copy of the same rows,
// in Postgres's own format rather than Strapi's). The in-place restore runs alone, then again while
// clients read the project: their errors and p99 are reported. Writes its section of
// docs/performance.md.
import { spawn } from 'node:child_process';
import { createGzip } from 'node:zlib';
import { loadConfig } from '@cms/config';
import { createPlatform } from '@cms/gateway';
import { RestoreRunner } from '../../apps/gateway/src/management/restores.ts';
import { silentLogger } from '@cms/telemetry';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { writeDocSection } from './doc-section.ts';
import { seed } from './seed.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);

const ms = (from: number) => Math.round(performance.now() - from);

/** pg_dump of one schema, gzipped: bytes and milliseconds. */
async function pgDump(url: string, schema: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const dump = spawn('pg_dump', ['--dbname', url, '--schema', schema, '--no-owner'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const closed = new Promise<number | null>((resolve) => dump.on('close', resolve));
  let bytes = 0;
  const gzip = dump.stdout.pipe(createGzip());
  for await (const chunk of gzip) bytes += (chunk as Buffer).length;
  const code = await closed;
  if (code !== 0) throw new Error(`pg_dump exited with ${code}`);
  return { bytes, ms: ms(started) };
}

const db = await createTestDatabase('cms_bench_export');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '20' });
try {
  process.stdout.write(`seeding ${DOCUMENTS} documents…\n`);
  const seeded = await seed(env, DOCUMENTS);
  const platform = await createPlatform(loadConfig(env), silentLogger());
  const restores = new RestoreRunner(platform);
  try {
    const project = (await platform.registry.resolve(seeded.slug))!.project;
    const rows: Array<[string, string, string]> = [];

    const baseline = await pgDump(db.url, seeded.schema);
    let started = performance.now();
    const exported = await platform.archives.start(project, 'export');
    await platform.archives.finished(exported.id);
    const exportMs = ms(started);
    const record = (await platform.archiveStore.get(project.id, exported.id))!;
    if (record.status !== 'done') throw new Error(`export ${record.status}: ${record.error}`);
    const entities = Object.values(record.counts!.entities).reduce((a, b) => a + b, 0);
    rows.push(['export (our archive)', `${exportMs} ms`, `${(record.size! / 1e6).toFixed(2)} MB, ${entities} entities, ${record.counts!.links} links`]);
    rows.push(['pg_dump of the schema, gzipped (baseline)', `${baseline.ms} ms`, `${(baseline.bytes / 1e6).toFixed(2)} MB`]);
    rows.push(['ours ÷ baseline', `${(exportMs / baseline.ms).toFixed(2)}×`, '']);

    // An in-place restore of that export's twin (a backup) while readers run.
    started = performance.now();
    const backup = await platform.archives.start(project, 'manual', { keepDays: 7 });
    await platform.archives.finished(backup.id);
    rows.push(['backup', `${ms(started)} ms`, '']);
    const backupRecord = (await platform.archiveStore.get(project.id, backup.id))!;
    const { buildApp } = await import('@cms/gateway');
    const app = await buildApp(platform);
    await app.fastify.ready();
    /** One in-place restore of the backup, with `readers` clients reading the project meanwhile. */
    const restoreWith = async (readers: number) => {
      let reading = true;
      const latencies: number[] = [];
      let errors = 0;
      const reader = async () => {
        while (reading) {
          const t0 = performance.now();
          const res = await app.fastify.inject({ method: 'GET', url: `/p/${seeded.slug}/api/articles?populate=*&pagination[pageSize]=25` });
          latencies.push(performance.now() - t0);
          if (res.statusCode !== 200) errors++;
          // Clients with think time: the readers share this process's event loop with the restore.
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      const running = Array.from({ length: readers }, reader);
      const began = performance.now();
      const restore = await restores.start(project, project.accountId, backupRecord, { target: 'in-place' });
      await restores.close();
      const took = ms(began);
      reading = false;
      await Promise.all(running);
      const restored = await restores.store.get(project.id, restore.id);
      if (restored?.status !== 'done') throw new Error(`restore ${restored?.status}: ${restored?.error}`);
      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
      rows.push([`restore in place${readers ? `, ${readers} readers in the same process meanwhile` : ''}`, `${took} ms`,
        readers ? `${latencies.length} reads, ${errors} errors, p99 ${p99.toFixed(1)} ms` : `${Math.round(entities / (took / 1000))} entities/s`]);
    };
    await restoreWith(0);
    await restoreWith(2);
    await app.fastify.close();

    const table = ['| | time | |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
    const date = new Date().toISOString().slice(0, 10);
    writeDocSection('bench-export', `### Exports, backups and restores (\`make bench-export\`, ${date})\n\n` +
      `${DOCUMENTS.toLocaleString('en')} articles (a draft and a published row each), 100 authors, 50 tags; one run on this machine.\n\n${table}`);
    process.stdout.write(`\n${table}\n\nwritten to docs/performance.md (section bench-export)\n`);
  } finally {
    await platform.close();
  }
} finally {
  await db.drop();
}
