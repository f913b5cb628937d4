// The database migrations every deployment needs before it serves: the control schema's, then
// each project schema's base tables up to the newest version. Both take per-schema advisory
// locks, so gateways starting together and the `migrate` command can run them at the same time.
import { CONTROL_SCHEMA, controlMigrations, runMigrations, type Database } from '@cms/db';
import type { Logger } from '@cms/telemetry';
import { prepareClusters, upgradeProjectSchemas } from '@cms/tenancy';

export interface MigrationsApplied {
  /** Control-schema migrations applied now (ids). */
  control: string[];
  /** Project schemas brought to the newest base tables. */
  projects: number;
}

/** Also registers the configured clusters and migrates each other cluster's own `platform` schema. */
export async function applyMigrations(db: Database, logger: Logger): Promise<MigrationsApplied> {
  const pool = db.pool;
  const control = await runMigrations(pool, CONTROL_SCHEMA, controlMigrations);
  if (control.length) logger.info({ applied: control }, 'control schema migrated');
  const clusters = await prepareClusters(db);
  if (Object.keys(clusters).length) logger.info({ applied: clusters }, 'cluster schemas migrated');
  const projects = await upgradeProjectSchemas(pool, db);
  if (projects) logger.info({ upgraded: projects }, 'project schemas upgraded to the newest base tables');
  return { control, projects };
}
