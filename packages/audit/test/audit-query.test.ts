// The audit log's query string: filters and paging, or a 400 naming the key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '@cms/errors';
import { parseAuditQuery } from '../src/audit-query.ts';

describe('parseAuditQuery', () => {
  it('defaults, filters and the actor\'s forms', () => {
    assert.deepEqual(parseAuditQuery({}), { page: 1, pageSize: 25 });
    assert.deepEqual(parseAuditQuery({ page: '2', pageSize: '100', action: 'entry', from: '2026-01-02', to: '2026-01-03T10:00:00+01:00' }),
      { page: 2, pageSize: 100, action: 'entry', from: '2026-01-02T00:00:00.000Z', to: '2026-01-03T09:00:00.000Z' });
    assert.deepEqual(parseAuditQuery({ to: '2026-01-03' }).to, '2026-01-03T23:59:59.999Z');
    assert.deepEqual(parseAuditQuery({ actor: 'system' }), { page: 1, pageSize: 25, actorType: 'system' });
    assert.deepEqual(parseAuditQuery({ actor: 'api-token:12' }), { page: 1, pageSize: 25, actorType: 'api-token', actorId: '12' });
    assert.deepEqual(parseAuditQuery({ actor: '7' }), { page: 1, pageSize: 25, actorType: 'account', actorId: '7' });
    assert.deepEqual(parseAuditQuery({ actor: 'Ann@Example.com' }), { page: 1, pageSize: 25, actorType: 'account', actorEmail: 'Ann@Example.com' });
    assert.deepEqual(parseAuditQuery({ action: '', actor: '' }), { page: 1, pageSize: 25 });
  });

  it('refuses what it does not know, with the key in details', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ page: '0' }, 'page'], [{ page: '1.5' }, 'page'], [{ pageSize: '101' }, 'pageSize'], [{ page: ['1', '2'] }, 'page'],
      [{ from: '2026-13-45' }, 'from'], [{ to: 'tomorrow' }, 'to'], [{ from: '2026-02-01', to: '2026-01-01' }, 'from'],
      [{ actor: 'robot:1' }, 'actor'], [{ actor: 'system:1' }, 'actor'], [{ action: 'Entry' }, 'action'], [{ action: 'a'.repeat(101) }, 'action'],
      [{ sort: 'id' }, 'sort'],
    ];
    for (const [query, key] of cases) {
      assert.throws(() => parseAuditQuery(query), (err: unknown) => err instanceof ValidationError && (err.details as { key?: string }).key === key, JSON.stringify(query));
    }
    assert.throws(() => parseAuditQuery({ page: '2' }, ['action']), ValidationError);
  });
});
