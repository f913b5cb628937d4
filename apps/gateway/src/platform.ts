// Everything one gateway instance holds, in one container built once at start and passed down
// (no globals): configuration, logger, database pools, the bus, per-instance caches, and the
// control-plane services the management and content APIs share.
import { AccountService, AccountTokenService, ApiTokenService, ContentAccessKeys, KnownDevices, RoleService, SessionService, TwoFactorService } from '@cms/auth';
import { SsoService } from '@cms/auth';
import { AuditLog } from '@cms/audit';
import { Billing, DocumentQuota, effectivePlan, UsageMeter } from '@cms/billing';
import { CONTROL_CLUSTER, type Config } from '@cms/config';
import { createDatabase, type Database } from '@cms/db';
import { checkGraphqlNamesLazily, GraphqlServers } from '@cms/graphql/lazy';
import { createWindowCounters, type WindowCounters } from '@cms/limits';
import { createMailer, type Mailer } from '@cms/mail';
import { createMediaRuntime, type MediaLibrary } from '@cms/media';
import type { Logger } from '@cms/telemetry';
import {
  ClusterMirror, createBus, EnvironmentService, environmentSchemas, LocaleService, MemberService, ModelStore, poolOfProjectId, ProjectRegistry, ProjectService,
  RuntimeCache, SpareSchemas, type Bus, type ProjectRecord,
} from '@cms/tenancy';
import { ReadCache } from '@cms/query';
import { ArchiveRunner, ArchiveStore } from '@cms/transfer';
import { EndUsers, usersSettingsOf } from '@cms/users';
import { createClusterWebhookRuntimes, createWebhookRuntime, type WebhookRuntime } from '@cms/webhooks';
import { BackgroundTasks } from './background.ts';
import { Delivery } from './delivery.ts';
import { LiveHub } from './live/live-hub.ts';
import { StreamCounts } from './live/stream-counts.ts';
import { Maintenance } from './maintenance.ts';
import { recordPlanChange } from './audit/plan-change.ts';
import { Scheduler } from './scheduler.ts';
import { ssoEgressCheck } from './sso-egress.ts';
import { applyMigrations } from './migrations.ts';
import { ProjectRateLimits } from './tenant/rate-limits.ts';
import { PersistedQueries } from './tenant/persisted-queries.ts';

export interface Platform {
  config: Config;
  logger: Logger;
  db: Database;
  bus: Bus;
  registry: ProjectRegistry;
  runtimes: RuntimeCache;
  /** Per-project GraphQL servers, built on first use. */
  graphql: GraphqlServers;
  /** GraphQL automatic persisted queries' texts by project and hash (Redis, behind an LRU of this process). */
  persistedQueries: PersistedQueries;
  /** Every project's media library (storage, jobs). */
  media: MediaLibrary;
  /** Rate-limit counters shared by every instance (Redis), or this process's own. */
  limitCounters: WindowCounters;
  /** The answer cache, the shared content versions and CDN purges (delivery.ts). */
  delivery: Delivery;
  /** This gateway's live streams and the fan-out of committed document events (live/live-hub.ts). */
  live: LiveHub;
  /** Webhooks: their outbox, relay and delivery (unless WEBHOOKS_WORKER=false); `main`'s outbox. */
  webhooks: WebhookRuntime;
  /** The webhook runtime of a cluster's outbox and deliveries (`main`: `webhooks`). */
  webhooksOn(cluster: string): WebhookRuntime;

  // ---- control-plane services ----
  accounts: AccountService;
  /** Single-use links mailed to accounts (e-mail verification, password reset). */
  accountTokens: AccountTokenService;
  sessions: SessionService;
  /** The devices each account signed in from: a new one is mailed (docs/sessions.md). */
  knownDevices: KnownDevices;
  /** Accounts' two-factor sign-in: TOTP secrets and recovery codes (docs/two-factor.md). */
  twoFactor: TwoFactorService;
  /** Single sign-on with OpenID Connect: projects' connections, sign-in, the recheck of SSO sessions (docs/single-sign-on.md). */
  sso: SsoService;
  projects: ProjectService;
  /** Projects' environments: copies linked to their parent (docs/management-api.md § Environments). */
  environments: EnvironmentService;
  /** Projects' teams: members, roles, invitations. */
  members: MemberService;
  locales: LocaleService;
  roles: RoleService;
  apiTokens: ApiTokenService;
  /** Short-lived keys through which the dashboard calls a project's content API for a member. */
  contentAccessKeys: ContentAccessKeys;
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
  /** Exports and backups: their records, and the archives this instance is writing. */
  archiveStore: ArchiveStore;
  archives: ArchiveRunner<ProjectRecord>;
  /** Purges, backup expiry and daily backups (maintenance.ts); rounds run when MAINTENANCE is on. */
  maintenance: Maintenance;
  /**
   * Scheduled releases and actions (scheduler.ts): `wake` after a schedule is written; they run
   * here once `buildApp` started it (SCHEDULER on).
   */
  scheduler: Scheduler;
  /**
   * The pool of project data: in a project request, its cluster's (the request's scope names
   * it), else the control plane's (@cms/db `tenantPool`).
   */
  pool: Database['pool'];
  /** The audit log: accounts' and projects' entries (@cms/audit, docs/audit-log.md). */
  audit: AuditLog;
  /** Finish background work, then close every connection. */
  close(): Promise<void>;
}

