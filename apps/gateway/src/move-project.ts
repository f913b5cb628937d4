// Operator commands for projects on more than one Postgres cluster (docs/operations.md § More
// than one Postgres cluster), with the gateways' configuration (DATABASE_URL, DATABASE_URLS,
// REDIS_URL so every gateway hears of a move):
//
//   move-project <slug> <cluster>          copy the project's schema there and switch it over
//   move-project --clusters                the clusters with their state and project counts
//   move-project --set <cluster> open|draining [--pinned-only]
//
// (`make move-project SLUG=… CLUSTER=…`, `make clusters`.)
// First: stack traces of the compiled server through its source maps, read on first use.
import '@cms/telemetry/stack-traces';
import { loadConfig } from '@cms/config';
import { createDatabase } from '@cms/db';
import { createLogger } from '@cms/telemetry';
import { createBus, listClusters, moveProject, ProjectRegistry, setClusterState } from '@cms/tenancy';
import { applyMigrations } from './migrations.ts';

const USAGE = 'usage: move-project <slug> <cluster> | --clusters | --set <cluster> open|draining [--pinned-only]';

const config = loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'move-project' });
const args = process.argv.slice(2);
try {
  const db = await createDatabase(config, logger);
  const bus = createBus(config.redisUrl, logger, config.redisPrefix);
  try {
    // The clusters named in the configuration, registered and migrated as a gateway does at start.
    await applyMigrations(db, logger);
    if (args[0] === '--clusters') {
      for (const c of await listClusters(db.pool)) {
        console.log(`${c.name}\t${c.state}${c.pinnedOnly ? '\tpinned-only' : ''}\t${c.projects} projects${db.clusters.includes(c.name) ? '' : '\t(not configured here)'}`);
      }
    } else if (args[0] === '--set' && args[1] && (args[2] === 'open' || args[2] === 'draining')) {
      if (!(await setClusterState(db.pool, args[1], args[2], args.includes('--pinned-only')))) throw new Error(`no cluster "${args[1]}"`);
      console.log(`${args[1]}: ${args[2]}${args.includes('--pinned-only') ? ', pinned projects only' : ''}`);
    } else if (args.length === 2 && !args[0]!.startsWith('-')) {
      const registry = new ProjectRegistry(db.pool, bus);
      const report = await moveProject(db, (inv) => registry.invalidate(inv), args[0]!, args[1]!, {
        onPhase: (phase) => logger.info({ slug: args[0], phase }, phase === 'paused' ? 'writes paused: copying' : 'switched: dropping the old schema'),
      });
      logger.info(report, 'project moved');
      console.log(JSON.stringify(report));
    } else {
      console.error(USAGE);
      process.exitCode = 2;
    }
  } finally {
    await bus.close();
    await db.close();
  }
} catch (err) {
  logger.fatal({ err }, 'move-project failed');
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
