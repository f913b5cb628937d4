// The projects' GraphQL servers (servers.ts), built on a project's first GraphQL request and kept
// in a bounded LRU keyed by project, model version and limits. A model change bumps the version,
// so the next request builds a new server; the old one ages out.
import { LRUCache } from 'lru-cache';
import type { Model } from '@cms/schema';
import type { ProjectGraphql } from './servers.ts';
import type { GraphqlSettings } from './settings.ts';

/**
 * servers.ts and what it imports (graphql-js, mercurius, graphql-jit) load with the first build,
 * not with the gateway: many gateways serve no GraphQL, or only later, and they hold about 10 MB.
 */
const loadServers = () => import('./servers.ts');

/** Bounded cache of project servers; concurrent first requests share one build. */
export class GraphqlServers {
  private readonly cache: LRUCache<string, Promise<ProjectGraphql>>;
  builds = 0;

  constructor(max: number) {
    this.cache = new LRUCache({
      max,
      dispose: (server) => {
        void server.then((s) => s.close(), () => undefined);
      },
    });
  }

  get(projectId: number, version: number, model: Model, settings: GraphqlSettings): Promise<ProjectGraphql> {
    const key = `${projectId}:${version}:${settings.depthLimit}:${settings.costLimit}:${settings.introspection}`;
    let server = this.cache.get(key);
    if (!server) {
      this.builds++;
      server = loadServers().then(({ buildProjectGraphql }) => buildProjectGraphql(model, settings));
      // A failed build is not cached: the next request tries again.
      server.catch(() => this.cache.delete(key));
      this.cache.set(key, server);
    }
    return server;
  }

  get size(): number {
    return this.cache.size;
  }

  clear(): void {
    this.cache.clear();
  }
}

/**
 * checkGraphqlNames (check-names.ts) for the schema pushes: it builds the model's schema with
 * graphql-js, loaded at the first push rather than with the gateway (see loadServers).
 */
export async function checkGraphqlNamesLazily(model: Model): Promise<void> {
  const { checkGraphqlNames } = await import('./check-names.ts');
  checkGraphqlNames(model);
}
