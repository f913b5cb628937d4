// A real OpenID Connect provider (oidc-provider 9) in the test process, for single sign-on: one
// confidential client (code flow, PKCE, refresh tokens), users the test adds, disables or
// deletes, and a driver that signs a user in through the provider's own (development) login and
// consent pages over HTTP with a cookie jar, as a browser would, up to the redirect back.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpUser {
  email: string;
  emailVerified?: boolean;
  name?: string;
  /** A disabled user is unknown to the provider from then on (its refresh tokens stop working). */
  disabled?: boolean;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  users: Map<string, IdpUser>;
  /** Sign `login` (a user id) in through the provider from an authorization URL: the URL it redirects back to. */
  authorize(authorizationUrl: string, login: string, jar?: CookieJar): Promise<URL>;
  /** The refresh tokens the provider issued (their count, to see a refresh happen). */
  refreshes: number;
  close(): Promise<void>;
}

/** Cookies by name (paths ignored: the provider's names are distinct per purpose). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export async function startTestIdp(options: { redirectUris: string[]; clientId?: string; clientSecret?: string }): Promise<TestIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'cms-test-client';
  const clientSecret = options.clientSecret ?? `secret-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const users = new Map<string, IdpUser>();
  const idp = { refreshes: 0 } as TestIdp;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    async findAccount(_ctx, id) {
      const user = users.get(id);
      if (!user || user.disabled) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: user.email, email_verified: user.emailVerified ?? true, ...(user.name ? { name: user.name } : {}) };
        },
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    // The e-mail claims in the ID token itself (as most providers do), not only at userinfo.
    conformIdTokenClaims: false,
    // A refresh token for every code of this client (offline_access needs prompt=consent otherwise).
    async issueRefreshToken(_ctx, client) {
      return client.grantTypeAllowed('refresh_token');
    },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  provider.on('grant.success', (ctx) => {
    if (ctx.oidc.params?.grant_type === 'refresh_token') idp.refreshes += 1;
  });
  server.on('request', provider.callback());

  const redirectBase = options.redirectUris.map((u) => new URL(u));
  const isRedirectBack = (url: URL) => redirectBase.some((r) => r.origin === url.origin && r.pathname === url.pathname);

  async function authorize(authorizationUrl: string, login: string, jar = new CookieJar()): Promise<URL> {
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 20; hop += 1) {
      if (isRedirectBack(url)) return url;
      assert.equal(url.origin, issuer, `unexpected redirect to ${url.href}`);
      let res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.store(res);
      if (res.status === 200 && url.pathname.startsWith('/interaction/')) {
        const page = await res.text();
        const prompt = /name="prompt" value="(login|consent)"/.exec(page)?.[1];
        assert.ok(prompt, `no login or consent form at ${url.href}`);
        const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
        res = await fetch(url, { method: 'POST', redirect: 'manual', body, headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' } });
        jar.store(res);
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) throw new Error(`the provider answered ${res.status} at ${url.href}: ${await res.text()}`);
      await res.body?.cancel();
      url = new URL(location, url);
    }
    throw new Error('too many redirects at the provider');
  }

  return Object.assign(idp, {
    issuer, clientId, clientSecret, users, authorize,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
