// The rows of single sign-on: each project's connection to its identity provider (the client
// secret sealed), the accounts it provisioned (linked by the provider's subject) and the sessions
// it opened (the provider's refresh token sealed, and when the provider last confirmed them).
import { randomBytes } from 'node:crypto';
import { compiledQuery, exec, rows, sqlState, type Db } from '@cms/db';
import { ApplicationError } from '@cms/errors';
import { hashPassword } from '../passwords.ts';
import { seal, unseal } from '../sealed.ts';
import { randomToken } from '../secrets.ts';

/** The member roles a connection may give the accounts it creates (never `owner`). */
export const SSO_ROLES = ['editor', 'viewer'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];

export interface SsoConnection {
  id: number;
  projectId: number;
  issuer: string;
  clientId: string;
  emailDomain: string;
  defaultRole: SsoRole;
  /** What the TXT record proving the domain must hold (published in DNS: not a secret). */
  domainToken: string;
  /** When the project proved it holds the domain; null: not yet (the connection serves no sign-in). */
  domainVerifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A connection with what sign-in needs of its project: the plan, whether it is live. */
export interface SsoConnectionOfDomain extends SsoConnection {
  project: { id: number; slug: string; plan: string; planGraceUntil: string | null };
}

export interface SsoConnectionInput {
  issuer: string;
  clientId: string;
  /** Absent: keep the stored one (an update that does not change the secret). */
  clientSecret?: string;
  emailDomain: string;
  defaultRole: SsoRole;
}

/** An SSO session as the recheck sees it. */
export interface SsoSessionRow {
  sessionId: number;
  connectionId: number | null;
  /** Unsealed; null when it no longer opens (another APP_SECRET): the session cannot be confirmed. */
  refreshToken: string | null;
  /** Whether the session is due for a check: claimed by this caller (nobody else checks it now). */
  claimed: boolean;
}

/** Signed in (the account, whether it was created or linked now), or refused (the account of the e-mail, if known). */
export type SignInOutcome = { accountId: number; created: boolean; linked: boolean } | { refused: number | null };

export const DOMAIN_TAKEN_MESSAGE = 'Another project already uses single sign-on for this e-mail domain';
const domainTaken = () => new ApplicationError(DOMAIN_TAKEN_MESSAGE, { path: ['emailDomain'] }, 409);

const COLUMNS = `c.id::int AS id, c.project_id::int AS "projectId", c.issuer, c.client_id AS "clientId", c.email_domain AS "emailDomain",
  c.default_role AS "defaultRole", c.domain_token AS "domainToken", c.domain_verified_at AS "domainVerifiedAt",
  c.created_at AS "createdAt", c.updated_at AS "updatedAt"`;

const PROJECT_JSON = `json_build_object('id', p.id, 'slug', p.slug, 'plan', p.plan, 'planGraceUntil', p.plan_grace_until) AS project`;

const secretBinding = (projectId: number) => `sso-connection:${projectId}`;
const refreshBinding = (sessionId: number) => `sso-session:${sessionId}`;

export class SsoStore {
  constructor(private readonly db: Db, private readonly key: Buffer) {}

  async forProject(projectId: number): Promise<SsoConnection | null> {
    const [found] = await rows<SsoConnection>(this.db, `SELECT ${COLUMNS} FROM platform.sso_connections c WHERE c.project_id = $1`, [projectId]);
    return found ?? null;
  }

  /** The connection whose project proved it holds an e-mail domain, of a project that is not deleted. */
  async ofDomain(domain: string): Promise<SsoConnectionOfDomain | null> {
    const [found] = await rows<SsoConnectionOfDomain>(this.db, `SELECT ${COLUMNS}, ${PROJECT_JSON}
      FROM platform.sso_connections c JOIN platform.projects p ON p.id = c.project_id
      WHERE lower(c.email_domain) = lower($1) AND c.domain_verified_at IS NOT NULL AND p.deleted_at IS NULL`, [domain]);
    return found ?? null;
  }

  /** A connection by id, of a project that is not deleted. */
  async byId(id: number): Promise<SsoConnectionOfDomain | null> {
    const [found] = await rows<SsoConnectionOfDomain>(this.db, `SELECT ${COLUMNS}, ${PROJECT_JSON}
      FROM platform.sso_connections c JOIN platform.projects p ON p.id = c.project_id WHERE c.id = $1 AND p.deleted_at IS NULL`, [id]);
    return found ?? null;
  }

  /** The client secret of a connection, unsealed. */
  async clientSecret(connection: SsoConnection): Promise<string> {
    const [row] = await rows<{ secret: string }>(this.db, 'SELECT client_secret AS secret FROM platform.sso_connections WHERE id = $1', [connection.id]);
    const secret = row ? unseal(this.key, row.secret, secretBinding(connection.projectId)) : null;
    if (secret === null) throw new Error(`the client secret of SSO connection ${connection.id} does not open (APP_SECRET changed?)`);
    return secret;
  }

