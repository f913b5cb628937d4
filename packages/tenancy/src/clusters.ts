// Projects on more than one Postgres cluster: which pool holds a project's schema, where a new
// project goes, and the transactions that span the control plane and a project's cluster.
//
// The control plane (`platform` on cluster `main`, DATABASE_URL) stays on one cluster; a
// project's schema `t_{id}` lives on the cluster named by `platform.projects.cluster`. Each other
// cluster has a small `platform` schema of its own (@cms/db cluster-migrations.ts) with what a
// project's transactions touch next to its content, kept by `ClusterMirror` below.
import { CONTROL_CLUSTER } from '@cms/config';
import { clusterMigrations, column, exec, rows, runMigrations, CONTROL_SCHEMA, type Db, type DbTransaction } from '@cms/db';
import type { DatabasePool } from 'slonik';

/** The pools of every cluster this process knows (@cms/db `Database` is one). */
export interface ClusterPools {
  /** The control plane's pool. */
  readonly pool: DatabasePool;
  /** Every configured cluster's name, `main` first. */
  readonly clusters: readonly string[];
  poolOf(name: string): DatabasePool;
}

/** One cluster: every project on `pool` (tests, tools that build a service on a bare pool). */
export function singleCluster(pool: DatabasePool): ClusterPools {
  return { pool, clusters: [CONTROL_CLUSTER], poolOf: () => pool };
}

/** Where a project lives (`cluster` is missing on records loaded before the column existed). */
export interface ClusterPlaced {
  cluster?: string;
}

export function clusterOf(project: ClusterPlaced): string {
  return project.cluster ?? CONTROL_CLUSTER;
}

/** The pool holding the project's schema. */
export function projectPool(pools: ClusterPools, project: ClusterPlaced): DatabasePool {
  const name = clusterOf(project);
  return name === CONTROL_CLUSTER ? pools.pool : pools.poolOf(name);
}

/**
 * For background work (jobs carry a project id): the pool of that project's cluster, read from
 * the control plane at each call. Undefined with one cluster (every project on `pool`).
 */
export function poolOfProjectId(pools: ClusterPools): ((projectId: number) => Promise<DatabasePool>) | undefined {
  if (pools.clusters.length === 1) return undefined;
  return async (projectId) => {
    const [cluster] = await column(pools.pool, 'SELECT cluster FROM platform.projects WHERE id = $1', [projectId]);
    return cluster === undefined || cluster === CONTROL_CLUSTER ? pools.pool : pools.poolOf(cluster);
  };
}

/**
 * Run `fn` with a transaction on the control plane and one on the project's cluster: the same
 * transaction when the project is on `main`. Otherwise the project's commits first, then the
 * control plane's; a failure before that rolls both back. (A crash between the two commits
 * leaves the project's tables ahead of the control plane's record: repeat the change.)
 */
export async function projectTransaction<T>(pools: ClusterPools, project: ClusterPlaced, fn: (control: DbTransaction, tenant: DbTransaction) => Promise<T>): Promise<T> {
  const name = clusterOf(project);
  if (name === CONTROL_CLUSTER) return pools.pool.transaction((tx) => fn(tx, tx));
  const tenantPool = pools.poolOf(name);
  return pools.pool.transaction((control) => tenantPool.transaction((tenant) => fn(control, tenant)));
}

/**
 * Register the configured clusters in the control plane and bring each other cluster's own
 * `platform` schema up to date. Returns the migrations applied, by cluster.
 */
export async function prepareClusters(pools: ClusterPools): Promise<Record<string, string[]>> {
  const applied: Record<string, string[]> = {};
  await exec(pools.pool, 'INSERT INTO platform.clusters (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING', [pools.clusters]);
  for (const name of pools.clusters) {
    if (name === CONTROL_CLUSTER) continue;
    const done = await runMigrations(pools.poolOf(name), CONTROL_SCHEMA, clusterMigrations);
    if (done.length) applied[name] = done;
  }
  return applied;
}

/** Clusters `c` that take new projects: open, not pinned-only, and reachable from this process (`$1`: its cluster names). */
const PLACEABLE = "c.state = 'open' AND NOT c.pinned_only AND c.name = ANY($1::text[])";

/**
 * The cluster a new project goes to: of the open clusters this process can reach that take
 * unpinned projects, the one with the fewest projects (ties: by name, `main` first).
 */
export async function placeProject(pools: ClusterPools, db: Db = pools.pool): Promise<string> {
  if (pools.clusters.length === 1) return CONTROL_CLUSTER;
  const [name] = await column(db,
    `SELECT c.name FROM platform.clusters c
       LEFT JOIN (SELECT cluster, count(*) AS n FROM platform.projects GROUP BY cluster) p ON p.cluster = c.name
     WHERE ${PLACEABLE}
     ORDER BY COALESCE(p.n, 0), c.name <> $2, c.name LIMIT 1`, [pools.clusters, CONTROL_CLUSTER]);
  return (name as string | undefined) ?? CONTROL_CLUSTER;
}

