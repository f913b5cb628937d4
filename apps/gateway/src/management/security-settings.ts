// A project's security settings (`settings.security`, docs/two-factor.md): `requireTwoFactor`, the
// rule "members must use two-factor". While it is on, a member whose account has two-factor off gets
// 403 `TwoFactorSetupRequired` on every management route of the project (owners included), until
// they turn it on. Only owners change the setting, and only with two-factor on themselves (so the
// one who turns it on is never locked out by it).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TwoFactorSetupRequiredError } from '@cms/errors';
import { securitySettingsRoutes as schemas } from '@cms/management-api';
import type { Platform } from '../platform.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

export interface SecuritySettings {
  requireTwoFactor: boolean;
}

export function securitySettingsOf(projectSettings: Record<string, unknown> | undefined): SecuritySettings {
  const stored = projectSettings?.security as Partial<SecuritySettings> | undefined;
  return { requireTwoFactor: stored?.requireTwoFactor === true };
}

/** The `onRequest` hook (after the project is loaded) that applies the project's rule. */
export function twoFactorRule(platform: Platform) {
  return async function enforceTwoFactorRule(request: FastifyRequest): Promise<void> {
    const project = request.managedProject;
    if (!project || !securitySettingsOf(project.settings).requireTwoFactor) return;
    if (!(await platform.twoFactor.isEnabled(request.accountId))) throw new TwoFactorSetupRequiredError();
  };
}

export async function securitySettingsRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  // Any member may read the rule (like the project's other settings); owners change it.
  app.get('/projects/:slug/settings/security', { schema: schemas.get }, async (request) => ({ security: securitySettingsOf(projectOf(request).settings) }));

  app.put<{ Body: SecuritySettings }>('/projects/:slug/settings/security', { config: { access: 'owner' }, schema: schemas.update }, async (request) => {
    const project = projectOf(request);
    const security: SecuritySettings = { requireTwoFactor: request.body.requireTwoFactor };
    if (security.requireTwoFactor && !(await platform.twoFactor.isEnabled(request.accountId))) {
      throw new TwoFactorSetupRequiredError('Turn on two-factor authentication for your own account before requiring it of the members');
    }
    await platform.projects.updateSettings(project, 'security', security);
    return { security };
  });
}
