// Environments' pure logic: slugs (new projects', environments', host names), the copy's table
// order, and the promote route's options and refusal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { referencedFirst } from '@cms/ddl';
import { ANY_SLUG_PATTERN, ENVIRONMENT_NAME_PATTERN, environmentSlug, isNewProjectSlug, MAX_SLUG_LENGTH, tenantSlugFromHost } from '@cms/tenancy';
import { promoteOptions, promoteStep, unconfirmedError } from '../../apps/gateway/src/management/environments.ts';

describe('environment slugs', () => {
  it('refuses "--" in new projects\' slugs, keeps the rest of the rule', () => {
    assert.equal(isNewProjectSlug('acme'), true);
    assert.equal(isNewProjectSlug('acme-blog'), true);
    assert.equal(isNewProjectSlug('acme--staging'), false);
    assert.equal(isNewProjectSlug('a'), false);
    assert.equal(isNewProjectSlug('acme-'), false);
    assert.equal(isNewProjectSlug('a'.repeat(41)), false);
  });

  it('names environments by ^[a-z][a-z0-9-]{0,19}$ and fits the longest slug in one DNS label', () => {
    for (const name of ['s', 'staging', 'qa-2', 'a'.repeat(20)]) assert.equal(ENVIRONMENT_NAME_PATTERN.test(name), true, name);
    for (const name of ['', 'Staging', '2nd', 'a'.repeat(21), 'st_aging']) assert.equal(ENVIRONMENT_NAME_PATTERN.test(name), false, name);
    const longest = environmentSlug('a'.repeat(40), 'b'.repeat(20));
    assert.equal(longest.length, MAX_SLUG_LENGTH);
    assert.ok(MAX_SLUG_LENGTH <= 63);
    assert.equal(ANY_SLUG_PATTERN.test(longest), true);
    assert.equal(ANY_SLUG_PATTERN.test('acme'), true);
    assert.equal(ANY_SLUG_PATTERN.test(`${longest}x`), false);
    assert.equal(ANY_SLUG_PATTERN.test('acme--Staging'), false);
  });

  it('routes environments by host name too', () => {
    assert.equal(tenantSlugFromHost('acme--staging.example.com', 'example.com'), 'acme--staging');
    assert.equal(tenantSlugFromHost(`${'a'.repeat(40)}--${'b'.repeat(20)}.example.com:8080`, 'example.com'), `${'a'.repeat(40)}--${'b'.repeat(20)}`);
    assert.equal(tenantSlugFromHost('acme.example.com', 'example.com'), 'acme');
    assert.equal(tenantSlugFromHost(`${'a'.repeat(40)}--${'b'.repeat(21)}.example.com`, 'example.com'), null);
    assert.equal(tenantSlugFromHost('acme--Staging.example.com', 'example.com'), 'acme--staging');
  });
});

describe('copy order', () => {
  it('puts referenced tables first and keeps the order otherwise, cycles included', () => {
    assert.deepEqual(referencedFirst(['a', 'b', 'c'], []), ['a', 'b', 'c']);
    assert.deepEqual(referencedFirst(['lnk', 'up_users', 'ct'], [{ table: 'lnk', references: 'up_users' }]), ['up_users', 'lnk', 'ct']);
    assert.deepEqual(referencedFirst(['a', 'b'], [{ table: 'a', references: 'b' }, { table: 'b', references: 'a' }]).sort(), ['a', 'b']);
    assert.deepEqual(referencedFirst(['a'], [{ table: 'a', references: 'a' }, { table: 'a', references: 'elsewhere' }]), ['a']);
  });
});

describe('promote options', () => {
  it('takes no body, or booleans dryRun and confirm', () => {
    assert.deepEqual(promoteOptions(undefined), {});
    assert.deepEqual(promoteOptions(null), {});
    assert.deepEqual(promoteOptions({ dryRun: true }), { dryRun: true });
    assert.deepEqual(promoteOptions({ dryRun: false, confirm: true }), { dryRun: false, confirm: true });
    assert.throws(() => promoteOptions({ dryRun: 'true' }), /ValidationError|dryRun/);
    assert.throws(() => promoteOptions({ force: true }), /Unknown key force/);
    assert.throws(() => promoteOptions([]), /JSON object/);
  });

  it('lists the destructive steps in the refusal', () => {
    const steps = [
      promoteStep({ op: 'addAttribute', type: 'api::a.a', attribute: 'x', description: 'add attribute x to api::a.a', destructive: false }),
      promoteStep({ op: 'dropAttribute', type: 'api::a.a', attribute: 'y', description: 'remove attribute y from api::a.a', destructive: true }),
    ];
    const error = unconfirmedError(steps);
    assert.equal(error.message, 'This promotion deletes data: remove attribute y from api::a.a. Send {"dryRun": false, "confirm": true} to apply it');
    assert.deepEqual(error.details, { steps: [steps[1]] });
  });
});
