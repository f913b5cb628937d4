// The few parts of oidc-provider 9 (no type declarations of its own) that test/helpers/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientLike {
    grantTypeAllowed(grant: string): boolean;
  }
  interface AccountLike {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface ContextLike {
    oidc: { params?: Record<string, unknown> };
  }
  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    findAccount?(ctx: ContextLike, id: string): Promise<AccountLike | undefined>;
    claims?: Record<string, string[]>;
    scopes?: string[];
    conformIdTokenClaims?: boolean;
    issueRefreshToken?(ctx: ContextLike, client: ClientLike, code: unknown): Promise<boolean>;
    pkce?: { required?(): boolean };
    cookies?: { keys?: string[] };
    features?: Record<string, { enabled: boolean }>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: ContextLike, ...args: unknown[]) => void): this;
  }
}
