// Accounts and their sessions: sign-up and login (a session token in the body for automation and
// in an HttpOnly cookie for the dashboard), logout, the account's sessions, password change; the
// mailed links (e-mail verification, password reset) and deleting the account.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEmail, type Account } from '@cms/auth';
import { NotFoundError, UnauthorizedError, ValidationError } from '@cms/errors';
import { hitLimit } from '@cms/limits';
import { accountRoutes as schemas } from '@cms/management-api';
import { deleteAccount } from './account-deletion.ts';
import { linkTo, resetPasswordMail, verificationMail } from './account-mail.ts';
import type { SessionRouteOptions } from './options.ts';
import { requestOrigin } from './request-context.ts';
import { requireSecondFactor } from './two-factor.ts';
import { clearSessionCookies, sessionTokenOf } from './session-cookies.ts';
import { audit, openSession, SignInGuard } from './sign-in-security.ts';

/** At most one verification mail a minute per account, on request. */
const VERIFY_SEND_LIMIT = { max: 1, windowMs: 60_000 };

export async function accountRoutes(app: FastifyInstance, { platform, authenticate }: SessionRouteOptions): Promise<void> {
  const { sessions } = platform;
  const counters = platform.limitCounters;
  const { authAttempts, authPerIp } = platform.config.limits;

  /**
   * The unauthenticated e-mail routes must not serve to mass-send mail or guess links: requests
   * per client IP (AUTH_IP_RATE_LIMIT_MAX), and per route and address whatever the IP
   * (AUTH_RATE_LIMIT_MAX), both over AUTH_RATE_LIMIT_WINDOW_MS; past them 429. Addresses are hashed.
   */
  async function limitMailRoute(request: FastifyRequest, route: string, email?: string): Promise<void> {
    await hitLimit(counters, `account-mail:ip:${request.ip}`, authPerIp);
    if (email !== undefined) {
      const digest = createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24);
      await hitLimit(counters, `account-mail:${route}:${digest}`, authAttempts);
    }
  }

  /** Mail the account a new verification link (not awaited: the answer never waits for SMTP). */
  async function sendVerification(request: FastifyRequest, account: Account): Promise<void> {
    const token = await platform.accountTokens.issue(account.id, 'verify-email');
    platform.mailer.post(verificationMail(account.email, linkTo(requestOrigin(request), 'verify-email', token)));
  }

  /** The session, its cookies and the device check of a sign-in (sign-in-security.ts). */
  async function startSession(request: FastifyRequest, reply: FastifyReply, accountId: number): Promise<string> {
    return openSession(platform, request, reply, accountId);
  }
  // Failed sign-ins lock the account and the client IP for a while (capped); see sign-in-security.ts.
  const signInGuard = new SignInGuard(platform);

  app.post<{ Body: { email: string; password: string; name?: string } }>('/auth/signup', { schema: schemas.signup }, async (request, reply) => {
    // Each signup mails a link: bounded per client IP and per address like the other mail routes.
    await limitMailRoute(request, 'signup', request.body.email);
    const account = await platform.accounts.signup(request.body);
    await audit(platform, request, account.id, 'account.create');
    await sendVerification(request, account);
    return reply.status(201).send({ token: await startSession(request, reply, account.id), account });
  });

  // `code`: the second factor of an account with two-factor on (two-factor.ts), asked for only once the password is right.
  app.post<{ Body: { email: string; password: string; code?: string } }>('/auth/login', { schema: schemas.login }, async (request, reply) => {
    const account = await signInGuard.check(request, request.body.email, async () => {
      const found = await platform.accounts.login(request.body.email, request.body.password);
      await requireSecondFactor(platform, request, found, request.body.code);
      return found;
    });
    return { token: await startSession(request, reply, account.id), account };
  });

  app.get('/auth/me', { onRequest: authenticate, schema: schemas.me }, async (request) => {
    const account = await platform.accounts.get(request.accountId);
    if (!account) throw new UnauthorizedError();
    return { account };
  });

  // The dashboard's "who am I": 200 with `account: null` for a visitor, so a signed-out page load
  // is not an error (GET /auth/me answers 401 there).
  app.get('/auth/session', { schema: schemas.session }, async (request) => {
    const presented = sessionTokenOf(request);
    const session = presented ? await sessions.verify(presented.token, request.ip) : null;
    // A single sign-on session its identity provider no longer confirms is ended (sso.ts).
    const allowed = session !== null && (await platform.sso.sessionAllowed(session.sessionId));
    return { account: allowed ? await platform.accounts.get(session.accountId) : null };
  });

  app.post('/auth/logout', { onRequest: authenticate, schema: schemas.logout }, async (request, reply) => {
    await sessions.revoke(request.accountId, request.sessionId);
    await audit(platform, request, request.accountId, 'admin.logout', { sessionId: request.sessionId });
    clearSessionCookies(request, reply);
    return reply.status(204).send();
  });

  app.get('/auth/sessions', { onRequest: authenticate, schema: schemas.listSessions }, async (request) => ({
    sessions: (await sessions.list(request.accountId)).map((s) => ({ ...s, current: s.id === request.sessionId })),
  }));

  // "Log out everywhere": every session of the account, this one included.
  app.delete('/auth/sessions', { onRequest: authenticate, schema: schemas.deleteSessions }, async (request, reply) => {
    await sessions.revokeAll(request.accountId);
    await audit(platform, request, request.accountId, 'account.session.revoke', { all: true });
    clearSessionCookies(request, reply);
    return reply.status(204).send();
  });

  app.delete<{ Params: { id: string } }>('/auth/sessions/:id', { onRequest: authenticate, schema: schemas.deleteSession }, async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0 || !(await sessions.revoke(request.accountId, id))) throw new NotFoundError();
    await audit(platform, request, request.accountId, 'account.session.revoke', { sessionId: id });
    if (id === request.sessionId) clearSessionCookies(request, reply);
    return reply.status(204).send();
  });

  // A new password ends every other session (a stolen one stops working).
  app.put<{ Body: { currentPassword: string; password: string } }>('/auth/password', { onRequest: authenticate, schema: schemas.changePassword }, async (request, reply) => {
    await platform.accounts.changePassword(request.accountId, request.body.currentPassword, request.body.password);
    await audit(platform, request, request.accountId, 'account.password.change');
    await sessions.revokeAll(request.accountId, request.sessionId);
    return reply.status(204).send();
  });
  // A new verification link; 429 when one was asked for less than a minute ago; nothing is sent
  // (still 204) when the address is verified already.
  app.post('/auth/verify-email/send', { onRequest: authenticate, schema: schemas.sendVerification }, async (request, reply) => {
    await hitLimit(counters, `verify-email-send:${request.accountId}`, VERIFY_SEND_LIMIT);
    const account = await platform.accounts.get(request.accountId);
    if (!account) throw new UnauthorizedError();
    if (!account.emailVerified) await sendVerification(request, account);
    return reply.status(204).send();
  });

  // The link's token, from the dashboard's /verify-email page; no session needed.
  app.post<{ Body: { token: string } }>('/auth/verify-email', { schema: schemas.verifyEmail }, async (request) => {
    await limitMailRoute(request, 'verify-email');
    const account = await platform.accounts.verifyEmail(request.body.token);
    await audit(platform, request, account.id, 'account.email.verify');
    return { account };
  });

  // Always 204, known address or not, and at once: looking the address up, issuing the token and
  // sending happen after the answer, so neither its content nor its timing tells (no enumeration).
  app.post<{ Body: { email: string } }>('/auth/forgot-password', { schema: schemas.forgotPassword }, async (request, reply) => {
    const email = request.body.email.trim();
    if (!isEmail(email)) throw ValidationError.fromFieldErrors([{ path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: email }]);
    await limitMailRoute(request, 'forgot-password', email);
    const origin = requestOrigin(request);
    platform.background.run('forgot-password', async () => {
      const account = await platform.accounts.findByEmail(email);
      // An account of a single sign-on connection has no password to reset: it signs in at its provider.
      if (!account || (await platform.sso.store.isManaged(account.id))) return;
      const token = await platform.accountTokens.issue(account.id, 'reset-password');
      await platform.mailer.send(resetPasswordMail(account.email, linkTo(origin, 'reset-password', token)));
    });
    return reply.status(204).send();
  });

  // Sets the password, marks the address verified and ends every session of the account.
  app.post<{ Body: { token: string; password: string } }>('/auth/reset-password', { schema: schemas.resetPassword }, async (request, reply) => {
    await limitMailRoute(request, 'reset-password');
    const accountId = await platform.accounts.resetPassword(request.body.token, request.body.password);
    await audit(platform, request, accountId, 'account.password.reset');
    return reply.status(204).send();
  });

  // Deletes the account, its sessions and memberships, and the projects it is the only owner of.
  app.delete<{ Body: { password: string } }>('/auth/account', { onRequest: authenticate, schema: schemas.deleteAccount }, async (request, reply) => {
    await platform.accounts.checkPassword(request.accountId, request.body.password);
    await deleteAccount(platform, request.accountId);
    clearSessionCookies(request, reply);
    return reply.status(204).send();
  });
}
