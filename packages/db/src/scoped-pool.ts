// The pool every package uses, with project API requests' statements going through their
// project's fair share: each statement (or transaction, for its whole length) holds one of the
// project's connections. Outside a request's scope it is slonik's pool, untouched.
import { ClientClosedRequestError, ServiceUnavailableError } from '@cms/errors';
import { StatementTimeoutError, type DatabasePool } from 'slonik';
import type { FairShare } from './fair-share.ts';
import { LEAN_METHODS, runLean, type LeanMethod } from './lean-statements.ts';
import { currentScope, type DbScope, type ScopeOwner } from './request-scope.ts';
import type { Sessions } from './sessions.ts';

type Call = (...args: never[]) => Promise<unknown>;

// Methods that run one statement (slonik acquires a connection for each).
const STATEMENTS = ['any', 'anyFirst', 'exists', 'many', 'manyFirst', 'maybeOne', 'maybeOneFirst', 'one', 'oneFirst', 'query', 'stream'] as const;
// Methods that hold one connection across several statements.
const HOLDING = ['transaction', 'connect'] as const;

/** What a scoped statement's failure is answered with. */
export function scopedError(scope: DbScope, err: unknown): unknown {
  // Whatever failed, nobody is waiting for the answer.
  if (scope.aborted) return err instanceof ClientClosedRequestError ? err : new ClientClosedRequestError();
  if (err instanceof StatementTimeoutError) {
    const seconds = Math.round(scope.statementTimeoutMs / 100) / 10;
    return new ServiceUnavailableError(
      `The query took too long and was cancelled: one database statement of this project may run for ${seconds} s. ` +
      'Narrow its filters or ask for fewer documents.',
    );
  }
  return err;
}

/**
 * `sessions`: the pool's connections, for the lean path of a request's single-statement reads
 * (lean-statements.ts); null (PGlite) runs everything through slonik.
 */
export function scopedPool(inner: DatabasePool, fair: FairShare, owner: ScopeOwner, sessions: Sessions | null): DatabasePool {
  const wrap = (name: string, run: Call, holds: boolean) => {
    const leanable = sessions !== null && LEAN_METHODS.has(name);
    const commits = name === 'transaction';
    return async (a: never, b: never): Promise<unknown> => {
      const found = currentScope();
      if (found === undefined || found.owner !== owner) return run(a, b);
      const scope = found;
      if (scope.aborted) throw new ClientClosedRequestError();
      const wait = fair.acquire(scope);
      if (wait !== null) await wait;
      if (holds) scope.pinned++;
      try {
        // Not while the request holds a transaction (slonik refuses pool statements inside one).
        const client = leanable && scope.pinned === 0 ? sessions.takeIdle(scope.share.home) : null;
        const result = await (client ? runLean(client, name as LeanMethod, a) : run(a, b));
        if (commits) scope.committed = true;
        return result;
      } catch (err) {
        throw scopedError(scope, err);
      } finally {
        if (holds) scope.pinned--;
        fair.release(scope.share);
      }
    };
  };
  // slonik's pool methods are closures (no `this`): the rest (state, end, events) is inherited.
  const pool = Object.create(inner) as Record<string, unknown>;
  const methods = inner as unknown as Record<string, Call>;
  for (const name of STATEMENTS) pool[name] = wrap(name, methods[name]!, false);
  for (const name of HOLDING) pool[name] = wrap(name, methods[name]!, true);
  return pool as unknown as DatabasePool;
}
