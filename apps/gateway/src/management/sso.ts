// Single sign-on (docs/single-sign-on.md): a project's connection to its OpenID Connect provider
// (owners, enterprise plan), and signing in through it — start (the provider's authorization URL
// for a work e-mail), the callback (code flow completed, account provisioned, session opened).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { auditSource } from '@cms/audit';
import { domainProof, PENDING_LOGIN_SECONDS, SsoLoginError, type SsoConnection } from '@cms/auth';
import { effectivePlan } from '@cms/billing';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { hitLimit } from '@cms/limits';
import { ssoLoginRoutes as loginSchemas, ssoRoutes as schemas } from '@cms/management-api';
import type { MemberProject } from '@cms/tenancy';
import type { ManagementOptions } from './options.ts';
import { projectOf, requestOrigin } from './request-context.ts';
import { openSession } from './sign-in-security.ts';

/** The sealed pending sign-in: sent back only to the callback (SameSite=Lax: the provider's redirect is a cross-site navigation). */
export const SSO_COOKIE = 'cms_sso';
const SSO_COOKIE_PATH = '/v1/auth/sso';
export const CALLBACK_PATH = '/v1/auth/sso/callback';

type ConnectionBody = { issuer: string; clientId: string; clientSecret?: string; emailDomain: string; defaultRole: string };

/** An absolute URL on the request's origin, normalised (no default port): the callback URL must match the provider's exactly. */
const urlAt = (request: FastifyRequest, path: string) => new URL(path, requestOrigin(request)).href;
const callbackUrlOf = (request: FastifyRequest) => urlAt(request, CALLBACK_PATH);

/** A connection as answered: the client secret is write-only (only whether it is set). */
function connectionJson(connection: SsoConnection | null) {
  if (!connection) return null;
  const { issuer, clientId, emailDomain, defaultRole, createdAt, updatedAt } = connection;
  const domainVerification = { ...domainProof(connection), verified: connection.domainVerifiedAt !== null, verifiedAt: connection.domainVerifiedAt };
  return { issuer, clientId, clientSecretSet: true, emailDomain, defaultRole, domainVerification, createdAt, updatedAt };
}

/** Single sign-on is an enterprise feature: 403 naming the plan otherwise. */
function requireEnterprise(project: MemberProject): void {
  const plan = effectivePlan(project);
  if (plan !== 'enterprise') {
    throw new ForbiddenError(`Single sign-on is part of the enterprise plan (this project is on the ${plan} plan)`, { limit: 'singleSignOn', plan });
  }
}

/** The project's SSO routes (owners only), registered with the authenticated routes. */
export async function ssoRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/sso', { config: { access: 'owner' }, schema: schemas.get }, async (request) => {
    const project = projectOf(request);
    requireEnterprise(project);
    return { sso: connectionJson(await platform.sso.store.forProject(project.id)), callbackUrl: callbackUrlOf(request) };
  });

  // Creates or replaces the connection; the issuer's discovery document is read first (400 on `issuer` saying what is wrong).
  app.put<{ Body: ConnectionBody }>('/projects/:slug/sso', { config: { access: 'owner' }, schema: schemas.put }, async (request) => {
    const project = projectOf(request);
    requireEnterprise(project);
    const connection = await platform.sso.configure(project.id, request.body);
    return { sso: connectionJson(connection), callbackUrl: callbackUrlOf(request) };
  });

  // Checks the DNS TXT record proving the domain (400 saying what was found otherwise).
  app.post('/projects/:slug/sso/verify-domain', { config: { access: 'owner' }, schema: schemas.verifyDomain }, async (request) => {
    const project = projectOf(request);
    requireEnterprise(project);
    const connection = await platform.sso.store.forProject(project.id);
    if (!connection) throw new NotFoundError();
    return { sso: connectionJson(await platform.sso.verifyDomain(connection)), callbackUrl: callbackUrlOf(request) };
  });

  // Removing is allowed on any plan (a downgraded project frees its domain); its sessions end at once.
  app.delete('/projects/:slug/sso', { config: { access: 'owner' }, schema: schemas.remove }, async (request, reply) => {
    if (!(await platform.sso.remove(projectOf(request).id))) throw new NotFoundError();
    return reply.status(204).send();
  });
}

/** Signing in through single sign-on: no session needed. */
export async function ssoLoginRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const { authPerIp } = platform.config.limits;

  // The provider's authorization URL for a work e-mail; the same 404 for an unknown domain and a
  // project whose plan has no single sign-on.
  app.post<{ Body: { email: string } }>('/auth/sso/start', { schema: loginSchemas.start }, async (request, reply) => {
    await hitLimit(platform.limitCounters, `sso-start:ip:${request.ip}`, authPerIp);
    const started = await platform.sso.start(request.body.email.trim(), callbackUrlOf(request));
    if (!started) throw new NotFoundError('Single sign-on is not set up for this e-mail address');
    reply.setCookie(SSO_COOKIE, started.pending, {
      path: SSO_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: PENDING_LOGIN_SECONDS,
    });
    return { url: started.url };
  });

  // Where the provider sends the browser back: a session and the project's page, or the sign-in
  // page with `sso_error` saying why not. The pending sign-in is spent either way.
  app.get('/auth/sso/callback', { schema: loginSchemas.callback }, async (request, reply) => {
    reply.clearCookie(SSO_COOKIE, { path: SSO_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
    try {
      const login = await platform.sso.finish(new URL(urlAt(request, request.url)), request.cookies[SSO_COOKIE]);
      const token = await openSession(platform, request, reply, login.accountId);
      const session = await platform.sessions.verify(token, request.ip);
      await platform.sso.attachSession(session!.sessionId, login);
      const source = auditSource(request);
      const { id: connectionId, projectId } = login.connection;
      if (login.linked) await platform.audit.recordAccount({ accountId: login.accountId, action: 'account.sso.link', ...source, payload: { projectId, connectionId, created: login.created } });
      await platform.audit.recordAccount({ accountId: login.accountId, action: 'admin.auth.success', ...source, payload: { method: 'sso', sessionId: session!.sessionId, projectId, connectionId } });
      // The project's page when the account is (still) a member, else the list.
      const member = await platform.projects.getForAccount(login.accountId, login.connection.project.slug).then(() => true, () => false);
      return redirect(reply, urlAt(request, member ? `/projects/${login.connection.project.slug}` : '/projects'));
    } catch (err) {
      if (!(err instanceof SsoLoginError)) throw err;
      request.log.info({ code: err.code, err: err.reason }, 'single sign-on refused');
      await platform.audit.recordAccount({ accountId: err.accountId ?? null, action: 'admin.auth.failure', ...auditSource(request), payload: { reason: 'sso', ssoError: err.code } });
      return redirect(reply, urlAt(request, `/login?sso_error=${err.code}`));
    }
  });
}

function redirect(reply: FastifyReply, location: string) {
  return reply.header('cache-control', 'no-store').redirect(location, 303);
}
