// The OpenID Connect client side (openid-client 6, imported at first use: only single sign-on
// needs it): reading a provider's discovery document, the authorization code flow with PKCE
// (S256), state and nonce, and refreshing at the provider. Every request to a provider goes
// through the caller's egress check (no requests to private addresses, see the gateway's).
import type { Configuration, IDToken, ServerMetadata } from 'openid-client';

type OpenId = typeof import('openid-client');
let loaded: Promise<OpenId> | undefined;
const openid = (): Promise<OpenId> => (loaded ??= import('openid-client'));

export interface ProviderOptions {
  /** Refuses a URL the platform must not call (throws with the reason). */
  checkEgress(url: URL): Promise<void>;
  /** Allow `http:` issuers (development and tests only). */
  allowHttp: boolean;
  /** One request's time limit, seconds. */
  timeoutSeconds: number;
}

/** What the provider's discovery document lacks or what went wrong reading it: a 400 for the owner. */
export class DiscoveryError extends Error {}

/** The provider answered no (invalid_grant, a disabled user, revoked consent…): `refused`; else it could not be asked. */
export class ProviderError extends Error {
  constructor(message: string, readonly refused: boolean) {
    super(message);
  }
}

export interface Provider {
  config: Configuration;
  metadata: ServerMetadata;
}

export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
}

export interface CodeResult {
  claims: IDToken;
  /** The e-mail claims, from the ID token or, when it has none, the userinfo endpoint. */
  email: unknown;
  emailVerified: unknown;
  name: unknown;
  refreshToken: string | undefined;
}

export const SSO_SCOPE = 'openid email profile offline_access';

/** The provider of an issuer, its discovery document read and checked. */
export async function discoverProvider(issuer: string, clientId: string, clientSecret: string, options: ProviderOptions): Promise<Provider> {
  const client = await openid();
  const fetcher = guardedFetch(options);
  let discovered: Configuration;
  try {
    discovered = await client.discovery(new URL(issuer), clientId, undefined, client.None(), {
      execute: options.allowHttp ? [client.allowInsecureRequests] : [],
      [client.customFetch]: fetcher,
      timeout: options.timeoutSeconds,
    });
  } catch (err) {
    throw new DiscoveryError(`Could not read the discovery document of ${issuer} (${issuer.replace(/\/$/, '')}/.well-known/openid-configuration): ${reasonOf(err)}`);
  }
  const metadata = discovered.serverMetadata();
  const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter((k) => typeof metadata[k] !== 'string');
  if (missing.length) throw new DiscoveryError(`The discovery document of ${issuer} has no ${missing.join(', ')}`);
  if (Array.isArray(metadata.response_types_supported) && !metadata.response_types_supported.includes('code')) {
    throw new DiscoveryError(`${issuer} does not support the authorization code flow (response_types_supported has no "code")`);
  }
  if (Array.isArray(metadata.code_challenge_methods_supported) && !metadata.code_challenge_methods_supported.includes('S256')) {
    throw new DiscoveryError(`${issuer} does not support PKCE with S256 (code_challenge_methods_supported)`);
  }
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const auth = methods.includes('client_secret_basic') ? client.ClientSecretBasic(clientSecret)
    : methods.includes('client_secret_post') ? client.ClientSecretPost(clientSecret) : null;
  if (!auth) throw new DiscoveryError(`${issuer} accepts neither client_secret_basic nor client_secret_post at its token endpoint`);
  const config = new client.Configuration(metadata, clientId, { client_secret: clientSecret }, auth);
  config[client.customFetch] = fetcher;
  config.timeout = options.timeoutSeconds;
  if (options.allowHttp) client.allowInsecureRequests(config);
  // The ID token's signature is checked against the provider's JWKS too (not only TLS to the token endpoint).
  client.enableNonRepudiationChecks(config);
  return { config, metadata };
}

/** A new pending login: its state, nonce and PKCE verifier, kept by the caller until the callback. */
export async function newPendingLogin(): Promise<PendingLogin> {
  const client = await openid();
  return { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() };
}

export async function authorizationUrl(provider: Provider, redirectUri: string, pending: PendingLogin, loginHint: string): Promise<URL> {
  const client = await openid();
  return client.buildAuthorizationUrl(provider.config, {
    redirect_uri: redirectUri,
    scope: SSO_SCOPE,
    response_type: 'code',
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    login_hint: loginHint,
  });
}

/**
 * Complete the code flow at the callback URL: the state must be the pending login's, the code is
 * exchanged with the PKCE verifier, and the ID token must be the issuer's, for this client, with
 * the pending login's nonce (openid-client checks them all, throwing otherwise).
 */
export async function exchangeCode(provider: Provider, callbackUrl: URL, redirectUri: string, pending: PendingLogin): Promise<CodeResult> {
  const client = await openid();
  const tokens = await client.authorizationCodeGrant(provider.config, callbackUrl, {
    expectedState: pending.state, expectedNonce: pending.nonce, pkceCodeVerifier: pending.verifier, idTokenExpected: true,
  }, { redirect_uri: redirectUri });
  const claims = tokens.claims();
  if (!claims) throw new ProviderError('the provider returned no ID token', true);
  let source: Record<string, unknown> = claims;
  if (claims.email === undefined) source = await client.fetchUserInfo(provider.config, tokens.access_token, claims.sub);
  return { claims, email: source.email, emailVerified: source.email_verified, name: source.name, refreshToken: tokens.refresh_token };
}

/** Ask the provider whether the user still may sign in: a new refresh token (rotated) or undefined (kept). */
export async function refreshAtProvider(provider: Provider, refreshToken: string): Promise<string | undefined> {
  const client = await openid();
  try {
    const tokens = await client.refreshTokenGrant(provider.config, refreshToken);
    return tokens.refresh_token;
  } catch (err) {
    // An OAuth error answer (4xx): the provider refuses. Anything else: it could not be asked.
    if (err instanceof client.ResponseBodyError && err.status < 500) throw new ProviderError(`${err.error}: ${err.error_description ?? ''}`, true);
    throw new ProviderError(reasonOf(err), false);
  }
}

function guardedFetch(options: ProviderOptions) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const target = new URL(url);
    await options.checkEgress(target);
    // Never follow a redirect to somewhere unchecked.
    return fetch(target, { ...init, redirect: 'manual' });
  };
}

/** A one-line reason for an owner, without stack or internals (openid-client wraps the cause: the innermost one says what happened). */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOTFOUND') return 'the host name does not resolve';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number') return `it answered HTTP ${status}`;
  if (err.cause instanceof Response) return `it answered HTTP ${err.cause.status}`;
  if (err.cause instanceof Error) return reasonOf(err.cause);
  return err.message.slice(0, 300);
}
