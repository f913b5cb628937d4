// A project's team: members with a role (owner, editor, viewer) and pending invitations by e-mail.
// Every change of the team runs in a transaction holding the project's row lock, so two owners
// demoting each other at once cannot leave the project without an owner. `projects.account_id`
// is kept pointing at one of the owners (the primary owner: the earliest remaining one).
import { deriveKey, isEmail, keyedHash, randomToken } from '@cms/auth';
import { compiledQuery, type Db } from '@cms/db';
import { NotFoundError, ValidationError, type FieldError } from '@cms/errors';
import type { DatabasePool } from 'slonik';
import { PROJECT_COLUMNS, PROJECT_ROLES, type MemberProject, type ProjectRecord, type ProjectRole } from './project-record.ts';
import { MEMBER_PROJECTS } from './projects.ts';

export interface Member {
  accountId: number;
  email: string;
  name: string | null;
  role: ProjectRole;
  createdAt: string;
}

export interface Invitation {
  id: number;
  email: string;
  role: ProjectRole;
  createdAt: string;
  expiresAt: string;
}

const INVITATION_LIFETIME = '7 days';
export const INVITATION_LIFETIME_DAYS = 7;
const INVITATION_PREFIX = 'cms_i_';
/** The same answer for an unknown, used and expired invitation. */
export const INVALID_INVITATION_MESSAGE = 'This invitation is invalid or has expired';
export const LAST_OWNER_MESSAGE = 'A project must keep at least one owner: make another member an owner first';

const MEMBER_COLUMNS = `m.account_id AS "accountId", a.email, a.name, m.role, m.created_at AS "createdAt"`;
const MEMBERS_OF = `SELECT ${MEMBER_COLUMNS} FROM platform.project_members m JOIN platform.accounts a ON a.id = m.account_id WHERE m.project_id = $1`;
const INVITATION_COLUMNS = `id, email, role, created_at AS "createdAt", expires_at AS "expiresAt"`;

const fieldError = (path: string, message: string, value?: unknown): FieldError => ({ path: [path], message, name: 'ValidationError', value });
const invalid = (path: string, message: string, value?: unknown) => ValidationError.fromFieldErrors([fieldError(path, message, value)]);

const isRole = (value: unknown): value is ProjectRole => typeof value === 'string' && (PROJECT_ROLES as readonly string[]).includes(value);
const roleError = (value: unknown) =>
  fieldError('role', `role must be one of the following values: ${PROJECT_ROLES.join(', ')}`, typeof value === 'string' ? value.slice(0, 100) : value);

export function parseProjectRole(value: unknown): ProjectRole {
  if (!isRole(value)) throw ValidationError.fromFieldErrors([roleError(value)]);
  return value;
}

export class MemberService {
  private readonly hashKey: Buffer;

  constructor(private readonly pool: DatabasePool, appSecret: string) {
    this.hashKey = deriveKey(appSecret, 'project-invitation');
  }

  /** The members and the pending (unused, unexpired) invitations of a project. */
  async list(project: ProjectRecord): Promise<{ members: Member[]; invitations: Invitation[] }> {
    const [members, invitations] = await Promise.all([
      this.pool.any(compiledQuery({ text: `${MEMBERS_OF} ORDER BY m.created_at, m.account_id`, values: [project.id] })),
      this.pool.any(compiledQuery({
        text: `SELECT ${INVITATION_COLUMNS} FROM platform.project_invitations WHERE project_id = $1 AND accepted_at IS NULL AND expires_at > now() ORDER BY id`,
        values: [project.id],
      })),
    ]);
    return { members: members as unknown as Member[], invitations: invitations as unknown as Invitation[] };
  }

