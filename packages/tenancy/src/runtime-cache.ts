// Per-project compiled runtime (normalised model, physical names, REST routes and the project's
// view of the read cache), built lazily on first use and kept in a bounded LRU keyed by project
// id and model version. A model change bumps the version; the invalidation drops the entry (and
// the project's compiled reads) on every instance and the next request rebuilds it.
// Bounded by count and by an estimate of the memory entries hold, so that a gateway can keep
// every warm project of a small model (about 10 KB each) without a project of a large model
// (hundreds of types) taking as many entries' room as the count allows.
import { LRUCache } from 'lru-cache';
import { compiledQuery, detached, type Db } from '@cms/db';
import { parseModel, type Model, type RawModel } from '@cms/schema';
import { physicalModel, type PhysicalModel } from '@cms/tables';
import type { ProjectReads, ReadCache } from '@cms/query';
import { HIT, instruments, MISS, traced } from '@cms/telemetry';
import type { ProjectRecord } from './project-record.ts';
import type { ProjectRegistry } from './registry.ts';
import { restRoutesOf, type RestRoute } from './rest-routes.ts';

export interface ProjectRuntime {
  projectId: number;
  schemaName: string;
  version: number;
  raw: RawModel;
  model: Model;
  physical: PhysicalModel;
  /** pluralApiId (collections) / singularApiId (single types) → content type. */
  readonly restRoutes: ReadonlyMap<string, RestRoute>;
  /** This model version's compiled reads (REST, GraphQL, media files, end users). */
  readonly reads: ProjectReads;
}

const EMPTY_MODEL: RawModel = { contentTypes: {}, components: {} };

/**
 * Estimated bytes a runtime holds: its parsed and physical model and routes take 8–10× the
 * stored model's JSON text (measured on the test fixtures' models), plus the entry itself.
 */
export function runtimeBytes(raw: RawModel): number {
  return 10 * JSON.stringify(raw).length + 2048;
}

/** Default memory bound of the runtime cache. */
export const RUNTIME_CACHE_BYTES = 128 * 1024 * 1024;

export class RuntimeCache {
  private readonly cache: LRUCache<number, ProjectRuntime>;
  private readonly building = new Map<string, Promise<ProjectRuntime>>();
  builds = 0;

  /** `reads`: the compiled reads of every project (one LRU, sized by READ_CACHE_SIZE in the gateway). */
  constructor(private readonly db: Db, registry: ProjectRegistry, max: number, readonly reads: ReadCache, maxBytes = RUNTIME_CACHE_BYTES) {
    this.cache = new LRUCache({ max, maxSize: maxBytes });
    registry.onInvalidate((inv) => {
      if (inv.projectId === undefined || inv.scope === 'project') return;
      this.cache.delete(inv.projectId);
      this.reads.dropProject(inv.projectId);
    });
  }

  async get(project: ProjectRecord): Promise<ProjectRuntime> {
    const hit = this.cache.get(project.id);
    if (hit && hit.version === project.modelVersion) {
      instruments.runtimeCache.add(1, HIT);
      return hit;
    }
    instruments.runtimeCache.add(1, MISS);
    const key = `${project.id}:${project.modelVersion}`;
    let pending = this.building.get(key);
    if (!pending) {
      // Shared by every request waiting for it: none of their scopes (share, timeout, cancel) applies.
      pending = detached(() => traced('runtime.build', () => this.build(project), { 'project.id': project.id })).finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.cache.size;
  }

  /** Estimated bytes the cached runtimes hold (runtimeBytes summed). */
  get bytes(): number {
    return this.cache.calculatedSize;
  }

  private async build(project: ProjectRecord): Promise<ProjectRuntime> {
    const raw = project.modelVersion === 0
      ? EMPTY_MODEL
      : ((await this.db.oneFirst(compiledQuery({
          text: 'SELECT model FROM platform.schema_versions WHERE project_id = $1 AND version = $2',
          values: [project.id, project.modelVersion],
        }))) as RawModel);
    const model = parseModel(raw);
    const runtime: ProjectRuntime = {
      projectId: project.id,
      schemaName: project.schemaName,
      version: project.modelVersion,
      raw,
      model,
      physical: physicalModel(model),
      restRoutes: restRoutesOf(model),
      reads: this.reads.project(project.id, project.modelVersion),
    };
    this.builds++;
    instruments.runtimeBuilds.add(1);
    const previous = this.cache.peek(project.id);
    // A build begun before a newer version was built here: it answers its own requests only.
    if (previous && previous.version > project.modelVersion) return runtime;
    // A version this instance learnt of without an invalidation: the older reads are dead.
    if (previous && previous.version !== project.modelVersion) this.reads.dropProject(project.id);
    this.cache.set(project.id, runtime, { size: Math.min(runtimeBytes(raw), this.cache.maxSize) });
    return runtime;
  }
}
