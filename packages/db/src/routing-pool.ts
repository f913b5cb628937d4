// The pool of the project whose request is being served: each call goes to the pool of the
// cluster its request's scope names (request-scope.ts) — or, for a management request about one
// project, the cluster `onCluster` names — and otherwise to the control plane's. Tenant code that
// holds one pool for all requests (route registrations) is placed this way.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabasePool } from 'slonik';
import { currentScope } from './request-scope.ts';

const cluster = new AsyncLocalStorage<string>();

/** Run `fn` (and everything it starts) with the routing pool on cluster `name` (outside a request's scope). */
export function onCluster(name: string, fn: () => void): void {
  cluster.run(name, fn);
}

type Call = (...args: never[]) => Promise<unknown>;

const METHODS = ['any', 'anyFirst', 'exists', 'many', 'manyFirst', 'maybeOne', 'maybeOneFirst', 'one', 'oneFirst', 'query', 'stream', 'transaction', 'connect'] as const;

export function routingPool(control: DatabasePool, poolOf: (cluster: string) => DatabasePool): DatabasePool {
  const pool = Object.create(control) as Record<string, unknown>;
  for (const method of METHODS) {
    pool[method] = (a: never, b: never) => {
      const name = currentScope()?.cluster ?? cluster.getStore();
      const target = name === undefined ? control : poolOf(name);
      return ((target as unknown as Record<string, Call>)[method]!)(a, b);
    };
  }
  return pool as unknown as DatabasePool;
}