  /**
   * Invite an e-mail address with a role: the token for the mailed link is returned once (valid 7
   * days, single use), only its keyed hash is stored. A new invitation of the same address replaces
   * its pending one; an address that already belongs to a member is a 400 on `email`.
   */
  async invite(project: ProjectRecord, invitedBy: number, input: { email: string; role: unknown }): Promise<{ invitation: Invitation; token: string }> {
    const email = input.email.trim();
    const role = input.role;
    const errors: FieldError[] = [];
    if (!isEmail(email)) errors.push(fieldError('email', 'email must be a valid email', email.slice(0, 254)));
    if (!isRole(role)) errors.push(roleError(role));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const token = randomToken(INVITATION_PREFIX);
    const invitation = await this.pool.transaction(async (tx) => {
      await lockProject(tx, project.id);
      const member = await tx.maybeOneFirst(compiledQuery({ text: `SELECT 1 FROM (${MEMBERS_OF}) x WHERE lower(email) = lower($2)`, values: [project.id, email] }));
      if (member) throw invalid('email', 'This e-mail address already belongs to a member of the project', email);
      await tx.query(compiledQuery({
        text: 'DELETE FROM platform.project_invitations WHERE project_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL',
        values: [project.id, email],
      }));
      return tx.one(compiledQuery({
        text: `INSERT INTO platform.project_invitations (project_id, email, role, token_hash, invited_by, expires_at)
               VALUES ($1, $2, $3, $4, $5, now() + interval '${INVITATION_LIFETIME}') RETURNING ${INVITATION_COLUMNS}`,
        values: [project.id, email, role, keyedHash(this.hashKey, token), invitedBy],
      }));
    });
    return { invitation: invitation as unknown as Invitation, token };
  }

  /** Withdraw a pending invitation (its link stops working); 404 when the project has no such pending one. */
  async revokeInvitation(project: ProjectRecord, id: number): Promise<void> {
    const deleted = Number.isSafeInteger(id) && id > 0
      ? await this.pool.maybeOne(compiledQuery({ text: 'DELETE FROM platform.project_invitations WHERE project_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING id', values: [project.id, id] }))
      : null;
    if (!deleted) throw new NotFoundError();
  }

  /**
   * Spend an invitation token: the account joins the invitation's project (keeping a stronger role
   * it already has there). The token proves access to the invited mailbox, so the account's own
   * address need not match. Unknown, used and expired tokens are the same 400 on `token`.
   */
  async accept(accountId: number, token: string): Promise<MemberProject> {
    const project = !token.startsWith(INVITATION_PREFIX) || token.length > 100 ? null : await this.pool.transaction(async (tx) => {
      const invitation = (await tx.maybeOne(compiledQuery({
        text: `UPDATE platform.project_invitations SET accepted_at = now()
               WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > now() RETURNING project_id AS "projectId", role`,
        values: [keyedHash(this.hashKey, token)],
      }))) as { projectId: number; role: ProjectRole } | null;
      if (!invitation) return null;
      await lockProject(tx, invitation.projectId);
      await tx.query(compiledQuery({
        text: `INSERT INTO platform.project_members AS m (project_id, account_id, role) VALUES ($1, $2, $3)
               ON CONFLICT (project_id, account_id) DO UPDATE SET role = CASE
                 WHEN array_position($4::text[], excluded.role) < array_position($4::text[], m.role) THEN excluded.role ELSE m.role END`,
        values: [invitation.projectId, accountId, invitation.role, [...PROJECT_ROLES]],
      }));
      return (await tx.one(compiledQuery({ text: `${MEMBER_PROJECTS} AND projects.id = $2`, values: [accountId, invitation.projectId] }))) as unknown as MemberProject;
    });
    if (!project) throw invalid('token', INVALID_INVITATION_MESSAGE);
    return project;
  }

  /** Give a member another role; 404 for an account that is no member, 400 when it would leave no owner. */
  async changeRole(project: ProjectRecord, accountId: number, rawRole: unknown): Promise<Member> {
    const role = parseProjectRole(rawRole);
    return this.pool.transaction(async (tx) => {
      const current = await this.lockedRole(tx, project.id, accountId);
      if (current === 'owner' && role !== 'owner' && (await ownerCount(tx, project.id)) <= 1) throw invalid('role', LAST_OWNER_MESSAGE, role);
      await tx.query(compiledQuery({ text: 'UPDATE platform.project_members SET role = $3 WHERE project_id = $1 AND account_id = $2', values: [project.id, accountId, role] }));
      await keepPrimaryOwner(tx, project.id);
      return (await tx.one(compiledQuery({ text: `${MEMBERS_OF} AND m.account_id = $2`, values: [project.id, accountId] }))) as unknown as Member;
    });
  }