/** The clusters `placeProject` chooses from (spare schemas are kept on each). */
export async function placementClusters(pools: ClusterPools): Promise<string[]> {
  if (pools.clusters.length === 1) return [CONTROL_CLUSTER];
  return column(pools.pool, `SELECT c.name FROM platform.clusters c WHERE ${PLACEABLE} ORDER BY c.name`, [pools.clusters]);
}

export interface ClusterRow {
  name: string;
  state: 'open' | 'draining';
  pinnedOnly: boolean;
  projects: number;
}

/** Every registered cluster with its project count (operator command). */
export async function listClusters(db: Db): Promise<ClusterRow[]> {
  return rows<ClusterRow>(db,
    `SELECT c.name, c.state, c.pinned_only AS "pinnedOnly", (SELECT count(*) FROM platform.projects p WHERE p.cluster = c.name)::int AS projects
     FROM platform.clusters c ORDER BY c.name <> 'main', c.name`);
}

/** Set a cluster's placement state (operator command): `draining` and `pinnedOnly` clusters receive no new project. */
export async function setClusterState(db: Db, name: string, state: 'open' | 'draining', pinnedOnly: boolean): Promise<boolean> {
  return (await rows(db, 'UPDATE platform.clusters SET state = $2, pinned_only = $3 WHERE name = $1 RETURNING name', [name, state, pinnedOnly])).length > 0;
}

// The control rows a project's cluster keeps a copy of: its own row (id, schema), its roles
// (a user's populated `role`) and its webhooks (what an outbox write fans out to, and what the
// relay sends). Keyed by id; upserted, so deliveries referencing them are kept.
const MIRRORED = [
  { table: 'projects', where: 'id = $1', columns: ['id', 'schema_name', 'parent_id'] },
  { table: 'roles', where: 'project_id = $1', columns: ['id', 'project_id', 'type', 'name', 'description', 'permissions', 'created_at', 'updated_at'] },
  { table: 'webhooks', where: 'project_id = $1', columns: ['id', 'project_id', 'name', 'url', 'events', 'headers', 'enabled', 'secret_box', 'created_at', 'updated_at'] },
] as const;

/** Keeps the copies of control rows on the cluster of each project that is not on `main`. */
export class ClusterMirror {
  constructor(private readonly pools: ClusterPools) {}

  /**
   * Copy project `projectId`'s rows to the cluster it is on (nothing for `main`, or a project
   * gone: its copies go with its schema, see `forget`). Called before a change's invalidation
   * is published, so the copy is current once any instance reloads the project.
   */
  async sync(projectId: number): Promise<void> {
    const [cluster] = await column(this.pools.pool, 'SELECT cluster FROM platform.projects WHERE id = $1', [projectId]);
    if (cluster === undefined || cluster === CONTROL_CLUSTER) return;
    await this.pools.poolOf(cluster).transaction((tx) => copyControlRows(this.pools.pool, tx, projectId));
  }

  /** Remove the project's copies (and with them its outbox and quota rows) from `target`. */
  async forget(target: Db, projectId: number): Promise<void> {
    await exec(target, 'DELETE FROM platform.projects WHERE id = $1', [projectId]);
  }
}

/** Copy project `projectId`'s control rows read in `source` to `target` (a transaction on its cluster). */
export async function copyControlRows(source: Db, target: Db, projectId: number): Promise<void> {
  const json: Record<string, string> = {};
  for (const m of MIRRORED) {
    const [rowsJson] = await column(source, `SELECT COALESCE(json_agg(t), '[]')::text FROM platform.${m.table} t WHERE ${m.where}`, [projectId]);
    json[m.table] = rowsJson!;
  }
  // Rows gone first (a role deleted and made again keeps its type under a new id), children first.
  for (const m of [...MIRRORED].reverse()) {
    await exec(target,
      `DELETE FROM platform.${m.table} WHERE ${m.where} AND NOT (id = ANY(SELECT (e->>'id')::bigint FROM json_array_elements($2::json) e))`,
      [projectId, json[m.table]]);
  }
  for (const m of MIRRORED) {
    const cols = m.columns.join(', ');
    const updates = m.columns.filter((c) => c !== 'id').map((c) => `${c} = EXCLUDED.${c}`).join(', ');
    await exec(target,
      `INSERT INTO platform.${m.table} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::platform.${m.table}, $1::json)
       ON CONFLICT (id) DO UPDATE SET ${updates}`, [json[m.table]]);
  }
}
