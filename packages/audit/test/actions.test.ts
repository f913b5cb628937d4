// Management routes' audit actions: Strapi's names where it has them, `noun.verb` for the rest,
// none for reads, dry runs and the dashboard's short-lived keys.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCOUNT_ACTIONS, ENTRY_ACTIONS, isActionName, managementAction } from '../src/actions.ts';

describe('managementAction', () => {
  it('maps the contract\'s routes to its names', () => {
    const cases: Array<[string, string, string | null]> = [
      ['PUT', '/schema', 'content-type.update'],
      ['PUT', '/content-types/:uid', 'content-type.update'],
      ['PUT', '/roles/:type/permissions', 'role.update'],
      ['POST', '/api-tokens', 'api-token.create'],
      ['DELETE', '/api-tokens/:id', 'api-token.delete'],
      ['PUT', '/webhooks/:id', 'webhook.update'],
      ['POST', '/releases/:id/publish', 'release.publish'],
      ['POST', '/invitations', 'member.invite'],
      ['DELETE', '/members/:accountId', 'member.remove'],
      ['PUT', '/settings/preview', 'project.settings.update'],
      ['PUT', '/settings/whatever-new', 'project.settings.update'],
      ['POST', '/backups/:id/restore', 'backup.restore'],
      ['PATCH', '', 'project.update'],
      ['DELETE', '', 'project.delete'],
      ['POST', '/locales', 'locale.create'],
      ['PATCH', '/media/folders/:id', 'media-folder.update'],
      ['PUT', '/releases/:id/actions/:actionId', 'release-action.update'],
      ['POST', '/scheduled-actions', 'scheduled-action.create'],
      ['PUT', '/sso', 'sso.update'],
      ['POST', '/sso/verify-domain', 'sso.verify-domain'],
      ['PUT', '/settings/security', 'project.settings.update'],
      ['POST', '/environments/:name/promote', 'environment.promote'],
      ['POST', '/content/:uid/:documentId/unpublish', null],
      ['POST', '/content-access', null],
      ['POST', '/schema/plan', null],
      ['GET', '/webhooks', null],
    ];
    for (const [method, route, action] of cases) assert.equal(managementAction(method, route), action, `${method} ${route}`);
  });

  it('every name has the `a.b` form', () => {
    for (const name of [...ENTRY_ACTIONS, ...ACCOUNT_ACTIONS, 'media.create', 'billing.plan-change']) assert.equal(isActionName(name), true, name);
    for (const name of ['entry', 'Entry.create', 'a..b', '.a', 'a.b.', '']) assert.equal(isActionName(name), false, name);
  });
});
