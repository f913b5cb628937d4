// End users of a project (users-permissions): registration, login, JWTs, password changes and
// the writes of `/api/users`. HTTP, permissions and response shapes belong to the caller.
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, needsRehash, verifyPassword } from '@cms/auth';
import { compiledQuery, sqlState, type Db } from '@cms/db';
import { ApplicationError, ValidationError } from '@cms/errors';
import { LRUCache } from 'lru-cache';
import { emailOf, FieldChecks, objectBody, onlyKeys, userFields } from './body-checks.ts';
import { UserTokens } from './jwt.ts';
import type { Mailer } from '@cms/mail';
import type { UsersSettings } from './settings.ts';
import { DEFAULT_EMAIL_TEMPLATES, RESET_CODE_ONLY_MESSAGE, type EmailTemplates } from './email-templates.ts';
import { templateMail } from './template-mail.ts';
import {
  deleteUser, identityTaken, insertUser, reassignRole, updateUser, userByEmail, userById, userByIdentifier, userByToken,
  type UserChanges, type UserRow,
} from './user-rows.ts';

/** The project an operation runs in. */
export interface UsersProject {
  projectId: number;
  schema: string;
  settings: Readonly<UsersSettings>;
  /** The project's e-mail templates (confirmation, reset password). */
  emailTemplates: Readonly<EmailTemplates>;
  /** Role types of the project (platform.roles). */
  roleTypes: readonly string[];
  /** Public base URL of the project's API (links in e-mails point at it). */
  apiBaseUrl: string;
}

export interface AuthResult {
  userId: string;
  /** Absent when the user must confirm their e-mail first. */
  jwt?: string;
}

/** Who a valid JWT belongs to, with what role. */
export interface EndUser {
  userId: string;
  role: string;
}

const TAKEN = 'Email or Username are already taken';
const INVALID_LOGIN = 'Invalid identifier or password';
// How long an instance trusts a cached user status (blocked, role) before reading it again;
// changes made through this instance take effect at once.
const STATUS_TTL_MS = 1000;

export class EndUsers {
  readonly tokens: UserTokens;
  // 50,000 users, counted as a size: `max` would allocate all 50,000 slots up front (1.9 MB).
  private readonly status = new LRUCache<string, UserRow | false>({ maxSize: 50_000, sizeCalculation: () => 1, ttl: STATUS_TTL_MS });

  constructor(appSecret: string, private readonly mailer: Mailer) {
    this.tokens = new UserTokens(appSecret);
  }

  private cacheKey = (p: Pick<UsersProject, 'projectId'>, id: string) => `${p.projectId}:${id}`;

  private jwtFor(p: UsersProject, userId: string): Promise<string> {
    return this.tokens.sign(p.projectId, userId, p.settings.jwtExpiresIn);
  }

  /** `POST /api/auth/local/register`. */
  async register(db: Db, p: UsersProject, rawBody: unknown): Promise<AuthResult> {
    if (!p.settings.allowRegister) throw new ApplicationError('Register action is currently disabled');
    const body = objectBody(rawBody);
    onlyKeys(body, ['username', 'email', 'password']);
    const checks = new FieldChecks();
    const username = checks.username(checks.required(body, 'username'));
    const email = checks.email(checks.required(body, 'email'));
    const password = checks.password(checks.required(body, 'password'));
    checks.done();
    const role = defaultRoleOf(p);
    const confirmation = p.settings.emailConfirmation ? oneTimeToken() : null;
    const userId = await this.insert(db, p, {
      username: username!, email: email!, password: await hashPassword(password!),
      confirmed: !confirmation, blocked: false, role, confirmationToken: confirmation?.stored ?? null,
    });
    if (!confirmation) return { userId, jwt: await this.jwtFor(p, userId) };
    await this.sendConfirmation(p, { username: username!, email: email! }, confirmation.code);
    return { userId };
  }

