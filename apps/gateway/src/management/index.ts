// The management API (`/v1`): accounts, projects, teams, schema, content access, locales, roles, API tokens,
// usage, billing.
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_CLUSTER } from '@cms/config';
import { onCluster } from '@cms/db';
import { UnauthorizedError } from '@cms/errors';
import { authorizeProjectAccess } from './access.ts';
import { registerAccountRoutes } from './accounts.ts';
import { registerTwoFactorRoutes } from './two-factor.ts';
import { registerApiTokenRoutes } from './api-tokens.ts';
import { registerAuditLogRoutes } from './audit-logs.ts';
import { registerManagementAudit } from '../audit/management-audit.ts';
import { registerContentRoutes } from './content.ts';
import { registerHistoryRoutes } from './history.ts';
import { billingRoutes } from './billing.ts';
import { billingWebhookRoute } from './billing-webhook.ts';
import { registerBackupRoutes, registerExportRoutes } from './exports.ts';
import { registerEnvironmentRoutes } from './environments.ts';
import { registerImportRoutes } from './import.ts';
import { registerRestoreRoutes } from './restores.ts';
import { registerLocaleRoutes } from './locales.ts';
import { registerMediaRoutes } from './media.ts';
import { registerOpenApiRoutes } from './openapi.ts';
import { registerManagementDocument } from './openapi-document.ts';
import { registerProjectRoutes } from './projects.ts';
import { registerReleaseRoutes } from './releases.ts';
import { registerScheduledActionRoutes } from './scheduled-actions.ts';
import { registerRoleRoutes } from './roles.ts';
import { registerSchemaRoutes } from './schema.ts';
import { registerSettingsRoutes } from './settings.ts';
import { registerSsoLoginRoutes, registerSsoRoutes } from './sso.ts';
import { registerSecuritySettingsRoutes, twoFactorRule } from './security-settings.ts';
import { registerEmailSettingsRoutes } from './email-settings.ts';
import { registerPreviewRoutes } from './preview.ts';
import { registerTeamRoutes } from './team.ts';
import { registerUsageRoutes } from './usage.ts';
import { registerWebhookRoutes } from './webhooks.ts';
import { checkCsrf, sessionTokenOf } from './session-cookies.ts';
import './request-context.ts';
import { collectChanges, purgeKeysOf } from '../change-notes.ts';
import type { ManagementOptions } from './options.ts';

/** Project routes whose writes no content API read shows (billing, team, webhooks, archives, keys, dry runs, the two-factor rule). */
const UNREAD_BY_CONTENT_API = /^\/v1\/projects\/:slug\/(billing|content-access|exports|invitations|members|sso|webhooks|schema\/plan|settings\/security)(\/|$)|^\/v1\/projects\/:slug\/backups$/;

