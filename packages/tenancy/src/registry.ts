// slug → project (with its locales), cached in memory per instance and dropped on an
// invalidation message from any instance. Unknown slugs are cached briefly so probing
// random hosts does not turn into one query per request.
import { compiledQuery, detached, type Db } from '@cms/db';
import { PROJECT_COLUMNS, type ProjectRecord } from './project-record.ts';
import type { Bus } from './bus.ts';
import { traced } from '@cms/telemetry';

export interface LocaleRecord {
  code: string;
  name: string;
  isDefault: boolean;
  createdAt: string;
}

/** Role type → `{uid: [action]}` as stored in platform.roles. */
export type RolePermissions = Record<string, Record<string, string[]>>;

export interface TenantEntry {
  project: ProjectRecord;
  locales: LocaleRecord[];
  roles: RolePermissions;
  /** Fast membership test for `locale` parameters. */
  localeCodes: ReadonlySet<string>;
  /**
   * The project's change stamp read just before this entry was loaded (`useStamps`; undefined
   * without them): an entry whose stamp is not the current one may predate a change.
   */
  stamp?: string | null;
}

export interface Invalidation {
  projectId?: number;
  slug?: string;
  /**
   * What changed; 'model' also drops compiled runtimes. 'all': every project may have changed
   * (an instance could not announce its changes while the bus was down).
   */
  scope: 'project' | 'model' | 'deleted' | 'all';
}

export const INVALIDATION_CHANNEL = 'invalidate';
const NEGATIVE_TTL_MS = 2_000;
/**
 * While the bus is down, changes made on other instances cannot reach this one: a cached
 * project is trusted this long, then read again (with what hangs off it: tokens, webhooks).
 */
const UNANNOUNCED_TTL_MS = 1_000;

export class ProjectRegistry {
  private readonly bySlug = new Map<string, TenantEntry>();
  private readonly missing = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<TenantEntry | null>>();
  private readonly listeners: ((inv: Invalidation) => void)[] = [];
  private readonly beforePublish: ((inv: Invalidation) => Promise<void>)[] = [];
  /** When each cached entry was read (trusted only briefly while the bus is down). */
  private readonly loadedAt = new WeakMap<TenantEntry, number>();
  /** A change of this instance could not be announced: every instance is told on reconnect. */
  private unannounced = false;
  /**
   * Bumped by every drop; with when each slug / project id (or everything) was last dropped, so a
   * load that read the project before a drop does not cache what it read: its answer may predate
   * the change the drop announced (it would be served until the next change).
   */
  private epoch = 0;
  private readonly droppedAt = new Map<string | number, number>();
  private everythingDroppedAt = 0;

  /** Reads a project's change stamp by slug (set by every change, before its invalidation is published). */
  private stamps: ((slug: string) => Promise<string | null>) | null = null;

  constructor(private readonly db: Db, private readonly bus: Bus) {}

  /**
   * Stamp every loaded entry with the project's change stamp read before the load: a request can
   * then tell, before the invalidation message reaches this instance, that its copy is older than
   * a change already answered elsewhere (@cms/delivery versions).
   */
  useStamps(read: (slug: string) => Promise<string | null>): void {
    this.stamps = read;
  }

  async start(): Promise<void> {
    // Back from an outage: what was said meanwhile was missed, and what this instance could not
    // say is said now, as "everything may have changed".
    this.bus.onReconnect(() => {
      this.drop({ scope: 'all' });
      if (this.unannounced) void this.announce({ scope: 'all' });
    });
    await this.bus.subscribe(INVALIDATION_CHANNEL, (message) => {
      try {
        this.drop(JSON.parse(message) as Invalidation);
      } catch {
        /* a malformed message is ignored: it came from our own channel */
      }
    });
  }