  /**
   * Create or replace the project's connection. A domain another project proved it holds is a
   * 409; a new domain must be proved again (a new token); a connection whose issuer or client
   * changes ends the sessions it opened (they were confirmed by the old provider).
   */
  async save(projectId: number, input: SsoConnectionInput): Promise<SsoConnection> {
    try {
      return await this.db.transaction(async (tx) => {
        const [taken] = await rows(tx, 'SELECT 1 FROM platform.sso_connections WHERE lower(email_domain) = lower($1) AND domain_verified_at IS NOT NULL AND project_id <> $2',
          [input.emailDomain, projectId]);
        if (taken) throw domainTaken();
        const [before] = await rows<{ id: number; issuer: string; clientId: string }>(tx,
          'SELECT id::int AS id, issuer, client_id AS "clientId" FROM platform.sso_connections WHERE project_id = $1 FOR UPDATE', [projectId]);
        const sealed = input.clientSecret === undefined ? null : seal(this.key, input.clientSecret, secretBinding(projectId));
        const sameDomain = 'lower(c.email_domain) = lower(excluded.email_domain)';
        const [saved] = await rows<SsoConnection>(tx, `INSERT INTO platform.sso_connections AS c
              (project_id, issuer, client_id, client_secret, email_domain, default_role, domain_token)
            VALUES ($1, $2, $3, $4, $5, $6, $8)
            ON CONFLICT (project_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id,
              client_secret = coalesce($7, c.client_secret), email_domain = excluded.email_domain, default_role = excluded.default_role,
              domain_token = CASE WHEN ${sameDomain} THEN c.domain_token ELSE excluded.domain_token END,
              domain_verified_at = CASE WHEN ${sameDomain} THEN c.domain_verified_at END, updated_at = now()
            RETURNING ${COLUMNS}`,
        [projectId, input.issuer, input.clientId, sealed ?? '', input.emailDomain, input.defaultRole, sealed, randomBytes(18).toString('base64url')]);
        if (before && (before.issuer !== input.issuer || before.clientId !== input.clientId)) await endSessions(tx, before.id);
        return saved!;
      });
    } catch (err) {
      if (sqlState(err) === '23505') throw domainTaken();
      throw err;
    }
  }

  /** The project proved it holds its connection's domain: the connection serves sign-in (409 when another project proved it first). */
  async markDomainVerified(connection: SsoConnection): Promise<SsoConnection> {
    try {
      const [saved] = await rows<SsoConnection>(this.db, `UPDATE platform.sso_connections c SET domain_verified_at = now()
        WHERE id = $1 AND domain_token = $2 RETURNING ${COLUMNS}`, [connection.id, connection.domainToken]);
      return saved ?? connection;
    } catch (err) {
      if (sqlState(err) === '23505') throw domainTaken();
      throw err;
    }
  }

