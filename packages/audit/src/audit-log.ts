// The audit log as the platform's services see it (`platform.audit`): record an entry in an
// account's own log or in a project's (on the project's cluster), list and export a log with the
// accounts' e-mails filled in. Everything in a request's transaction goes through `auditInsert`
// (folded into one of its statements) or `record…(…, tx)`.
import { rows, type CarriedStatement, type Db } from '@cms/db';
import type { AuditListQuery } from './audit-query.ts';
import {
  auditEntryPages, auditInsert, dropProjectAuditEntries, insertAuditEntry, listAuditEntries, type AuditActor, type AuditEntry, type AuditEntryInput,
  type AuditFilter, type AuditSource,
} from './audit-rows.ts';

type Pool = Db & { transaction: Db['transaction'] };

export interface AuditPools {
  /** The control plane's pool (accounts' logs). */
  pool: Pool;
  /** A cluster's pool (projects' logs live on their project's cluster). */
  poolOf(cluster: string): Pool;
}

/** Where a project's log lives. */
export interface AuditProject {
  id: number;
  cluster: string;
}

export interface AccountAuditEntry extends AuditSource {
  /** Whose log: the account signed in, changed or tried (null: no account has that e-mail; kept, shown to no one). */
  accountId: number | null;
  action: string;
  /** Default: the account itself (`{type: "account", id: accountId}`). */
  actor?: AuditActor;
  payload?: Record<string, unknown>;
}

/** A request as far as its source goes (a fastify request fits). */
export interface RequestLike {
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** ip and user agent of a request, for an entry (`{...auditSource(request)}`). */
export function auditSource(request: RequestLike): AuditSource {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: (Array.isArray(ua) ? ua[0] : ua) ?? null };
}

export class AuditLog {
  constructor(private readonly db: AuditPools) {}

  /** An entry of an account's own log (sign-ins, two-factor, sessions, password), on the control plane; in `tx` when given. */
  async recordAccount(entry: AccountAuditEntry, tx?: Db): Promise<void> {
    const actor = entry.actor ?? (entry.accountId === null ? { type: 'system' as const } : { type: 'account' as const, id: entry.accountId });
    await insertAuditEntry(tx ?? this.db.pool, { projectId: null, accountId: entry.accountId }, { ...entry, actor });
  }

  /**
   * A project's entries as a statement another statement of the change's transaction carries
   * (a data-modifying CTE, @cms/db carried.ts): the entries cost no round trip of their own.
   */
  carried(projectId: number, entries: readonly AuditEntryInput[]): CarriedStatement {
    const { text, values } = auditInsert({ projectId, accountId: null }, entries);
    return { ctes: [text], values };
  }

  /** An entry of a project's log, on its cluster; in `tx` (a transaction on that cluster) when given. */
  async recordProject(project: AuditProject, entry: AuditEntryInput, tx?: Db): Promise<void> {
    await insertAuditEntry(tx ?? this.db.poolOf(project.cluster), { projectId: project.id, accountId: null }, entry);
  }

  /** A page of a project's log, newest first. */
  async listProject(project: AuditProject, query: AuditListQuery): Promise<{ entries: AuditEntry[]; total: number }> {
    const filter = await this.filterOf(project, query);
    if (!filter) return { entries: [], total: 0 };
    const found = await listAuditEntries(this.db.poolOf(project.cluster), filter, query.page, query.pageSize);
    return { entries: await this.withEmails(found.entries), total: found.total };
  }

  /** A page of an account's own log, newest first. */
  async listAccount(accountId: number, page: number, pageSize: number): Promise<{ entries: AuditEntry[]; total: number }> {
    const found = await listAuditEntries(this.db.pool, { accountId }, page, pageSize);
    return { entries: await this.withEmails(found.entries), total: found.total };
  }

  /** A project's whole log (filtered as `query`, paging aside), newest first, a page at a time. */
  async *exportProject(project: AuditProject, query: AuditListQuery): AsyncGenerator<AuditEntry[]> {
    const filter = await this.filterOf(project, query);
    if (!filter) return;
    for await (const page of auditEntryPages(this.db.poolOf(project.cluster), filter)) yield this.withEmails(page);
  }

  /** The rows' filter of a query; null when it names an e-mail no account has (nothing matches). */
  private async filterOf(project: AuditProject, query: AuditListQuery): Promise<AuditFilter | null> {
    const filter: AuditFilter = { projectId: project.id, action: query.action, actorType: query.actorType, actorId: query.actorId, from: query.from, to: query.to };
    if (query.actorEmail !== undefined) {
      const id = await this.accountIdOf(query.actorEmail);
      if (id === null) return null;
      filter.actorId = String(id);
    }
    return filter;
  }

  /** Delete a purged project's entries (its log goes with it). */
  async dropProject(project: AuditProject): Promise<void> {
    await dropProjectAuditEntries(this.db.poolOf(project.cluster), project.id);
  }

  /** The account id of an e-mail (the `actor` filter by e-mail), or null. */
  async accountIdOf(email: string): Promise<number | null> {
    const [row] = await rows<{ id: string }>(this.db.pool, 'SELECT id::text AS id FROM platform.accounts WHERE lower(email) = lower($1)', [email]);
    return row ? Number(row.id) : null;
  }

  /** Account actors recorded without their e-mail (content writes) get the account's current one. */
  private async withEmails(entries: AuditEntry[]): Promise<AuditEntry[]> {
    const ids = [...new Set(entries.flatMap((e) => (e.actor.type === 'account' && e.actor.email === undefined && e.actor.id !== null && /^\d{1,15}$/.test(e.actor.id) ? [e.actor.id] : [])))];
    if (ids.length === 0) return entries;
    const found = await rows<{ id: string; email: string }>(this.db.pool, 'SELECT id::text AS id, email FROM platform.accounts WHERE id = ANY($1::bigint[])', [ids]);
    const emails = new Map(found.map((r) => [r.id, r.email]));
    for (const e of entries) {
      if (e.actor.type === 'account' && e.actor.email === undefined && e.actor.id !== null && emails.has(e.actor.id)) e.actor.email = emails.get(e.actor.id)!;
    }
    return entries;
  }
}
