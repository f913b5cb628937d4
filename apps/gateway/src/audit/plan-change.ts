// A plan changed by Stripe's webhook (a checkout, a renewal, a failed payment, a cancellation) is
// an entry of the project's audit log, by `system`, with the plan it is on now.
import type { AuditLog } from '@cms/audit';
import type { Logger } from '@cms/telemetry';
import type { ProjectRegistry } from '@cms/tenancy';

export async function recordPlanChange(platform: { registry: ProjectRegistry; audit: AuditLog; logger: Logger }, slug: string): Promise<void> {
  try {
    const tenant = await platform.registry.resolve(slug);
    if (!tenant) return;
    const { project } = tenant;
    await platform.audit.recordProject(project, {
      action: 'billing.plan-change', actor: { type: 'system' }, payload: { plan: project.plan, graceUntil: project.planGraceUntil },
    });
  } catch (err) {
    platform.logger.error({ err, slug }, 'could not record the plan change in the audit log');
  }
}
