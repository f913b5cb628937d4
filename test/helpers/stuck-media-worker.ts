// A media worker that takes a job and never finishes it: a stand-in for a worker process that
// dies mid-job (the test kills it with SIGKILL once it prints the job it holds). It uses the same
// queue, prefix and lock settings as apps/worker, from the same environment variables.
import { loadConfig } from '@cms/config';
import { bullPrefix, startMediaWorker } from '@cms/media';
import { silentLogger } from '@cms/telemetry';

const config = loadConfig();
startMediaWorker(
  async (job) => {
    process.stdout.write(`holding ${job.fileId}\n`);
    await new Promise(() => {});
  },
  { redisUrl: config.redisUrl!, prefix: bullPrefix(config), lockDurationMs: config.media.jobLockMs, stalledIntervalMs: config.media.jobLockMs, concurrency: 1 },
  silentLogger(),
);
process.stdout.write('ready\n');
