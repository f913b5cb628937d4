// slug → project (with its locales), cached in memory per instance and dropped on an
// invalidation message from any instance. Unknown slugs are cached briefly so probing
// random hosts does not turn into one query per request.
import { compiledQuery, type Db } from '@cms/db';
import { PROJECT_COLUMNS, type ProjectRecord } from './project-record.ts';
import type { Bus } from './bus.ts';

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
}

export interface Invalidation {
  projectId?: number;
  slug?: string;
  /** What changed; 'model' also drops compiled runtimes. */
  scope: 'project' | 'model' | 'deleted';
}

export const INVALIDATION_CHANNEL = 'invalidate';
const NEGATIVE_TTL_MS = 2_000;

export class ProjectRegistry {
  private readonly bySlug = new Map<string, TenantEntry>();
  private readonly missing = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<TenantEntry | null>>();
  private readonly listeners: ((inv: Invalidation) => void)[] = [];

  constructor(private readonly db: Db, private readonly bus: Bus) {}

  async start(): Promise<void> {
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

  async resolve(slug: string): Promise<TenantEntry | null> {
    const hit = this.bySlug.get(slug);
    if (hit) return hit;
    const missUntil = this.missing.get(slug);
    if (missUntil !== undefined && missUntil > Date.now()) return null;
    let pending = this.inflight.get(slug);
    if (!pending) {
      pending = this.load(slug).finally(() => this.inflight.delete(slug));
      this.inflight.set(slug, pending);
    }
    return pending;
  }

  /** Drop local state now and tell every other instance. */
  async invalidate(inv: Invalidation): Promise<void> {
    this.drop(inv);
    await this.bus.publish(INVALIDATION_CHANNEL, JSON.stringify(inv));
  }

  /**
   * Forget this instance's copy of a project, model included, without telling the others: a
   * request found it stale (the change's invalidation is still on its way) and reloads it.
   */
  refresh(projectId: number): void {
    this.drop({ projectId, scope: 'model' });
  }

  private drop(inv: Invalidation): void {
    if (inv.slug) {
      this.bySlug.delete(inv.slug);
      this.missing.delete(inv.slug);
    }
    if (inv.projectId !== undefined) {
      for (const [slug, entry] of this.bySlug) if (entry.project.id === inv.projectId) this.bySlug.delete(slug);
    }
    for (const l of this.listeners) l(inv);
  }

  private async load(slug: string): Promise<TenantEntry | null> {
    const row = (await this.db.maybeOne(compiledQuery({
      text: `SELECT ${PROJECT_COLUMNS},
        COALESCE((SELECT json_agg(json_build_object('code', l.code, 'name', l.name, 'isDefault', l.is_default,
          'createdAt', to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY l.created_at, l.code)
          FROM platform.locales l WHERE l.project_id = p.id), '[]') AS locales,
        COALESCE((SELECT json_object_agg(r.type, r.permissions) FROM platform.roles r WHERE r.project_id = p.id), '{}') AS roles
        FROM platform.projects p WHERE slug = $1`,
      values: [slug],
    }))) as (ProjectRecord & { locales: LocaleRecord[]; roles: RolePermissions }) | null;
    if (!row) {
      this.missing.set(slug, Date.now() + NEGATIVE_TTL_MS);
      if (this.missing.size > 10_000) this.missing.clear();
      return null;
    }
    const { locales, roles, ...project } = row;
    const entry: TenantEntry = { project, locales, roles, localeCodes: new Set(locales.map((l) => l.code)) };
    this.bySlug.set(slug, entry);
    return entry;
  }
}
