// `migrate` (`node dist/migrate.js`, the image's `migrate` command): apply the control schema's
// and every project's base migrations, then exit — run once before a rollout (a Kubernetes Job)
// so gateways start on a migrated database. Gateways also apply them at start; both are safe
// to run concurrently.
// First: stack traces of the compiled server through its source maps, read on first use.
import '@cms/telemetry/stack-traces';
import { loadConfig } from '@cms/config';
import { createDatabase } from '@cms/db';
import { createLogger } from '@cms/telemetry';
import { applyMigrations } from './migrations.ts';

const config = loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'migrate' });
try {
  const db = await createDatabase(config, logger);
  try {
    const applied = await applyMigrations(db, logger);
    logger.info({ control: applied.control.length, projects: applied.projects }, 'migrations done');
  } finally {
    await db.close();
  }
} catch (err) {
  logger.fatal({ err }, 'migrations failed');
  process.exitCode = 1;
}
