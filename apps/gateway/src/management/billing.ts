// A project's plan and billing: what it is on and uses, Stripe Checkout to subscribe, Stripe's
// customer portal to manage the subscription. Owners only (access.ts decides, for every
// `/projects/:slug/billing…` route and for `/billing/checkout` once its project is known). With
// billing off (no STRIPE_SECRET_KEY) every route answers 501 after the caller's access is checked.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { effectivePlan, PENDING_RELEASES, PLANS, usageReport, type Billing, type BillingAccount, type PlanName } from '@cms/billing';
import { NotFoundError, NotImplementedError } from '@cms/errors';
import { billingRoutes as schemas } from '@cms/management-api';
import type { MemberProject } from '@cms/tenancy';
import { authorizeProjectAccess } from './access.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf, requestOrigin } from './request-context.ts';

export const BILLING_OFF = 'Billing is not enabled on this platform (STRIPE_SECRET_KEY is not set): every project keeps its plan';

export async function billingRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const billingOf = (): Billing => {
    if (!platform.billing) throw new NotImplementedError(BILLING_OFF);
    return platform.billing;
  };
  // After the session, project and role checks (parent hooks run first), before the body is read.
  app.addHook('onRequest', async () => void billingOf());

  const accountOf = async (request: FastifyRequest): Promise<BillingAccount> => {
    const account = await platform.accounts.get(request.accountId);
    if (!account) throw new NotFoundError();
    return account;
  };

  app.get('/projects/:slug/billing', { schema: schemas.get }, async (request) => {
    const project = projectOf(request);
    const { physical } = await platform.runtimes.get(project);
    const { limits, ...usage } = await usageReport(platform.db.pool, platform.usage, project, Object.values(physical.contentTypes).map((t) => t.table), platform.db.tenantPool);
    const billing = billingOf();
    const purchasable = billing.checkout.purchasablePlans();
    return {
      plan: effectivePlan(project),
      ...(await billing.subscription(project.id)),
      limits,
      usage,
      // Pending releases per plan (null: unlimited), beside the metered limits.
      plans: (Object.keys(PLANS) as PlanName[]).map((plan) => ({
        plan, limits: PLANS[plan], pendingReleases: PENDING_RELEASES[plan], purchasable: purchasable.includes(plan),
      })),
    };
  });

  const checkout = async (request: FastifyRequest, project: MemberProject, plan: string) =>
    billingOf().checkout.checkout(project, await accountOf(request), plan, requestOrigin(request));

  app.post<{ Body: { plan: string } }>('/projects/:slug/billing/checkout', { schema: schemas.checkout }, async (request) => checkout(request, projectOf(request), request.body.plan));

  // The shared contract's form: the project in the body, so its access is checked once the body is read.
  app.post<{ Body: { plan: string; project: string } }>('/billing/checkout', {
    config: { access: 'owner' },
    schema: schemas.checkoutForProject,
    preHandler: [
      async (request: FastifyRequest<{ Body: { project: string } }>) => {
        request.managedProject = await platform.projects.getForAccount(request.accountId, request.body.project);
      },
      authorizeProjectAccess,
    ],
  }, async (request) => checkout(request, projectOf(request), request.body.plan));

  app.post('/projects/:slug/billing/portal', { schema: schemas.portal }, async (request) =>
    billingOf().checkout.portal(projectOf(request), await accountOf(request), requestOrigin(request)));
}