  /** Called by listeners that hold per-project state (runtime cache). */
  onInvalidate(listener: (inv: Invalidation) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Called on the instance making a change, before its invalidation is published (the copies of
   * control rows a project's cluster keeps, see clusters.ts `ClusterMirror`).
   */
  onChange(hook: (inv: Invalidation) => Promise<void>): void {
    this.beforePublish.push(hook);
  }

  /**
   * Calls `then` with what `resolve` answers: synchronously when the answer is in memory (no
   * promise: per-request hooks), else once the project is loaded (`failed` if that fails).
   */
  resolveThen(slug: string, then: (entry: TenantEntry | null) => void, failed: (err: Error) => void): void {
    const known = this.cached(slug);
    if (known !== undefined) then(known);
    else this.resolve(slug).then(then, failed);
  }

  /**
   * What `resolve` would answer without loading anything: the project's entry, or null for a slug
   * known not to exist; undefined when it must be loaded.
   */
  private cached(slug: string): TenantEntry | null | undefined {
    const hit = this.bySlug.get(slug);
    if (hit) {
      if (this.bus.connected || Date.now() - (this.loadedAt.get(hit) ?? 0) < UNANNOUNCED_TTL_MS) return hit;
      this.drop({ projectId: hit.project.id, slug, scope: 'project' });
    }
    const missUntil = this.missing.get(slug);
    if (missUntil !== undefined && missUntil > Date.now()) return null;
    return undefined;
  }

  async resolve(slug: string): Promise<TenantEntry | null> {
    const known = this.cached(slug);
    if (known !== undefined) return known;
    let pending = this.inflight.get(slug);
    if (!pending) {
      // Loaded from the control plane (cached hits need no span), for every request waiting for it:
      // outside the scope of the one that asked first.
      const loading: Promise<TenantEntry | null> = detached(() => traced('tenant.resolve', () => this.load(slug), { 'project.slug': slug }))
        .finally(() => {
          if (this.inflight.get(slug) === loading) this.inflight.delete(slug);
        });
      pending = loading;
      this.inflight.set(slug, pending);
    }
    return pending;
  }

  /** Drop local state now and tell every other instance. */
  async invalidate(inv: Invalidation): Promise<void> {
    for (const hook of this.beforePublish) await hook(inv);
    this.drop(inv);
    await this.announce(inv);
  }

  /**
   * Tell the other instances. The change is committed whatever happens here: a bus that is down
   * fails no request; the others read projects again meanwhile and drop everything on reconnect.
   */
  private async announce(inv: Invalidation): Promise<void> {
    try {
      await this.bus.publish(INVALIDATION_CHANNEL, JSON.stringify(inv));
      if (inv.scope === 'all') this.unannounced = false;
    } catch {
      this.unannounced = true;
    }
  }

  /**
   * Forget this instance's copy of a project, model included, without telling the others: a
   * request found it stale (the change's invalidation is still on its way) and reloads it.
   */
  refresh(projectId: number): void {
    this.drop({ projectId, scope: 'model' });
  }

  /**
   * Forget this instance's copy of a project, keeping its compiled model (the fresh copy names its
   * model version: a newer one is compiled then): its stamp says another instance changed it.
   */
  reload(projectId: number): void {
    this.drop({ projectId, scope: 'project' });
  }

  private drop(inv: Invalidation): void {
    const epoch = ++this.epoch;
    if (inv.scope === 'all' || this.droppedAt.size > 10_000) {
      this.everythingDroppedAt = epoch;
      this.droppedAt.clear();
    }
    if (inv.scope === 'all') {
      this.bySlug.clear();
      this.missing.clear();
    }
    if (inv.slug) {
      this.bySlug.delete(inv.slug);
      this.missing.delete(inv.slug);
      this.droppedAt.set(inv.slug, epoch);
    }
    if (inv.projectId !== undefined) {
      for (const [slug, entry] of this.bySlug) if (entry.project.id === inv.projectId) this.bySlug.delete(slug);
      this.droppedAt.set(inv.projectId, epoch);
    }
    // Requests from now on wait for a load that starts after the drop, not one begun before it
    // (a project id alone does not say which slug's load it is: every load starts again).
    if (inv.slug && inv.scope !== 'all') this.inflight.delete(inv.slug);
    else this.inflight.clear();
    for (const l of this.listeners) l(inv);
  }

  /** Whether the project was dropped since `epoch` (its load then may have read it before the change). */
  private droppedSince(epoch: number, slug: string, projectId?: number): boolean {
    if (this.everythingDroppedAt > epoch) return true;
    if ((this.droppedAt.get(slug) ?? 0) > epoch) return true;
    return projectId !== undefined && (this.droppedAt.get(projectId) ?? 0) > epoch;
  }

  private async load(slug: string): Promise<TenantEntry | null> {
    const epoch = this.epoch;
    // Before the project is read: a change recorded after this read leaves the entry stamped older.
    const stamp = this.stamps ? await this.stamps(slug).catch(() => undefined) : undefined;
    const row = (await this.db.maybeOne(compiledQuery({
      text: `SELECT ${PROJECT_COLUMNS},
        COALESCE((SELECT json_agg(json_build_object('code', l.code, 'name', l.name, 'isDefault', l.is_default,
          'createdAt', to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY l.created_at, l.code)
          FROM platform.locales l WHERE l.project_id = p.id), '[]') AS locales,
        COALESCE((SELECT json_object_agg(r.type, r.permissions) FROM platform.roles r WHERE r.project_id = p.id), '{}') AS roles
        FROM platform.projects p WHERE slug = $1 AND deleted_at IS NULL`,
      values: [slug],
    }))) as (ProjectRecord & { locales: LocaleRecord[]; roles: RolePermissions }) | null;
    if (!row) {
      if (this.droppedSince(epoch, slug)) return null;
      this.missing.set(slug, Date.now() + NEGATIVE_TTL_MS);
      if (this.missing.size > 10_000) this.missing.clear();
      return null;
    }
    const { locales, roles, ...project } = row;
    const entry: TenantEntry = { project, locales, roles, localeCodes: new Set(locales.map((l) => l.code)), ...(stamp !== undefined ? { stamp } : {}) };
    if (this.droppedSince(epoch, slug, project.id)) return entry; // answers its own requests, not cached
    this.bySlug.set(slug, entry);
    this.loadedAt.set(entry, Date.now());
    return entry;
  }
}
