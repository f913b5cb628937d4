// `make bench-live`: one compiled gateway holding BENCH_LIVE_STREAMS (default 10,000) open live
// streams (`/api/live`, Server-Sent Events) of one project: the gateway's RSS before and after they
// are open, then BENCH_LIVE_CHANGES (default 5) changes written one at a time and the time until
// every stream has received each one (p50 / max over the changes). Streams are opened 500 at a time
// from this process; the load generator and the gateway share the machine's cores. Writes its
// section of docs/performance.md.
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { loadConfig } from '@cms/config';
import { silentLogger } from '@cms/telemetry';
import { createPlatform } from '@cms/gateway';
import { testEnv } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { spawnCompiledGateway } from '../helpers/process.ts';
import { writeDocSection } from './doc-section.ts';
import { benchProject, BENCH_MODEL } from './seed.ts';

const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 10_000);
const CHANGES = Number(process.env.BENCH_LIVE_CHANGES ?? 5);
const BATCH = 500;

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

interface Stream {
  received: Set<string>;
  waiters: Map<string, () => void>;
}

const db = await createTestDatabase('cms_bench_live');
const env = testEnv(db, { LOG_LEVEL: 'warn', DB_POOL_SIZE: '10' });
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
try {
  const platform = await createPlatform(loadConfig(env), silentLogger());
  const project = await benchProject(platform, 'Live bench', 'live-bench', BENCH_MODEL);
  await platform.close();
  const gateway = await spawnCompiledGateway(env);
  const pid = gateway.child.pid!;
  const base = `${gateway.url}/p/${project.slug}`;
  await new Promise((r) => setTimeout(r, 1_000));
  const idle = await rssMb(pid);
  const streams: Stream[] = [];
  const open = () => new Promise<Stream>((resolve, reject) => {
    const stream: Stream = { received: new Set(), waiters: new Map() };
    const req = request(`${base}/api/live?types=api::article.article`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const match = /"documentId":"([^"]+)"/.exec(block);
          if (match && block.includes('event: entry.create')) {
            stream.received.add(match[1]!);
            stream.waiters.get(match[1]!)?.();
          }
        }
      });
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
  const openedAt = Date.now();
  for (let i = 0; i < STREAMS; i += BATCH) streams.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, STREAMS - i) }, open))));
  const openMs = Date.now() - openedAt;
  await new Promise((r) => setTimeout(r, 2_000));
  const withStreams = await rssMb(pid);
  const latencies: number[] = [];
  for (let c = 0; c < CHANGES; c++) {
    const started = performance.now();
    const res = await fetch(`${base}/api/articles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: `Live ${c}` } }) });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    const documentId = ((await res.json()) as { data: { documentId: string } }).data.documentId;
    await Promise.all(streams.map((s) => (s.received.has(documentId) ? undefined : new Promise<void>((resolve) => s.waiters.set(documentId, resolve)))));
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 500));
  }
  const after = await rssMb(pid);
  latencies.sort((a, b) => a - b);
  const p50 = latencies[Math.floor(latencies.length / 2)]!;
  const max = latencies[latencies.length - 1]!;
  const growth = withStreams - idle;
  const lines = [
    `Measured by \`make bench-live\` (\`test/bench/live.ts\`): one compiled gateway (Postgres and Redis on the same`,
    `machine), ${STREAMS.toLocaleString('en')} live streams of one project opened from one client process ${BATCH} at a time`,
    `(${(openMs / 1000).toFixed(1)} s), then ${CHANGES} articles created one at a time through the REST API: the time from the`,
    `create request to the last stream's \`entry.create\` event. 2 cores shared by Postgres, Redis, the gateway and the client.`,
    '',
    '| streams | gateway RSS before / with streams / after the changes MB | growth for the streams MB | KB per stream | create → all streams received p50 / max ms | target |',
    '|---|---|---|---|---|---|',
    `| ${STREAMS.toLocaleString('en')} | ${idle.toFixed(0)} / ${withStreams.toFixed(0)} / ${after.toFixed(0)} | ${growth.toFixed(0)} | ${((growth * 1024) / STREAMS).toFixed(1)} | ${p50.toFixed(0)} / ${max.toFixed(0)} | growth < 200 MB, delivery < 1,000 ms: ${growth < 200 && max < 1_000 ? 'met' : 'missed'} |`,
    '',
    `Last run: ${new Date().toISOString().slice(0, 10)}.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (process.env.BENCH_LIVE_DOC !== '0') await writeDocSection('bench-live', lines.join('\n'));
  agent.destroy();
  await gateway.stop();
} finally {
  await db.drop();
}