  /** `POST /api/auth/local`: identifier (e-mail or username) and password. */
  async login(db: Db, p: UsersProject, rawBody: unknown): Promise<AuthResult> {
    const body = objectBody(rawBody);
    onlyKeys(body, ['identifier', 'password']);
    const checks = new FieldChecks();
    const identifier = checks.required(body, 'identifier');
    const password = checks.required(body, 'password');
    checks.done();
    const user = await userByIdentifier(db, p.schema, identifier!);
    // Unknown users cost the same time as wrong passwords (verifyPassword hashes anyway).
    if (!(await verifyPassword(password!, user?.password ?? null)) || !user) throw new ValidationError(INVALID_LOGIN);
    if (!user.confirmed && p.settings.emailConfirmation) throw new ApplicationError('Your account email is not confirmed');
    if (user.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
    // An imported bcrypt hash (Strapi) becomes argon2id now that the password is known.
    if (user.password && needsRehash(user.password)) await updateUser(db, p.schema, user.id, { password: await hashPassword(password!) });
    return { userId: user.id, jwt: await this.jwtFor(p, user.id) };
  }

  /** `POST /api/auth/change-password` of the calling user. */
  async changePassword(db: Db, p: UsersProject, userId: string, rawBody: unknown): Promise<AuthResult> {
    const body = objectBody(rawBody);
    onlyKeys(body, ['currentPassword', 'password', 'passwordConfirmation']);
    const checks = new FieldChecks();
    const current = checks.required(body, 'currentPassword');
    const password = checks.newPassword(body);
    const user = await userById(db, p.schema, userId);
    if (!user || !(await verifyPassword(current!, user.password))) throw new ValidationError('The provided current password is invalid');
    if (current === password) throw new ValidationError('Your new password must be different than your current password');
    await updateUser(db, p.schema, userId, { password: await hashPassword(password) });
    return { userId, jwt: await this.jwtFor(p, userId) };
  }

  /**
   * `POST /api/auth/forgot-password`: e-mail a reset code to the user, if there is one. The
   * answer never tells whether the address is known.
   */
  async forgotPassword(db: Db, p: UsersProject, rawBody: unknown): Promise<void> {
    const email = emailOf(rawBody);
    const user = await userByEmail(db, p.schema, email);
    if (!user || user.blocked) return;
    const reset = oneTimeToken();
    await updateUser(db, p.schema, user.id, { resetPasswordToken: reset.stored });
    let template = p.emailTemplates.resetPassword;
    // Without a reset page the default link would lead nowhere: the default mail gives the code.
    if (!p.settings.resetPasswordUrl && template.message === DEFAULT_EMAIL_TEMPLATES.resetPassword.message) template = { ...template, message: RESET_CODE_ONLY_MESSAGE };
    // Not awaited: a known address must not answer later than an unknown one (account enumeration).
    this.mailer.post(templateMail(email, template, {
      URL: p.settings.resetPasswordUrl ?? '', TOKEN: reset.code, SERVER_URL: p.apiBaseUrl, 'USER.username': user.username, 'USER.email': user.email,
    }));
  }

  /** `POST /api/auth/reset-password`: a reset code and the new password; logs the user in. */
  async resetPassword(db: Db, p: UsersProject, rawBody: unknown): Promise<AuthResult> {
    const body = objectBody(rawBody);
    onlyKeys(body, ['code', 'password', 'passwordConfirmation']);
    const checks = new FieldChecks();
    const code = checks.required(body, 'code');
    const password = checks.newPassword(body);
    const user = await userByToken(db, p.schema, 'reset', storedForm(code!));
    if (!user) throw new ValidationError('Incorrect code provided');
    // The code works once.
    await updateUser(db, p.schema, user.id, { password: await hashPassword(password), resetPasswordToken: null });
    this.status.delete(this.cacheKey(p, user.id));
    return { userId: user.id, jwt: await this.jwtFor(p, user.id) };
  }

  /**
   * `GET /api/auth/email-confirmation?confirmation=`: confirm the user holding the token. Answers
   * them with a JWT, as GraphQL's `emailConfirmation` logs them in (REST redirects instead).
   */
  async confirmEmail(db: Db, p: UsersProject, token: unknown): Promise<AuthResult> {
    const user = typeof token === 'string' && token.length > 0 && token.length <= 200 ? await userByToken(db, p.schema, 'confirmation', storedForm(token)) : null;
    if (!user) throw new ValidationError('Invalid token');
    await updateUser(db, p.schema, user.id, { confirmed: true, confirmationToken: null });
    this.status.delete(this.cacheKey(p, user.id));
    return { userId: user.id, jwt: await this.jwtFor(p, user.id) };
  }

  /** `POST /api/auth/send-email-confirmation`: a new confirmation e-mail. */
  async resendConfirmation(db: Db, p: UsersProject, rawBody: unknown): Promise<string> {
    const email = emailOf(rawBody);
    const user = await userByEmail(db, p.schema, email);
    if (!user) return email;
    if (user.confirmed) throw new ApplicationError('Already confirmed');
    if (user.blocked) throw new ApplicationError('User blocked');
    const confirmation = oneTimeToken();
    await updateUser(db, p.schema, user.id, { confirmationToken: confirmation.stored });
    await this.sendConfirmation(p, user, confirmation.code);
    return email;
  }

  private sendConfirmation(p: UsersProject, user: { username: string; email: string }, code: string): Promise<void> {
    const email = user.email.toLowerCase();
    return this.mailer.send(templateMail(email, p.emailTemplates.emailConfirmation, {
      URL: `${p.apiBaseUrl}/api/auth/email-confirmation`, CODE: code, SERVER_URL: p.apiBaseUrl, 'USER.username': user.username, 'USER.email': email,
    }));
  }

  /** `POST /api/users`: like register, plus role, confirmed and blocked. */
  async create(db: Db, p: UsersProject, rawBody: unknown): Promise<string> {
    const { username, email, password, confirmed, blocked, role: givenRole } = userFields(rawBody, true);
    const role = givenRole === undefined ? defaultRoleOf(p) : await this.roleOf(db, p, givenRole);
    return this.insert(db, p, {
      username: username!, email: email!, password: await hashPassword(password!),
      confirmed: confirmed ?? false, blocked: blocked ?? false, role,
    });
  }

  /** `PUT /api/users/:id`: any subset of the fields; false when there is no such user. */
  async update(db: Db, p: UsersProject, id: string, rawBody: unknown): Promise<boolean> {
    const { username, email, password, confirmed, blocked, role } = userFields(rawBody, false);
    if (!(await userById(db, p.schema, id))) return false;
    const changes: UserChanges = {
      username, email, confirmed, blocked,
      password: password === undefined ? undefined : await hashPassword(password),
      role: role === undefined ? undefined : await this.roleOf(db, p, role),
    };
    if ((email !== undefined || username !== undefined) && (await identityTaken(db, p.schema, email, username, id))) throw new ApplicationError(TAKEN);
    await takenOnConflict(() => updateUser(db, p.schema, id, changes));
    this.status.delete(this.cacheKey(p, id));
    return true;
  }

  async remove(db: Db, p: UsersProject, id: string): Promise<boolean> {
    const deleted = await deleteUser(db, p.schema, id);
    this.status.delete(this.cacheKey(p, id));
    return deleted;
  }

  /** A deleted role's users become `authenticated` (a role created later with that type gets none of them). */
  async roleRemoved(db: Db, schema: string, type: string): Promise<void> {
    await reassignRole(db, schema, type, 'authenticated');
    this.status.clear();
  }

  /**
   * The user a JWT of this project names, if they may act: unknown, deleted, blocked and (with
   * confirmation on) unconfirmed users are refused. Statuses are cached for a second.
   */
  async authenticate(db: Db, p: Pick<UsersProject, 'projectId' | 'schema' | 'settings'>, jwt: string): Promise<EndUser | null> {
    const userId = await this.tokens.verify(p.projectId, jwt);
    if (!userId) return null;
    const key = this.cacheKey(p, userId);
    let user = this.status.get(key);
    if (user === undefined) {
      user = (await userById(db, p.schema, userId)) ?? false;
      this.status.set(key, user);
    }
    if (!user || user.blocked || (!user.confirmed && p.settings.emailConfirmation)) return null;
    return { userId, role: user.role };
  }

  private async insert(db: Db, p: UsersProject, user: Parameters<typeof insertUser>[2]): Promise<string> {
    if (await identityTaken(db, p.schema, user.email, user.username)) throw new ApplicationError(TAKEN);
    return takenOnConflict(() => insertUser(db, p.schema, user));
  }

  /** A role given as its type, or as its numeric id (Strapi clients send ids). */
  private async roleOf(db: Db, p: UsersProject, value: unknown): Promise<string> {
    let type: string | undefined;
    if (typeof value === 'string' && p.roleTypes.includes(value)) type = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) {
      type = (await db.maybeOneFirst(compiledQuery({ text: 'SELECT type FROM platform.roles WHERE project_id = $1 AND id = $2', values: [p.projectId, value] }))) as string | undefined ?? undefined;
    }
    if (!type || type === 'public') {
      throw ValidationError.fromFieldErrors([{ path: ['role'], message: 'role must be the type or id of a role other than public', name: 'ValidationError' }]);
    }
    return type;
  }
}

/** A unique-index violation (two writes racing for one e-mail or username) is the same "taken" error. */
async function takenOnConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlState(err) === '23505') throw new ApplicationError(TAKEN);
    throw err;
  }
}

/** The role new users get: the setting, while that role exists. */
const defaultRoleOf = (p: UsersProject) => (p.roleTypes.includes(p.settings.defaultRole) ? p.settings.defaultRole : 'authenticated');

/** A one-time code for an e-mail; only its SHA-256 is stored, so a database leak reveals no code. */
function oneTimeToken(): { code: string; stored: string } {
  const code = randomBytes(32).toString('hex');
  return { code, stored: storedForm(code) };
}

const storedForm = (code: string) => createHash('sha256').update(code).digest('hex');
