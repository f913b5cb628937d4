// The fair share's scheduling on its own (no database): a counter under the limit, one FIFO per
// project past it, hand-over on release, a bounded wait (503) except after a committed write, and
// waiters dropped with their client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClientClosedRequestError, ProjectBusyError } from '@cms/errors';
import { FairShare } from '../src/fair-share.ts';
import { DbScope, type ScopeOwner } from '../src/request-scope.ts';

describe('FairShare', () => {
  const owner: ScopeOwner = { abort: () => {} };
  const setup = (limit: number, queueTimeoutMs = 1000) => {
    const fair = new FairShare(limit, queueTimeoutMs);
    const scope = (project: number) => new DbScope(owner, fair.project(project), 1000);
    return { fair, scope };
  };

  it('grants at once under the limit, then queues FIFO and hands released connections over in order', async () => {
    const { fair, scope } = setup(2);
    const [a1, a2, a3, a4] = [scope(1), scope(1), scope(1), scope(1)];
    assert.equal(fair.acquire(a1), null);
    assert.equal(fair.acquire(a2), null);
    const order: string[] = [];
    const third = fair.acquire(a3)!.then(() => order.push('a3'));
    const fourth = fair.acquire(a4)!.then(() => order.push('a4'));
    assert.deepEqual(fair.usage(1), { held: 2, waiting: 2 });
    fair.release(a1.share);
    await third;
    assert.deepEqual(fair.usage(1), { held: 2, waiting: 1 });
    fair.release(a2.share);
    await fourth;
    assert.deepEqual(order, ['a3', 'a4']);
    fair.release(a3.share);
    fair.release(a4.share);
    assert.deepEqual(fair.usage(1), { held: 0, waiting: 0 });
    fair.close();
  });

  it('lets other projects through while one is at its limit', () => {
    const { fair, scope } = setup(1);
    assert.equal(fair.acquire(scope(1)), null);
    const waiting = fair.acquire(scope(1));
    assert.ok(waiting instanceof Promise);
    waiting.catch(() => {});
    assert.equal(fair.acquire(scope(2)), null);
    assert.deepEqual(fair.usage(2), { held: 1, waiting: 0 });
    fair.close();
  });

  it('never makes a request wait for its own project inside one of its transactions', () => {
    const { fair, scope } = setup(1);
    const inTransaction = scope(1);
    assert.equal(fair.acquire(inTransaction), null);
    inTransaction.pinned = 1;
    assert.equal(fair.acquire(inTransaction), null);
    assert.deepEqual(fair.usage(1), { held: 2, waiting: 0 });
    fair.close();
  });

  it('refuses a statement that waited past the queue timeout with 503 and Retry-After', async () => {
    const { fair, scope } = setup(1, 30);
    const first = scope(1);
    assert.equal(fair.acquire(first), null);
    const started = performance.now();
    await assert.rejects(fair.acquire(scope(1))!, (err: unknown) => {
      assert.ok(err instanceof ProjectBusyError);
      assert.equal(err.status, 503);
      assert.equal(err.retryAfterSeconds, 1);
      return true;
    });
    assert.ok(performance.now() - started >= 25);
    // The expired waiter is skipped: the release frees the connection.
    fair.release(first.share);
    assert.deepEqual(fair.usage(1), { held: 0, waiting: 0 });
    fair.close();
  });

  it('never refuses a statement of a request that has committed a write: it waits its turn', async () => {
    const { fair, scope } = setup(1, 30);
    const first = scope(1);
    assert.equal(fair.acquire(first), null);
    const wrote = scope(1);
    wrote.committed = true;
    let served = false;
    const readBack = fair.acquire(wrote)!.then(() => (served = true));
    const other = fair.acquire(scope(1))!;
    await assert.rejects(other, ProjectBusyError);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(served, false);
    assert.deepEqual(fair.usage(1), { held: 1, waiting: 1 });
    fair.release(first.share);
    await readBack;
    fair.release(wrote.share);
    assert.deepEqual(fair.usage(1), { held: 0, waiting: 0 });
    fair.close();
  });

  it('drops the waiting statements of a request whose client went away, and only those', async () => {
    const { fair, scope } = setup(1);
    const [running, gone, staying] = [scope(1), scope(1), scope(1)];
    assert.equal(fair.acquire(running), null);
    const dropped = fair.acquire(gone)!;
    const served = fair.acquire(staying)!;
    fair.abandon(gone);
    await assert.rejects(dropped, ClientClosedRequestError);
    assert.deepEqual(fair.usage(1), { held: 1, waiting: 1 });
    fair.release(running.share);
    await served;
    fair.release(staying.share);
    assert.deepEqual(fair.usage(1), { held: 0, waiting: 0 });
    fair.close();
  });
});
