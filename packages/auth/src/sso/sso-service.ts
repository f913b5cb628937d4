// Single sign-on with OpenID Connect (docs/single-sign-on.md): a project's connection to its
// identity provider, the sign-in (code flow with PKCE, state and nonce; the pending login kept in
// a sealed short-lived cookie), provisioning on first sign-in, and the recheck at the provider
// that ends a session as soon as the provider refuses its user.
import { Resolver } from 'node:dns/promises';
import { LRUCache } from 'lru-cache';
import type { Db } from '@cms/db';
import { ValidationError, type FieldError } from '@cms/errors';
import { isEmail } from '../accounts.ts';
import { seal, unseal } from '../sealed.ts';
import { deriveKey } from '../secrets.ts';
import {
  authorizationUrl, discoverProvider, DiscoveryError, exchangeCode, newPendingLogin, ProviderError, refreshAtProvider, type PendingLogin, type Provider,
  type ProviderOptions,
} from './oidc.ts';
import { SSO_ROLES, SsoStore, type SsoConnection, type SsoConnectionOfDomain, type SsoRole } from './sso-store.ts';

/** Why a sign-in was refused: the code the dashboard's sign-in page is sent back with, and its text. */
export const SSO_LOGIN_ERRORS = {
  expired: 'The single sign-on attempt expired or was started in another browser: start again',
  failed: 'The answer of the identity provider could not be verified: start again',
  denied: 'The identity provider did not sign you in',
  unverified: 'The identity provider did not confirm your e-mail address',
  domain: 'Your e-mail address at the identity provider is not in the domain this single sign-on is for',
  taken: 'An account with this e-mail address already exists and signs in with its password: sign in with it',
  offline: 'The identity provider issued no refresh token: its administrator must allow offline access (offline_access) for this client',
  unavailable: 'Single sign-on is not available for this e-mail address',
} as const;
export type SsoLoginErrorCode = keyof typeof SSO_LOGIN_ERRORS;

export class SsoLoginError extends Error {
  constructor(readonly code: SsoLoginErrorCode, readonly reason?: unknown, readonly accountId: number | null = null) {
    super(SSO_LOGIN_ERRORS[code]);
  }
}

export interface SsoOptions {
  /** How long a session's last confirmation by the provider holds before the next (SSO_RECHECK_SECONDS). */
  recheckSeconds: number;
  provider: ProviderOptions;
  /** The DNS servers to read domain proofs from (SSO_DNS_SERVERS); empty: the system's. */
  dnsServers: readonly string[];
  /** Whether the project's plan includes single sign-on now. */
  planAllows(project: SsoConnectionOfDomain['project']): boolean;
  /** A check the provider could not answer (the session goes on; the next check tries again). */
  onError(err: unknown, sessionId: number): void;
  /** A session ended because its provider refused it or its connection is gone (for the audit log). */
  onSessionEnded(sessionId: number, accountId: number): Promise<void>;
}

export interface ConnectionInput {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  emailDomain: string;
  defaultRole: string;
}

/** A started sign-in: where to send the browser, and the sealed pending login for its cookie. */
export interface StartedLogin {
  url: string;
  pending: string;
}

export interface FinishedLogin {
  accountId: number;
  /** The account was created now. */
  created: boolean;
  /** The account was linked to the connection now (created, or taken over from a removed connection). */
  linked: boolean;
  connection: SsoConnectionOfDomain;
  refreshToken: string;
}

/** How long a started sign-in may take at the provider. */
export const PENDING_LOGIN_SECONDS = 600;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

interface SealedPending extends PendingLogin {
  connectionId: number;
  redirectUri: string;
  expiresAt: number;
}

const field = (path: string, message: string): FieldError => ({ path: [path], message, name: 'ValidationError' });

/** Where a project proves it holds its connection's domain, and what the TXT record must say. */
export function domainProof(connection: Pick<SsoConnection, 'emailDomain' | 'domainToken'>): { name: string; value: string } {
  return { name: `_cms-sso.${connection.emailDomain}`, value: `cms-sso-verification=${connection.domainToken}` };
}

export class SsoService {
  readonly store: SsoStore;
  private readonly loginKey: Buffer;
  /** Providers by connection and version: discovery is read once, not at every sign-in. */
  private readonly providers = new LRUCache<string, Promise<Provider>>({ max: 500, ttl: 10 * 60_000 });
  /** Checks in flight, by session: concurrent requests of one session share one refresh. */
  private readonly checks = new Map<number, Promise<boolean>>();
  /** Sessions confirmed by this process within the interval (nothing to read until it passes). */
  private readonly confirmed: LRUCache<number, true>;
  /**
   * Sessions not opened by single sign-on (never become one: only the callback makes one).
   * 100,000 sessions here and in `confirmed`, counted as a size: with `max` each cache would
   * allocate its 100,000 slots up front (7 MB of every gateway together, however few sessions).
   */
  private readonly notSso = new LRUCache<number, true>({ maxSize: 100_000, sizeCalculation: () => 1 });

