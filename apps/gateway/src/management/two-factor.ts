// Two-factor sign-in through the management API (docs/two-factor.md): setting up an authenticator,
// turning two-factor on (the recovery codes, once) and off, and the second step of login.
//
// Wrong codes are failed attempts: AUTH_RATE_LIMIT_MAX of them per account within
// AUTH_RATE_LIMIT_WINDOW_MS, then 429 until the window ends, whatever the code (right ones too), so
// the 10^6 TOTP codes and the recovery codes cannot be guessed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account, SecondFactor } from '@cms/auth';
import { RateLimitError, TwoFactorRequiredError, UnauthorizedError, ValidationError } from '@cms/errors';
import { hitLimit } from '@cms/limits';
import { twoFactorRoutes as schemas } from '@cms/management-api';
import type { Platform } from '../platform.ts';
import type { SessionRouteOptions } from './options.ts';
import { audit } from './sign-in-security.ts';

const wrongCode = () => ValidationError.fromFieldErrors([{ path: ['code'], message: 'The code is not correct', name: 'ValidationError' }]);

/** The failed-attempt budget of an account's codes (enable, disable, login all draw on it). */
function codeAttempts(platform: Platform) {
  const limit = platform.config.limits.authAttempts;
  const key = (accountId: number) => `two-factor:${accountId}`;
  return {
    /** 429 while the account's wrong codes are over the limit. */
    async check(accountId: number): Promise<void> {
      const { count, resetMs } = await platform.limitCounters.add(key(accountId), 0, limit.windowMs);
      if (count >= limit.max) throw new RateLimitError(Math.max(1, Math.ceil(resetMs / 1000)));
    },
    /** Count one wrong code (429 when it is one too many). */
    failed: (accountId: number) => hitLimit(platform.limitCounters, key(accountId), limit),
  };
}


/**
 * Login's second step, once the password was right: an account with two-factor on needs `code`,
 * a TOTP code or an unused recovery code (spent here); without one, or with a wrong one, 401
 * `TwoFactorRequired`. Accounts with two-factor off pass whatever `code` holds.
 */
export async function requireSecondFactor(platform: Platform, request: FastifyRequest, account: Account, code: string | undefined): Promise<void> {
  if (!account.twoFactorEnabled) return;
  if (code === undefined || code.trim() === '') throw new TwoFactorRequiredError();
  const attempts = codeAttempts(platform);
  await attempts.check(account.id);
  const factor = await platform.twoFactor.check(account.id, code);
  if (!factor) {
    await attempts.failed(account.id);
    throw new TwoFactorRequiredError('The code is not correct or was already used');
  }
  if (factor === 'recovery-code') {
    const { recoveryCodesLeft } = await platform.twoFactor.status(account.id);
    await audit(platform, request, account.id, 'account.2fa.recovery-code.use', { for: 'sign-in', remaining: recoveryCodesLeft });
  }
}

export async function twoFactorRoutes(app: FastifyInstance, { platform, authenticate }: SessionRouteOptions): Promise<void> {
  const attempts = codeAttempts(platform);

  /** Spend a code for an account-changing act, counting a wrong one. */
  async function verified(accountId: number, run: () => Promise<SecondFactor | string[] | null>) {
    await attempts.check(accountId);
    const result = await run();
    if (result === null) {
      await attempts.failed(accountId);
      throw wrongCode();
    }
    return result;
  }

  app.get('/auth/2fa', { onRequest: authenticate, schema: schemas.status }, async (request) => platform.twoFactor.status(request.accountId));

  // A new secret, shown this once (the QR code is made from otpauthUrl in the browser).
  app.post('/auth/2fa/setup', { onRequest: authenticate, schema: schemas.setup }, async (request) => {
    const account = await platform.accounts.get(request.accountId);
    if (!account) throw new UnauthorizedError();
    return platform.twoFactor.setup(account);
  });

  app.post<{ Body: { code: string } }>('/auth/2fa/enable', { onRequest: authenticate, schema: schemas.enable }, async (request) => {
    const recoveryCodes = await verified(request.accountId, () => platform.twoFactor.enable(request.accountId, request.body.code));
    await audit(platform, request, request.accountId, 'account.2fa.enable');
    return { recoveryCodes };
  });

  app.post<{ Body: { code: string } }>('/auth/2fa/disable', { onRequest: authenticate, schema: schemas.disable }, async (request) => {
    const factor = await verified(request.accountId, () => platform.twoFactor.disable(request.accountId, request.body.code));
    if (factor === 'recovery-code') await audit(platform, request, request.accountId, 'account.2fa.recovery-code.use', { for: 'disable', remaining: 0 });
    await audit(platform, request, request.accountId, 'account.2fa.disable', { method: factor });
    return { twoFactorEnabled: false };
  });
}
