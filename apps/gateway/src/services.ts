// Control-plane services shared by the management API and the content API.
import { AccountService, AccountTokenService, ApiTokenService, RoleService, SessionService } from '@cms/auth';
import { Billing, DocumentQuota, UsageMeter } from '@cms/billing';
import { checkGraphqlNames } from '@cms/graphql';
import { createMailer, type Mailer } from '@cms/mail';
import { LocaleService, MemberService, ModelStore, ProjectService } from '@cms/tenancy';
import { EndUsers } from '@cms/users';
import type { Database } from '@cms/db';
import { BackgroundTasks } from './background.ts';
import type { Platform } from './platform.ts';
import { ProjectRateLimits } from './tenant/rate-limits.ts';

export interface Services {
  accounts: AccountService;
  /** Single-use links mailed to accounts (e-mail verification, password reset). */
  accountTokens: AccountTokenService;
  sessions: SessionService;
  projects: ProjectService;
  /** Projects' teams: members, roles, invitations. */
  members: MemberService;
  locales: LocaleService;
  roles: RoleService;
  apiTokens: ApiTokenService;
  models: ModelStore;
  usage: UsageMeter;
  /** End users of every project (users-permissions). */
  endUsers: EndUsers;
  /** Plan request limits and auth brute-force limits of project APIs. */
  rateLimits: ProjectRateLimits;
  /** The plan's document limit, checked by every create of a document. */
  documentQuota: DocumentQuota;
  /** Stripe checkout, portal and webhook; null when billing is off (no STRIPE_SECRET_KEY). */
  billing: Billing | null;
  /** Outgoing e-mail (SMTP_URL, else the log): accounts' links and end users' flows. */
  mailer: Mailer;
  /** Work a request starts without waiting for it (awaited on close). */
  background: BackgroundTasks;
  /** The platform's pool, for services that take it per call. */
  pool: Database['pool'];
  close(): Promise<void>;
}

export function createServices(platform: Platform): Services {
  const pool = platform.db.pool;
  const roles = new RoleService(pool);
  const apiTokens = new ApiTokenService(pool, platform.config.appSecret, (err) => platform.logger.warn({ err }, 'could not record API token use'));
  // Token revocations invalidate their project (on every instance, through the bus); cached
  // lookups of that project's tokens are dropped with it.
  platform.registry.onInvalidate((inv) => apiTokens.forget(inv.projectId));
  const usage = new UsageMeter(pool, platform.logger);
  const rateLimits = new ProjectRateLimits(platform.limitCounters, platform.config.limits, pool, usage);
  const mailer = createMailer(platform.config.email, platform.logger);
  const background = new BackgroundTasks(platform.logger);
  const sessions = new SessionService(pool, platform.config.appSecret);
  const accountTokens = new AccountTokenService(pool, platform.config.appSecret);
  // A plan change reaches every instance through the bus: new limits apply on their next request.
  const billing = platform.config.stripe
    ? new Billing(platform.config.stripe, pool, platform.logger, (project) => platform.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' }))
    : null;
  return {
    accounts: new AccountService(pool, accountTokens, sessions),
    accountTokens,
    sessions,
    members: new MemberService(pool, platform.config.appSecret),
    projects: new ProjectService(pool, platform.registry, [(tx, project) => roles.createDefaults(tx, project.id)], [
      // Media objects are outside the dropped schema; failing to delete them must not fail the delete.
      (project) => platform.media.removeProject(project.id).then(
        (deleted) => platform.logger.info({ projectId: project.id, deleted }, 'project media deleted'),
        (err) => platform.logger.error({ err, projectId: project.id }, 'could not delete project media'),
      ),
    ]),
    locales: new LocaleService(pool, platform.registry),
    roles,
    apiTokens,
    models: new ModelStore(pool, platform.registry, [checkGraphqlNames]),
    usage,
    endUsers: new EndUsers(platform.config.appSecret, mailer),
    rateLimits,
    documentQuota: new DocumentQuota(platform.config.limits.plans),
    billing,
    mailer,
    background,
    pool,
    close: async () => {
      await background.drain();
      rateLimits.close();
      await apiTokens.close();
      mailer.close();
      await usage.close();
    },
  };
}