  constructor(db: Db, appSecret: string, private readonly options: SsoOptions) {
    this.store = new SsoStore(db, deriveKey(appSecret, 'sso-secret'));
    this.loginKey = deriveKey(appSecret, 'sso-login');
    this.confirmed = new LRUCache<number, true>({ maxSize: 100_000, sizeCalculation: () => 1, ttl: options.recheckSeconds * 1000 });
  }

  /**
   * Create or replace a project's connection, once the issuer's discovery document was read and
   * checked (a 400 saying what is wrong otherwise). The secret may be left out of an update.
   */
  async configure(projectId: number, input: ConnectionInput): Promise<SsoConnection> {
    const errors: FieldError[] = [];
    const issuer = input.issuer.trim();
    let url: URL | null = null;
    try {
      url = new URL(issuer);
    } catch { /* reported below */ }
    const schemeOk = url?.protocol === 'https:' || (this.options.provider.allowHttp && url?.protocol === 'http:');
    if (!url || !schemeOk || url.search || url.hash || url.username || url.password) {
      errors.push(field('issuer', 'issuer must be the https URL of the identity provider (without query or fragment)'));
    }
    if (input.clientId.trim() === '') errors.push(field('clientId', 'clientId must not be empty'));
    const domain = input.emailDomain.trim().toLowerCase();
    if (!DOMAIN.test(domain)) errors.push(field('emailDomain', 'emailDomain must be a domain name, like example.com'));
    if (!(SSO_ROLES as readonly string[]).includes(input.defaultRole)) {
      errors.push(field('defaultRole', `defaultRole must be one of the following values: ${SSO_ROLES.join(', ')}`));
    }
    const existing = await this.store.forProject(projectId);
    if (input.clientSecret !== undefined && input.clientSecret === '') errors.push(field('clientSecret', 'clientSecret must not be empty'));
    if (input.clientSecret === undefined && !existing) errors.push(field('clientSecret', 'clientSecret is required'));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const secret = input.clientSecret ?? (await this.store.clientSecret(existing!));
    try {
      await discoverProvider(issuer, input.clientId.trim(), secret, this.options.provider);
    } catch (err) {
      if (err instanceof DiscoveryError) throw ValidationError.fromFieldErrors([field('issuer', err.message)]);
      throw err;
    }
    return this.store.save(projectId, {
      issuer, clientId: input.clientId.trim(), clientSecret: input.clientSecret, emailDomain: domain, defaultRole: input.defaultRole as SsoRole,
    });
  }

  /**
   * Check the DNS TXT record proving the project holds its connection's domain: the connection
   * then serves sign-in. A 400 on `emailDomain` saying what was found otherwise; a 409 when
   * another project proved it first.
   */
  async verifyDomain(connection: SsoConnection): Promise<SsoConnection> {
    if (connection.domainVerifiedAt !== null) return connection;
    const { name, value } = domainProof(connection);
    const resolver = new Resolver({ timeout: 5000, tries: 2 });
    if (this.options.dnsServers.length) resolver.setServers([...this.options.dnsServers]);
    let found: string[] = [];
    try {
      found = (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== 'ENOTFOUND' && code !== 'ENODATA') {
        throw ValidationError.fromFieldErrors([field('emailDomain', `Could not read the TXT records of ${name} (${code ?? 'DNS error'}): try again later`)]);
      }
    }
    if (!found.includes(value)) {
      const seen = found.length ? `found: ${found.map((f) => JSON.stringify(f.slice(0, 100))).join(', ')}` : 'none found';
      throw ValidationError.fromFieldErrors([field('emailDomain', `Add a TXT record at ${name} with the value ${value}, then verify again (${seen})`)]);
    }
    return this.store.markDomainVerified(connection);
  }

  /** Start signing in an e-mail address: null when no connection (of a plan with single sign-on) claims its domain. */
  async start(email: string, redirectUri: string): Promise<StartedLogin | null> {
    const domain = isEmail(email) ? email.slice(email.lastIndexOf('@') + 1) : null;
    const connection = domain ? await this.store.ofDomain(domain) : null;
    if (!connection || !this.options.planAllows(connection.project)) return null;
    const provider = await this.provider(connection);
    const pending = await newPendingLogin();
    const url = await authorizationUrl(provider, redirectUri, pending, email);
    const sealed: SealedPending = { ...pending, connectionId: connection.id, redirectUri, expiresAt: Date.now() + PENDING_LOGIN_SECONDS * 1000 };
    return { url: url.href, pending: seal(this.loginKey, JSON.stringify(sealed), 'sso-login') };
  }