export async function managementPlugin(app: FastifyInstance, opts: ManagementOptions): Promise<void> {
  const { platform } = opts;
  // The dashboard's session cookie: parsed here only, content API requests never pay for it.
  await app.register(fastifyCookie);
  app.decorateRequest('accountId', 0);
  app.decorateRequest('sessionId', 0);
  app.decorateRequest('managedProject', null);
  // First: the OpenAPI document (GET /v1/openapi.json) collects every route registered after it.
  await registerManagementDocument(app);
  registerAccountRoutes(app, opts, authenticate);
  registerTwoFactorRoutes(app, opts, authenticate);
  registerSsoLoginRoutes(app, opts);
  // Nested plugins get the platform only: `opts` also carries this plugin's `/v1` prefix.
  await app.register(billingWebhookRoute, { platform: opts.platform });
  // Everything else needs a session token. The checks run in `onRequest`, before the body is
  // parsed and validated: a caller without credentials gets 401, a project the account is no
  // member of 404 and a route its role does not allow 403 whatever the body holds, so a
  // validation error never answers in their place. Roles are enforced there only (access.ts).
  await app.register(async (authed) => {
    authed.addHook('onRequest', authenticate);
    authed.addHook('onRequest', loadProject);
    // A project that requires two-factor refuses members without it (security-settings.ts).
    authed.addHook('onRequest', twoFactorRule(platform));
    authed.addHook('onRequest', authorizeProjectAccess);
    // A project's content, media and usage are read and written on its cluster (tenantPool).
    authed.addHook('onRequest', (request, _reply, done) => {
      const cluster = request.managedProject?.cluster;
      if (cluster === undefined || cluster === CONTROL_CLUSTER) done();
      else onCluster(cluster, done);
    });
    // A change to a project through the management API (content, model, roles, settings, media,
    // releases, imports…) moves its content version on before it is answered, and purges the CDN.
    authed.addHook('onRequest', (request, _reply, done) => {
      if (changesProject(request)) collectChanges(request, done);
      else done();
    });
    authed.addHook('onSend', async (request, reply, payload) => {
      const notes = request.changeNotes;
      if (!notes || !request.managedProject) return payload;
      // Refused before anything was written, unless a part of it was (an import's documents).
      if (reply.statusCode >= 400 && !notes.project && notes.keys.size === 0) return payload;
      await Promise.all([
        notes.keys.size > 0 ? platform.live.sequenceNow(request.managedProject) : undefined,
        platform.delivery.changed(request.managedProject.id, purgeKeysOf(notes)),
      ]);
      return payload;
    });
    // Every successful write on a project is an entry of its audit log (audit/management-audit.ts).
    registerManagementAudit(authed, platform);
    registerProjectRoutes(authed, opts);
    registerTeamRoutes(authed, opts);
    registerSchemaRoutes(authed, opts);
    registerContentRoutes(authed, opts);
    registerHistoryRoutes(authed, opts);
    registerLocaleRoutes(authed, opts);
    registerMediaRoutes(authed, opts);
    registerRoleRoutes(authed, opts);
    registerApiTokenRoutes(authed, opts);
    registerUsageRoutes(authed, opts);
    registerOpenApiRoutes(authed, opts);
    registerSettingsRoutes(authed, opts);
    registerSecuritySettingsRoutes(authed, opts);
    registerSsoRoutes(authed, opts);
    registerEmailSettingsRoutes(authed, opts);
    registerPreviewRoutes(authed, opts);
    registerWebhookRoutes(authed, opts);
    registerReleaseRoutes(authed, opts);
    registerScheduledActionRoutes(authed, opts);
    registerImportRoutes(authed, opts);
    registerExportRoutes(authed, opts);
    registerBackupRoutes(authed, opts);
    registerRestoreRoutes(authed, opts);
    registerEnvironmentRoutes(authed, opts);
    registerAuditLogRoutes(authed, opts);
    await authed.register(billingRoutes, { platform: opts.platform });
  });

  /** A write to a project that may change what its content API answers. */
  function changesProject(request: FastifyRequest): boolean {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false;
    return !UNREAD_BY_CONTENT_API.test(request.routeOptions.url ?? '');
  }

  async function authenticate(request: FastifyRequest): Promise<void> {
    const presented = sessionTokenOf(request);
    const session = presented ? await platform.sessions.verify(presented.token, request.ip) : null;
    if (!presented || !session) throw new UnauthorizedError();
    // A single sign-on session is rechecked at its identity provider now and then (sso.ts).
    if (!(await platform.sso.sessionAllowed(session.sessionId))) throw new UnauthorizedError();
    checkCsrf(request, platform.sessions, presented);
    request.accountId = session.accountId;
    request.sessionId = session.sessionId;
  }

  async function loadProject(request: FastifyRequest): Promise<void> {
    const slug = (request.params as { slug?: unknown }).slug;
    if (typeof slug !== 'string') return;
    request.managedProject = request.routeOptions.config.deletedProject
      ? await platform.projects.getDeletedForAccount(request.accountId, slug)
      : await platform.projects.getForAccount(request.accountId, slug);
  }
}
