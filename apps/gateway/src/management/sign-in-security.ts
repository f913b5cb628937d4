// Sign-in protection and what a sign-in leaves behind (docs/sessions.md):
//
// - `SignInGuard`: failed sign-ins lock the account (its normalised e-mail, keyed-hashed: unknown
//   addresses are locked the same way, so a lock tells nothing) and the client IP, exponentially
//   and capped (@cms/limits Lockout). A locked sign-in is 429 before any credential is checked.
// - `openSession`: the session with the client's IP and user agent, its cookies, and the device:
//   a sign-in from a device the account had not used is mailed to it.
// Sign-ins, refusals, locks and new devices go to the account's audit log (@cms/audit).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { auditSource, type AccountAction } from '@cms/audit';
import { deriveKey, deviceLabel, keyedHash, type Account } from '@cms/auth';
import { AppError, TwoFactorRequiredError } from '@cms/errors';
import { Lockout } from '@cms/limits';
import type { Platform } from '../platform.ts';
import { deviceCookieOf, setDeviceCookie } from './device-cookie.ts';
import { newDeviceMail } from './new-device-mail.ts';
import { requestOrigin } from './request-context.ts';
import { setSessionCookies } from './session-cookies.ts';

export class SignInGuard {
  private readonly accounts: Lockout;
  private readonly ips: Lockout;
  private readonly key: Buffer;

  constructor(private readonly platform: Platform) {
    const { accountThreshold, ipThreshold, baseMs, capMs, windowMs } = platform.config.limits.signIn;
    this.accounts = new Lockout(platform.limitCounters, 'sign-in:account:', { threshold: accountThreshold, baseMs, capMs, windowMs });
    this.ips = new Lockout(platform.limitCounters, 'sign-in:ip:', { threshold: ipThreshold, baseMs, capMs, windowMs });
    this.key = deriveKey(platform.config.appSecret, 'sign-in-lockout');
  }

  /**
   * Check credentials (`check`, which throws a 401 — wrong password, missing or wrong second
   * factor — when they are refused) under the lockout; a missing second factor after the right
   * password is the login's first step, not a failure. A refusal counts against the account and
   * the IP; a success clears the account's failures (not the IP's: one's own account must not
   * reset an attacker's budget).
   * Each outcome is in the account's audit log; a refused attempt while locked is not (it would
   * let anyone fill a victim's log at any rate).
   */
  async check(request: FastifyRequest, email: string, check: () => Promise<Account>): Promise<Account> {
    const normalised = email.trim().toLowerCase();
    const account = keyedHash(this.key, normalised).slice(0, 32);
    const ip = request.ip;
    await this.ips.attempt(ip);
    let failures: number;
    try {
      failures = await this.accounts.attempt(account);
    } catch (err) {
      await this.ips.release(ip);
      throw err;
    }
    let result: Account;
    try {
      result = await check();
    } catch (err) {
      // Refused credentials stay counted; anything else was no failed sign-in: a fault, or the
      // right password of a two-factor account sent without its code (the first of two steps).
      const reason = err instanceof AppError && err.status === 401 ? refusalReason(request, err) : null;
      if (reason === null || reason === 'two-factor-required') {
        await Promise.all([this.ips.release(ip), this.accounts.release(account)]);
        throw err;
      }
      const owner = (await this.platform.accounts.findByEmail(normalised))?.id ?? null;
      await audit(this.platform, request, owner, 'admin.auth.failure', { reason, email: normalised });
      const lockMs = this.accounts.lockFor(failures);
      if (lockMs > 0) await audit(this.platform, request, owner, 'admin.auth.lockout', { until: new Date(Date.now() + lockMs).toISOString(), failures });
      throw err;
    }
    await Promise.all([this.ips.release(ip), this.accounts.clear(account)]);
    await audit(this.platform, request, result.id, 'admin.auth.success', { method: result.twoFactorEnabled ? 'two-factor' : 'password' });
    return result;
  }
}

/** Why a sign-in was refused: the password (or address), the second factor missing (the password was right), or a wrong code. */
function refusalReason(request: FastifyRequest, err: AppError): string {
  if (!(err instanceof TwoFactorRequiredError)) return 'password';
  const code = (request.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.trim() !== '' ? 'two-factor' : 'two-factor-required';
}

/** An entry of the account's audit log; a failure to write it is logged, not answered. */
export async function audit(platform: Platform, request: FastifyRequest, accountId: number | null, action: AccountAction, payload: Record<string, unknown> = {}): Promise<void> {
  await platform.audit.recordAccount({ accountId, action, ...auditSource(request), payload })
    .catch((err: unknown) => request.log.error({ err, action }, 'could not write the audit log'));
}

/**
 * A new session for an account that has just proved who it is (signup, password, two-factor,
 * single sign-on): stores the client IP and user agent, sets the session and device cookies, and
 * — when the device is new to an account that signed in before — mails the account after the
 * answer. Returns the session token.
 */
export async function openSession(platform: Platform, request: FastifyRequest, reply: FastifyReply, accountId: number): Promise<string> {
  const userAgent = request.headers['user-agent'];
  const token = await platform.sessions.create(accountId, userAgent, request.ip);
  setSessionCookies(request, reply, platform.sessions, token);
  const device = await platform.knownDevices.record(accountId, { cookie: deviceCookieOf(request), userAgent, ip: request.ip });
  setDeviceCookie(request, reply, device.cookie);
  if (device.isNew) {
    await audit(platform, request, accountId, 'account.session.new-device', { device: deviceLabel(userAgent) });
    const facts = { device: deviceLabel(userAgent), ip: request.ip, at: new Date(), accountPage: `${requestOrigin(request)}/account` };
    platform.background.run('new-device-mail', async () => {
      const account = await platform.accounts.get(accountId);
      if (account) await platform.mailer.send(newDeviceMail(account.email, facts));
    });
  }
  return token;
}
