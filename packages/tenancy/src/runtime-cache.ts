// Per-project compiled runtime (normalised model, physical names, and whatever the API layers
// compile from them), built lazily on first use and kept in a bounded LRU keyed by project id
// and model version. A model change bumps the version; the invalidation drops the entry on
// every instance and the next request rebuilds it.
import { LRUCache } from 'lru-cache';
import { compiledQuery, type Db } from '@cms/db';
import { parseModel, type Model, type RawModel } from '@cms/schema';
import { physicalModel, type PhysicalModel } from '@cms/ddl';
import type { ProjectRecord } from './project-record.ts';
import type { ProjectRegistry } from './registry.ts';

export interface ProjectRuntime {
  projectId: number;
  schemaName: string;
  version: number;
  raw: RawModel;
  model: Model;
  physical: PhysicalModel;
  /** Artefacts the API layers compile from this model version (SQL plans, GraphQL schema…). */
  readonly artefacts: Map<string, unknown>;
}

const EMPTY_MODEL: RawModel = { contentTypes: {}, components: {} };

export class RuntimeCache {
  private readonly cache: LRUCache<number, ProjectRuntime>;
  private readonly building = new Map<string, Promise<ProjectRuntime>>();
  builds = 0;

  constructor(private readonly db: Db, registry: ProjectRegistry, max: number) {
    this.cache = new LRUCache({ max });
    registry.onInvalidate((inv) => {
      if (inv.projectId !== undefined && inv.scope !== 'project') this.cache.delete(inv.projectId);
    });
  }

  async get(project: ProjectRecord): Promise<ProjectRuntime> {
    const hit = this.cache.get(project.id);
    if (hit && hit.version === project.modelVersion) return hit;
    const key = `${project.id}:${project.modelVersion}`;
    let pending = this.building.get(key);
    if (!pending) {
      pending = this.build(project).finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.cache.size;
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
      artefacts: new Map(),
    };
    this.builds++;
    this.cache.set(project.id, runtime);
    return runtime;
  }
}