  /** Remove a member (or leave the project); 404 for an account that is no member, 400 for the last owner. */
  async remove(project: ProjectRecord, accountId: number): Promise<void> {
    await this.pool.transaction(async (tx) => {
      const current = await this.lockedRole(tx, project.id, accountId);
      if (current === 'owner' && (await ownerCount(tx, project.id)) <= 1) throw new ValidationError(LAST_OWNER_MESSAGE);
      await tx.query(compiledQuery({ text: 'DELETE FROM platform.project_members WHERE project_id = $1 AND account_id = $2', values: [project.id, accountId] }));
      await keepPrimaryOwner(tx, project.id);
    });
  }

  /** The projects that would be left without an owner if the account went away. */
  async soleOwnedProjects(accountId: number, db: Db = this.pool): Promise<ProjectRecord[]> {
    return (await db.any(compiledQuery({
      text: `SELECT ${PROJECT_COLUMNS} FROM platform.projects
             WHERE (account_id = $1 OR id IN (SELECT project_id FROM platform.project_members WHERE account_id = $1 AND role = 'owner'))
               AND NOT EXISTS (SELECT 1 FROM platform.project_members o WHERE o.project_id = projects.id AND o.role = 'owner' AND o.account_id <> $1)
             ORDER BY id`,
      values: [accountId],
    }))) as unknown as ProjectRecord[];
  }

  /**
   * Inside the transaction deleting the account: lock its projects, and hand the shared ones it
   * is the primary owner of over to another owner. False when it still is the only owner of some
   * project (one made so since the caller looked): delete those first, then try again.
   */
  async releaseAccount(tx: Db, accountId: number): Promise<boolean> {
    await tx.query(compiledQuery({
      text: `SELECT id FROM platform.projects WHERE account_id = $1 OR id IN (SELECT project_id FROM platform.project_members WHERE account_id = $1) ORDER BY id FOR UPDATE`,
      values: [accountId],
    }));
    if ((await this.soleOwnedProjects(accountId, tx)).length > 0) return false;
    await tx.query(compiledQuery({
      text: `UPDATE platform.projects p SET account_id = (
               SELECT o.account_id FROM platform.project_members o WHERE o.project_id = p.id AND o.role = 'owner' AND o.account_id <> $1
               ORDER BY o.created_at, o.account_id LIMIT 1)
             WHERE p.account_id = $1`,
      values: [accountId],
    }));
    return true;
  }

  private async lockedRole(tx: Db, projectId: number, accountId: number): Promise<ProjectRole> {
    await lockProject(tx, projectId);
    const role = Number.isSafeInteger(accountId) && accountId > 0
      ? await tx.maybeOneFirst(compiledQuery({ text: 'SELECT role FROM platform.project_members WHERE project_id = $1 AND account_id = $2', values: [projectId, accountId] }))
      : null;
    if (!role) throw new NotFoundError();
    return role as ProjectRole;
  }
}

/** Serialise changes of one project's team (and the account deletions touching it). */
async function lockProject(tx: Db, projectId: number): Promise<void> {
  await tx.query(compiledQuery({ text: 'SELECT id FROM platform.projects WHERE id = $1 FOR UPDATE', values: [projectId] }));
}

async function ownerCount(tx: Db, projectId: number): Promise<number> {
  return Number(await tx.oneFirst(compiledQuery({ text: "SELECT count(*) FROM platform.project_members WHERE project_id = $1 AND role = 'owner'", values: [projectId] })));
}

/** Point `projects.account_id` at the earliest owner when it no longer names an owner. */
async function keepPrimaryOwner(tx: Db, projectId: number): Promise<void> {
  await tx.query(compiledQuery({
    text: `UPDATE platform.projects p SET account_id = o.account_id
           FROM (SELECT account_id FROM platform.project_members WHERE project_id = $1 AND role = 'owner' ORDER BY created_at, account_id LIMIT 1) o
           WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM platform.project_members WHERE project_id = $1 AND account_id = p.account_id AND role = 'owner')`,
    values: [projectId],
  }));
}
