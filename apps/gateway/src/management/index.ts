// The management API (`/v1`): accounts, projects, teams, schema, content access, locales, roles, API tokens,
// usage, billing.
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_CLUSTER } from '@cms/config';
import { onCluster } from '@cms/db';
import { UnauthorizedError } from '@cms/errors';
import { authorizeProjectAccess } from './access.ts';
import { accountRoutes } from './accounts.ts';
import { twoFactorRoutes } from './two-factor.ts';
import { apiTokenRoutes } from './api-tokens.ts';
import { auditLogRoutes } from './audit-logs.ts';
import { registerManagementAudit } from '../audit/management-audit.ts';
import { contentRoutes } from './content.ts';
import { historyRoutes } from './history.ts';
import { billingRoutes } from './billing.ts';
import { billingWebhookRoute } from './billing-webhook.ts';
import { backupRoutes, exportRoutes } from './exports.ts';
import { environmentRoutes } from './environments.ts';
import { importRoutes } from './import.ts';
import { restoreRoutes } from './restores.ts';
import { localeRoutes } from './locales.ts';
import { mediaRoutes } from './media.ts';
import { openApiRoutes } from './openapi.ts';
import { registerManagementDocument } from './openapi-document.ts';
import { projectRoutes } from './projects.ts';
import { releaseRoutes } from './releases.ts';
import { scheduledActionRoutes } from './scheduled-actions.ts';
import { roleRoutes } from './roles.ts';
import { schemaRoutes } from './schema.ts';
import { settingsRoutes } from './settings.ts';
import { ssoLoginRoutes, ssoRoutes } from './sso.ts';
import { securitySettingsRoutes, twoFactorRule } from './security-settings.ts';
import { emailSettingsRoutes } from './email-settings.ts';
import { previewRoutes } from './preview.ts';
import { teamRoutes } from './team.ts';
import { usageRoutes } from './usage.ts';
import { webhookRoutes } from './webhooks.ts';
import { checkCsrf, sessionTokenOf } from './session-cookies.ts';
import './request-context.ts';
import { collectChanges, purgeKeysOf } from '../change-notes.ts';
import type { ManagementOptions, SessionRouteOptions } from './options.ts';

/** Project routes whose writes no content API read shows (billing, team, webhooks, archives, keys, dry runs, the two-factor rule). */
const UNREAD_BY_CONTENT_API = /^\/v1\/projects\/:slug\/(billing|content-access|exports|invitations|members|sso|webhooks|schema\/plan|settings\/security)(\/|$)|^\/v1\/projects\/:slug\/backups$/;

export async function managementPlugin(app: FastifyInstance, opts: ManagementOptions): Promise<void> {
  const { platform } = opts;
  // The dashboard's session cookie: parsed here only, content API requests never pay for it.
  await app.register(fastifyCookie);
  app.decorateRequest('accountId', 0);
  app.decorateRequest('sessionId', 0);
  app.decorateRequest('managedProject', null);
  // First: the OpenAPI document (GET /v1/openapi.json) collects every route registered after it
  // (its `onRoute` hook is this plugin's, so every nested plugin's routes go through it too).
  await registerManagementDocument(app);
  // Each route module is a plugin of its own (its hooks and parsers stay in it), registered with
  // the platform only: `opts` also carries this plugin's `/v1` prefix, which it would add again.
  const routes: ManagementOptions = { platform };
  const accountOptions: SessionRouteOptions = { platform, authenticate };
  await app.register(accountRoutes, accountOptions);
  await app.register(twoFactorRoutes, accountOptions);
  await app.register(ssoLoginRoutes, routes);
  await app.register(billingWebhookRoute, routes);
  // Everything else needs a session token. The checks run in `onRequest`, before the body is
  // parsed and validated: a caller without credentials gets 401, a project the account is no
  // member of 404 and a route its role does not allow 403 whatever the body holds, so a
  // validation error never answers in their place. Roles are enforced there only (access.ts).
  // These hooks are added before the route plugins are registered: every one of them inherits them.
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
        platform.live.afterWrites(request.managedProject, notes.positioned, notes.unsequenced),
        platform.delivery.changed(request.managedProject.id, purgeKeysOf(notes)),
      ]);
      return payload;
    });
    // Every successful write on a project is an entry of its audit log (audit/management-audit.ts).
    registerManagementAudit(authed, platform);
    // In this order: the document lists their paths in it.
    for (const plugin of [
      projectRoutes, teamRoutes, schemaRoutes, contentRoutes, historyRoutes, localeRoutes, mediaRoutes, roleRoutes,
      apiTokenRoutes, usageRoutes, openApiRoutes, settingsRoutes, securitySettingsRoutes, ssoRoutes, emailSettingsRoutes,
      previewRoutes, webhookRoutes, releaseRoutes, scheduledActionRoutes, importRoutes, exportRoutes, backupRoutes,
      restoreRoutes, environmentRoutes, auditLogRoutes, billingRoutes,
    ]) await authed.register(plugin, routes);
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