export async function createPlatform(config: Config, logger: Logger): Promise<Platform> {
  const db = await createDatabase(config, logger);
  await applyMigrations(db, logger);
  const bus = createBus(config.redisUrl, logger, config.redisPrefix);
  const registry = new ProjectRegistry(db.pool, bus);
  await registry.start();
  const runtimes = new RuntimeCache(db.pool, registry, config.runtimeCacheSize, new ReadCache(config.readCacheSize), config.runtimeCacheMb * 1024 * 1024);
  const graphql = new GraphqlServers(config.graphqlCacheSize);
  const persistedQueries = new PersistedQueries({ redisUrl: config.redisUrl, prefix: config.redisPrefix }, logger);
  const limitCounters = createWindowCounters(config.redisUrl, config.redisPrefix, logger);
  const delivery = new Delivery(config, logger);
  const live = new LiveHub(bus, (cluster) => db.poolOf(cluster), logger, new StreamCounts(config.redisUrl, config.redisPrefix, logger));
  await live.start();
  // Every change announced through the registry (model, roles, tokens, settings, locales, plan,
  // restore, move, delete) is a content change: recorded before the change is answered.
  registry.onChange(async (inv) => {
    if (inv.projectId !== undefined) await delivery.changed(inv.projectId, undefined, inv.slug);
  });
  registry.useStamps((slug) => delivery.versions.stampOf(slug));
  // Another gateway's change: this one's answers of the project are dead weight now.
  registry.onInvalidate((inv) => {
    if (inv.projectId !== undefined) delivery.answers.dropProject(inv.projectId);
    else if (inv.scope === 'all') delivery.answers.clear();
  });
  const media = createMediaRuntime(config, db.pool, logger, {
    runWorker: config.media.workerInGateway, dbOf: poolOfProjectId(db), onProcessed: (projectId) => delivery.changed(projectId),
    // An environment's files are its parent's stored objects until it stores its own.
    sharingSchemas: (tx, projectId) => environmentSchemas(tx, projectId),
  });
  const webhooks = createWebhookRuntime(db.pool, config, logger, { runWorker: config.webhooks.worker, databaseUrl: db.url, listen: !db.embedded });
  const clusterWebhooks = createClusterWebhookRuntimes(db, config, logger, { runWorker: config.webhooks.worker });
  registry.onInvalidate((inv) => webhooks.forget(inv.projectId));
  // Projects on other clusters: the copies of their control rows there follow every change.
  if (db.clusters.length > 1) {
    const mirror = new ClusterMirror(db);
    registry.onChange(async (inv) => {
      if (inv.projectId !== undefined && inv.scope !== 'deleted') await mirror.sync(inv.projectId);
    });
  }
  const roles = new RoleService(db.pool);
  // Empty project schemas kept ready (built in the background from now on).
  const spares = new SpareSchemas(db, { target: config.spareSchemas, logger });
  spares.start();
  const apiTokens = new ApiTokenService(db.pool, config.appSecret, (err) => logger.warn({ err }, 'could not record API token use'));
  // Token revocations invalidate their project (on every instance, through the bus); cached
  // lookups of that project's tokens are dropped with it.
  registry.onInvalidate((inv) => apiTokens.forget(inv.projectId));
  const usage = new UsageMeter(db.pool, logger);
  const rateLimits = new ProjectRateLimits(limitCounters, config.limits, db.pool, usage);
  const mailer = createMailer(config.email, logger);
  const background = new BackgroundTasks(logger);
  const sessions = new SessionService(db.pool, config.appSecret);
  const accountTokens = new AccountTokenService(db.pool, config.appSecret);
  // A plan change reaches every instance through the bus: new limits apply on their next request.
  const archiveStore = new ArchiveStore(db.pool);
  const archives = new ArchiveRunner<ProjectRecord>({
    store: archiveStore, media: media.library, logger,
    async prepare(project) {
      const tenant = await registry.resolve(project.slug);
      if (!tenant) throw new Error(`project ${project.slug} no longer exists`);
      const runtime = await runtimes.get(tenant.project);
      return {
        projectId: project.id, pool: db.poolOf(tenant.project.cluster), schema: runtime.schemaName, model: runtime.model, physical: runtime.physical,
        defaultLocale: tenant.project.defaultLocale, locales: tenant.locales, roles: await roles.list(project.id),
        usersSettings: usersSettingsOf(tenant.project.settings), media: media.library,
      };
    },
  });
  const billing = config.stripe
    ? new Billing(config.stripe, db.pool, logger, async (project) => {
      await registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
      // Its environments take its plan (billing-store.ts applyProjectPlan).
      for (const env of await platform.environments.projectsOf(project.id)) await registry.invalidate({ projectId: env.id, slug: env.slug, scope: 'project' });
      await recordPlanChange(platform, project.slug);
    })
    : null;
  const platform: Platform = {
    config,
    logger,
    db,
    bus,
    registry,
    runtimes,
    graphql,
    persistedQueries,
    media: media.library,
    limitCounters,
    delivery,
    live,
    webhooks,
    webhooksOn: (cluster) => (cluster === CONTROL_CLUSTER ? webhooks : clusterWebhooks.get(cluster) ?? webhooks),
    accounts: new AccountService(db.pool, accountTokens, sessions),
    accountTokens,
    sessions,
    knownDevices: new KnownDevices(db.pool, config.appSecret),
    twoFactor: new TwoFactorService(db.pool, config.appSecret),
    sso: new SsoService(db.pool, config.appSecret, {
      recheckSeconds: config.sso.recheckSeconds,
      dnsServers: config.sso.dnsServers,
      provider: { checkEgress: ssoEgressCheck(config.sso.allowPrivate), allowHttp: config.sso.allowPrivate, timeoutSeconds: 10 },
      planAllows: (project) => effectivePlan(project) === 'enterprise',
      onError: (err, sessionId) => logger.warn({ err, sessionId }, 'could not recheck an SSO session at its identity provider'),
      onSessionEnded: (sessionId, accountId) => platform.audit.recordAccount({
        accountId, action: 'account.session.revoke', actor: { type: 'system' }, payload: { sessionId, reason: 'sso-refused' },
      }),
    }),
    members: new MemberService(db.pool, config.appSecret),
    projects: new ProjectService(db.pool, registry, [(tx, project) => roles.createDefaults(tx, project.id)], [
      // Media objects are outside the dropped schema; failing to delete them must not fail the delete.
      (project) => media.library.removeProject(project.id).then(
        (deleted) => logger.info({ projectId: project.id, deleted }, 'project media deleted'),
        (err) => logger.error({ err, projectId: project.id }, 'could not delete project media'),
      ),
    ], db, spares),
    locales: new LocaleService(db.pool, registry, db),
    roles,
    apiTokens,
    contentAccessKeys: new ContentAccessKeys(config.appSecret),
    models: new ModelStore(db.pool, registry, [checkGraphqlNamesLazily], db),
    usage,
    endUsers: new EndUsers(config.appSecret, mailer),
    rateLimits,
    documentQuota: new DocumentQuota(config.limits.plans),
    billing,
    mailer,
    background,
    archiveStore,
    archives,
    maintenance: null as unknown as Maintenance,
    environments: null as unknown as EnvironmentService,
    scheduler: new Scheduler({ config, logger, db }),
    pool: db.tenantPool,
    audit: new AuditLog(db),
    async close() {
      await live.close();
      await background.drain();
      await platform.scheduler.close();
      await platform.maintenance.close();
      await archives.close();
      await platform.environments.settled();
      await spares.close();
      rateLimits.close();
      await apiTokens.close();
      mailer.close();
      await usage.close();
      graphql.clear();
      await persistedQueries.close();
      await webhooks.close();
      for (const runtime of clusterWebhooks.values()) await runtime.close();
      await limitCounters.close();
      await media.close();
      await delivery.close();
      await bus.close();
      await db.close();
    },
  };
  platform.environments = new EnvironmentService(db, registry, platform.projects, platform.models,
    (err, env) => logger.error({ err, projectId: env.id }, 'could not copy an environment'));
  // The rounds need the whole platform (projects, archives, billing): made last.
  platform.maintenance = new Maintenance(platform);
  if (config.maintenance.enabled) await platform.maintenance.start();
  return platform;
}