  /** Remove the project's connection and end every session it opened; false when it had none. */
  async remove(projectId: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [found] = await rows<{ id: number }>(tx, 'SELECT id::int AS id FROM platform.sso_connections WHERE project_id = $1 FOR UPDATE', [projectId]);
      if (!found) return false;
      await endSessions(tx, found.id);
      await exec(tx, 'DELETE FROM platform.sso_connections WHERE id = $1', [found.id]);
      return true;
    });
  }

  /** Whether an account is managed by a connection (no password of its own: none can be set by mail). */
  async isManaged(accountId: number): Promise<boolean> {
    const [found] = await rows(this.db, 'SELECT 1 FROM platform.sso_identities WHERE account_id = $1 AND connection_id IS NOT NULL', [accountId]);
    return found !== undefined;
  }

  /**
   * The account a provider's user signs in as, provisioning it on first sign-in:
   * - the account already linked to this connection and subject;
   * - else, for an e-mail without an account, a new account (verified address, no usable
   *   password) linked to the subject, and a member of the project with the default role;
   * - else an account the connection may take over: one provisioned by a connection of the same
   *   project that was removed since (and not linked elsewhere);
   * - anything else (a password account, an account of another connection or another subject)
   *   is refused. An identity provider never takes over an account it did not create.
   */
  async signIn(connection: SsoConnection, claims: { subject: string; email: string; name: string | null }): Promise<SignInOutcome> {
    return this.db.transaction(async (tx) => {
      const [linked] = await rows<{ accountId: number }>(tx,
        'SELECT account_id::int AS "accountId" FROM platform.sso_identities WHERE connection_id = $1 AND subject = $2', [connection.id, claims.subject]);
      if (linked) return { accountId: linked.accountId, created: false, linked: false };
      const [existing] = await rows<{ id: number; connectionId: number | null; projectId: number | null }>(tx,
        `SELECT a.id::int AS id, i.connection_id::int AS "connectionId", i.project_id::int AS "projectId"
         FROM platform.accounts a LEFT JOIN platform.sso_identities i ON i.account_id = a.id WHERE lower(a.email) = lower($1) FOR UPDATE OF a`, [claims.email]);
      if (existing) {
        if (existing.projectId !== connection.projectId || existing.connectionId !== null) return { refused: existing.id };
        await exec(tx, 'UPDATE platform.sso_identities SET connection_id = $2, subject = $3 WHERE account_id = $1', [existing.id, connection.id, claims.subject]);
        await join(tx, connection, existing.id);
        return { accountId: existing.id, created: false, linked: true };
      }
      // No usable password: the hash of a random secret nobody knows, so a password login is
      // refused after the same work as any wrong password (its timing tells nothing).
      const noPassword = await hashPassword(randomToken('sso_'));
      const [account] = await rows<{ id: number }>(tx, `INSERT INTO platform.accounts (email, name, password_hash, email_verified_at)
          VALUES ($1, $2, $3, now()) ON CONFLICT DO NOTHING RETURNING id::int AS id`, [claims.email, claims.name?.slice(0, 200) ?? null, noPassword]);
      if (!account) return { refused: null };
      await exec(tx, 'INSERT INTO platform.sso_identities (account_id, connection_id, project_id, subject) VALUES ($1, $2, $3, $4)',
        [account.id, connection.id, connection.projectId, claims.subject]);
      await join(tx, connection, account.id);
      return { accountId: account.id, created: true, linked: true };
    });
  }

  /** Remember that a session was opened by the connection, with the provider's refresh token. */
  async attachSession(sessionId: number, connectionId: number, refreshToken: string): Promise<void> {
    await exec(this.db, 'INSERT INTO platform.sso_sessions (session_id, connection_id, refresh_token) VALUES ($1, $2, $3)',
      [sessionId, connectionId, seal(this.key, refreshToken, refreshBinding(sessionId))]);
  }

  /**
   * The SSO row of a session, or null for a session not opened by single sign-on. When its last
   * check is older than `intervalSeconds`, it is claimed (its check time moved to now) so that one
   * caller, on any gateway, refreshes at the provider while the others go on.
   */
  async claimCheck(sessionId: number, intervalSeconds: number): Promise<SsoSessionRow | null> {
    const [row] = await rows<{ sessionId: number; connectionId: number | null; refreshToken: string; claimed: boolean }>(this.db,
      // The condition is on the updated row itself: a concurrent claim (another gateway) waits for
      // the row lock, sees the new check time and claims nothing.
      `WITH claimed AS (UPDATE platform.sso_sessions SET checked_at = now()
                        WHERE session_id = $1 AND checked_at <= now() - make_interval(secs => $2) RETURNING session_id)
       SELECT s.session_id::int AS "sessionId", s.connection_id::int AS "connectionId", s.refresh_token AS "refreshToken",
              EXISTS (SELECT 1 FROM claimed) AS claimed
       FROM platform.sso_sessions s WHERE s.session_id = $1`, [sessionId, intervalSeconds]);
    if (!row) return null;
    return { ...row, refreshToken: unseal(this.key, row.refreshToken, refreshBinding(sessionId)) };
  }

  /** The provider rotated the refresh token: keep the new one. */
  async storeRefreshToken(sessionId: number, refreshToken: string): Promise<void> {
    await exec(this.db, 'UPDATE platform.sso_sessions SET refresh_token = $2 WHERE session_id = $1',
      [sessionId, seal(this.key, refreshToken, refreshBinding(sessionId))]);
  }

  /** End a session (the provider refused it): its account, or null when it had ended already. */
  async endSession(sessionId: number): Promise<number | null> {
    const [ended] = await rows<{ accountId: number }>(this.db, 'DELETE FROM platform.sessions WHERE id = $1 RETURNING account_id::int AS "accountId"', [sessionId]);
    return ended?.accountId ?? null;
  }
}

/** The account joins the connection's project with the default role (a member keeps its role). */
async function join(tx: Db, connection: SsoConnection, accountId: number): Promise<void> {
  await tx.query(compiledQuery({
    text: 'INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, $3) ON CONFLICT (project_id, account_id) DO NOTHING',
    values: [connection.projectId, accountId, connection.defaultRole],
  }));
}

async function endSessions(tx: Db, connectionId: number): Promise<void> {
  await exec(tx, 'DELETE FROM platform.sessions WHERE id IN (SELECT session_id FROM platform.sso_sessions WHERE connection_id = $1)', [connectionId]);
}
