// Project schemas built ahead of need. A new project's schema is its base tables, indexes and
// functions (@cms/ddl base-migrations.ts): two dozen statements whose index builds each wait for
// a disk flush (Postgres 15 syncs every new btree to disk before its statement ends) — most of a
// project creation's time, and all of its variance on a busy disk. Each cluster keeps a few such
// schemas ready, named `spare_v{base version}_{random}`: creating a project renames one to its
// own name in the creating transaction (a catalog update) and defines the schema's functions
// again (their bodies name the schema), and a background refill builds the next. With none
// ready, the schema is built in the creating transaction as before. A spare is one transaction's
// work, so it is whole or absent; claims take turns per spare under an advisory lock, and a
// rolled-back creation leaves its spare where it was.
import { randomBytes } from 'node:crypto';
import { compiledQuery, quoteIdent, quoteLiteral, runMigrationsIn, type DbTransaction } from '@cms/db';
import { baseFunctionsFor, baseMigrations, baseMigrationsFor } from '@cms/ddl';
import type { Logger } from '@cms/telemetry';
import { CONTROL_CLUSTER } from '@cms/config';
import { placementClusters, type ClusterPools } from './clusters.ts';

/** Spares of this code's base migrations: older ones are dropped, newer ones (a newer release's) left alone. */
const VERSION = baseMigrations.length;
const PREFIX = `spare_v${VERSION}_`;
const SPARE_NAME = /^spare_v(\d+)_[0-9a-f]+$/;
/** Advisory lock keys: (LOCK, hashtext(spare)) for a claim, (LOCK, 0) for a cluster's refill. */
const LOCK = "hashtext('cms_spare_schemas')";
/** How often a cluster's spares are checked besides after each claim (a failed build, another instance's claims). */
const RECHECK_MS = 60_000;

export interface SpareSchemaOptions {
  /** SPARE_SCHEMAS: spares kept per cluster that takes new projects; 0 turns spares off. */
  target: number;
  logger: Logger;
}

export class SpareSchemas {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly pools: ClusterPools, private readonly options: SpareSchemaOptions) {}

  get enabled(): boolean {
    return this.options.target > 0 && !this.closed;
  }

  /** Fill every cluster that takes new projects now, and check them again every minute. */
  start(): void {
    if (!this.enabled) return;
    const fillAll = () => void placementClusters(this.pools).then(
      (clusters) => clusters.forEach((cluster) => this.refill(cluster)),
      (err) => this.options.logger.warn({ err }, 'could not list the clusters to keep spare project schemas on'),
    );
    fillAll();
    this.timer = setInterval(fillAll, RECHECK_MS);
    this.timer.unref();
  }

  /**
   * Rename a ready spare of the tenant's cluster to `schema` inside the creating transaction
   * `tenant` and define its functions for the new name. False when none is ready (build it).
   */
  async claim(tenant: DbTransaction, schema: string): Promise<boolean> {
    if (!this.enabled) return false;
    // The name is searched through pg_namespace's name index (a `name` compares in C order, so a
    // LIKE prefix is a range). The list is read in this statement's snapshot, taken before the
    // locks: a spare another claim renamed, committed and unlocked meanwhile is still listed, and
    // its rename fails (the catalog is read afresh) — that one is skipped for the next.
    await tenant.query(compiledQuery({
      text: `DO $claim$ DECLARE s name; BEGIN
        FOR s IN SELECT nspname FROM pg_namespace WHERE nspname LIKE '${PREFIX.replace(/_/g, '\\_')}%' ORDER BY nspname LIMIT 16 LOOP
          IF pg_try_advisory_xact_lock(${LOCK}, hashtext(s)) THEN
            BEGIN
              EXECUTE format('ALTER SCHEMA %I RENAME TO %I', s, ${quoteLiteral(schema)});
              RETURN;
            EXCEPTION WHEN invalid_schema_name THEN NULL;
            END;
          END IF;
        END LOOP;
      END $claim$`,
      values: [],
    }));
    const claimed = (await tenant.oneFirst(compiledQuery({
      text: 'SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = $1)', values: [schema],
    }))) as boolean;
    if (!claimed) return false;
    // Not compiled now (each compiled copy stays in this backend: see doc-counts.ts).
    await tenant.query(compiledQuery({ text: "SELECT set_config('check_function_bodies', 'off', true)", values: [] }));
    for (const statement of baseFunctionsFor(schema)) await tenant.query(compiledQuery({ text: statement, values: [] }));
    return true;
  }

  /** Build spares on `cluster` until it has its target (in the background; one build at a time per cluster). */
  refill(cluster: string = CONTROL_CLUSTER): void {
    if (!this.enabled) return;
    if (this.running.has(cluster)) {
      this.again.add(cluster);
      return;
    }
    const run = this.fill(cluster)
      .catch((err) => this.options.logger.warn({ err, cluster }, 'could not build a spare project schema'))
      .finally(() => {
        this.running.delete(cluster);
        if (this.again.delete(cluster)) this.refill(cluster);
      });
    this.running.set(cluster, run);
  }

  /** Stop refilling; resolves when the build in progress has ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  private async fill(cluster: string): Promise<void> {
    const pool = this.pools.poolOf(cluster);
    // Each spare is a transaction of its own, under the cluster's refill lock: instances refill
    // one at a time (one that finds the lock taken leaves it to the holder, which counts again).
    while (!this.closed) {
      const built = await pool.transaction(async (tx) => {
        const locked = (await tx.oneFirst(compiledQuery({ text: `SELECT pg_try_advisory_xact_lock(${LOCK}, 0)`, values: [] }))) as boolean;
        if (!locked) return false;
        const names = (await tx.anyFirst(compiledQuery({
          text: "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'spare\\_v%'", values: [],
        }))) as string[];
        let ready = 0;
        for (const name of names) {
          const version = Number(SPARE_NAME.exec(name)?.[1] ?? NaN);
          if (version === VERSION) ready++;
          else if (version < VERSION) await dropUnclaimed(tx, name);
        }
        if (ready >= this.options.target) return false;
        const name = `${PREFIX}${randomBytes(6).toString('hex')}`;
        await runMigrationsIn(tx, name, baseMigrationsFor(name));
        return true;
      });
      if (!built) return;
    }
  }
}

/** Drop an older release's spare unless one of its instances is claiming it right now (its claim lock). */
async function dropUnclaimed(tx: DbTransaction, name: string): Promise<void> {
  // The lock first, the drop in a later statement: a claim that committed before the lock was
  // granted has renamed it (IF EXISTS).
  const free = (await tx.oneFirst(compiledQuery({ text: `SELECT pg_try_advisory_xact_lock(${LOCK}, hashtext($1))`, values: [name] }))) as boolean;
  if (free) await tx.query(compiledQuery({ text: `DROP SCHEMA IF EXISTS ${quoteIdent(name)} CASCADE`, values: [] }));
}
