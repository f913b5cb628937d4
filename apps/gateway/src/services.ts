// Control-plane services shared by the management API and the content API.
import { AccountService, ApiTokenService, RoleService, SessionService } from '@cms/auth';
import { UsageMeter } from '@cms/billing';
import { checkGraphqlNames } from '@cms/graphql';
import { LocaleService, ModelStore, ProjectService } from '@cms/tenancy';
import { createMailer, EndUsers } from '@cms/users';
import type { Database } from '@cms/db';
import type { Platform } from './platform.ts';
import { ProjectRateLimits } from './tenant/rate-limits.ts';

export interface Services {
  accounts: AccountService;
  sessions: SessionService;
  projects: ProjectService;
  locales: LocaleService;
  roles: RoleService;
  apiTokens: ApiTokenService;
  models: ModelStore;
  usage: UsageMeter;
  /** End users of every project (users-permissions). */
  endUsers: EndUsers;
  /** Plan request limits and auth brute-force limits of project APIs. */
  rateLimits: ProjectRateLimits;
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
  return {
    accounts: new AccountService(pool),
    sessions: new SessionService(platform.db.pool, platform.config.appSecret),
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
    pool,
    close: async () => {
      rateLimits.close();
      await apiTokens.close();
      mailer.close();
      await usage.close();
    },
  };
}