  /**
   * Complete a sign-in at the callback: the pending login of this browser, the code exchanged and
   * the ID token checked, its e-mail verified and in the connection's domain, and the account
   * found or provisioned. Every refusal is an SsoLoginError.
   */
  async finish(callbackUrl: URL, sealedPending: string | undefined): Promise<FinishedLogin> {
    const pending = this.openPending(sealedPending);
    if (!pending) throw new SsoLoginError('expired');
    const connection = await this.store.byId(pending.connectionId);
    if (!connection || connection.domainVerifiedAt === null || !this.options.planAllows(connection.project)) throw new SsoLoginError('unavailable');
    if (callbackUrl.searchParams.has('error')) throw new SsoLoginError('denied', callbackUrl.searchParams.get('error'));
    const provider = await this.provider(connection);
    let result;
    try {
      result = await exchangeCode(provider, callbackUrl, pending.redirectUri, pending);
    } catch (err) {
      throw new SsoLoginError('failed', err);
    }
    const email = typeof result.email === 'string' ? result.email.trim() : '';
    if (!isEmail(email) || result.emailVerified !== true) throw new SsoLoginError('unverified');
    if (email.slice(email.lastIndexOf('@') + 1).toLowerCase() !== connection.emailDomain.toLowerCase()) throw new SsoLoginError('domain');
    if (!result.refreshToken) throw new SsoLoginError('offline');
    const name = typeof result.name === 'string' && result.name.trim() !== '' ? result.name.trim() : null;
    const signed = await this.store.signIn(connection, { subject: result.claims.sub, email, name });
    if ('refused' in signed) throw new SsoLoginError('taken', undefined, signed.refused);
    return { ...signed, connection, refreshToken: result.refreshToken };
  }

  /** The session just opened by `finish` is an SSO session: rechecked at the provider from now on. */
  async attachSession(sessionId: number, login: FinishedLogin): Promise<void> {
    await this.store.attachSession(sessionId, login.connection.id, login.refreshToken);
    this.confirmed.set(sessionId, true);
  }

  /**
   * Whether a session may still be used. Sessions not opened by single sign-on always may. An SSO
   * session last confirmed longer than the interval ago is refreshed at its provider first (one
   * refresh per session at a time, across gateways); a refusal ends the session at once (false).
   * A provider that cannot be reached does not end it: the next check after the interval asks again.
   */
  async sessionAllowed(sessionId: number): Promise<boolean> {
    if (this.notSso.has(sessionId) || this.confirmed.has(sessionId)) return true;
    let running = this.checks.get(sessionId);
    if (!running) {
      running = this.check(sessionId).finally(() => this.checks.delete(sessionId));
      this.checks.set(sessionId, running);
    }
    return running;
  }

  private async check(sessionId: number): Promise<boolean> {
    const row = await this.store.claimCheck(sessionId, this.options.recheckSeconds);
    if (!row) {
      this.notSso.set(sessionId, true);
      return true;
    }
    const connection = row.connectionId === null ? null : await this.store.byId(row.connectionId);
    if (!connection || row.refreshToken === null) return this.refuse(sessionId);
    if (!row.claimed) return true;
    try {
      const rotated = await refreshAtProvider(await this.provider(connection), row.refreshToken);
      if (rotated && rotated !== row.refreshToken) await this.store.storeRefreshToken(sessionId, rotated);
      this.confirmed.set(sessionId, true);
      return true;
    } catch (err) {
      if (err instanceof ProviderError && err.refused) return this.refuse(sessionId);
      this.options.onError(err, sessionId);
      return true;
    }
  }

  private async refuse(sessionId: number): Promise<false> {
    const accountId = await this.store.endSession(sessionId);
    this.confirmed.delete(sessionId);
    if (accountId !== null) await this.options.onSessionEnded(sessionId, accountId);
    return false;
  }

  /** Remove a project's connection; its sessions end at once. */
  async remove(projectId: number): Promise<boolean> {
    return this.store.remove(projectId);
  }

  private provider(connection: SsoConnection): Promise<Provider> {
    const key = `${connection.id}:${connection.updatedAt}`;
    let provider = this.providers.get(key);
    if (!provider) {
      provider = this.store.clientSecret(connection).then((secret) => discoverProvider(connection.issuer, connection.clientId, secret, this.options.provider));
      provider.catch(() => this.providers.delete(key));
      this.providers.set(key, provider);
    }
    return provider;
  }

  private openPending(sealed: string | undefined): SealedPending | null {
    if (!sealed || sealed.length > 4000) return null;
    const text = unseal(this.loginKey, sealed, 'sso-login');
    if (text === null) return null;
    const pending = JSON.parse(text) as SealedPending;
    return pending.expiresAt > Date.now() ? pending : null;
  }
}
