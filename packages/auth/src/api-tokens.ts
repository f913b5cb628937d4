// Project API tokens: the plain key is shown once; only HMAC-SHA512(key) is stored.
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { compiledQuery, type Db } from '@cms/db';
import { ApplicationError, NotFoundError, ValidationError } from '@cms/errors';
import type { Model } from '@cms/schema';
import { TOKEN_CONTENT_TYPE_ACTIONS, validatePermissions, type PermissionMap } from './permissions.ts';
import { deriveKey } from './secrets.ts';

export const TOKEN_TYPES = ['read-only', 'full-access', 'custom'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];
export const LIFESPAN_DAYS = [7, 30, 90] as const;

export interface ApiToken {
  id: number;
  name: string;
  description: string;
  type: TokenType;
  permissions: PermissionMap;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface AuthenticatedToken {
  id: number;
  projectId: number;
  type: TokenType;
  permissions: PermissionMap;
  expiresAt: string | null;
}

export type TokenCheck = { status: 'valid'; token: AuthenticatedToken } | { status: 'expired'; projectId: number } | { status: 'unknown' };

const COLUMNS = `id, name, description, type, permissions, expires_at AS "expiresAt", last_used_at AS "lastUsedAt", created_at AS "createdAt"`;
// A revoked token stops working on every instance within this time even if a message is lost.
const CACHE_TTL_MS = 1_000;
// `lastUsedAt` is written for every token used since the last write, in one statement, this often.
const LAST_USED_FLUSH_MS = 5_000;

export class ApiTokenService {
  private readonly hmacKey: Buffer;
  // 10,000 tokens, counted as a size: `max` would allocate all 10,000 slots up front (0.4 MB).
  private readonly cache = new LRUCache<string, AuthenticatedToken | false>({ maxSize: 10_000, sizeCalculation: () => 1, ttl: CACHE_TTL_MS });
  /** Tokens used since `lastUsedAt` was last written (never a write per request). */
  private used = new Set<number>();
  private readonly flusher: NodeJS.Timeout;

  constructor(private readonly db: Db, appSecret: string, private readonly onFlushError: (err: unknown) => void = () => {}) {
    this.hmacKey = deriveKey(appSecret, 'api-token-hmac');
    this.flusher = setInterval(() => void this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.flusher.unref();
  }

  /** Write `lastUsedAt` of the tokens used since the last write. */
  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const ids = [...this.used];
    this.used = new Set();
    try {
      await this.db.query(compiledQuery({ text: 'UPDATE platform.api_tokens SET last_used_at = now() WHERE id = ANY($1::bigint[])', values: [ids] }));
    } catch (err) {
      // Try again with the next batch rather than losing the uses.
      for (const id of ids) this.used.add(id);
      this.onFlushError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.flusher);
    await this.flushLastUsed();
  }

  hash(accessKey: string): string {
    return createHmac('sha512', this.hmacKey).update(accessKey).digest('hex');
  }

  async create(projectId: number, input: { name: string; type: string; description?: string; permissions?: unknown; lifespanDays?: number | null }, model: Model): Promise<{ apiToken: ApiToken; accessKey: string }> {
    if (!(TOKEN_TYPES as readonly string[]).includes(input.type)) {
      throw ValidationError.fromFieldErrors([{ path: ['type'], message: `type must be one of the following values: ${TOKEN_TYPES.join(', ')}`, name: 'ValidationError', value: input.type }]);
    }
    const lifespan = input.lifespanDays ?? null;
    if (lifespan !== null && !(LIFESPAN_DAYS as readonly number[]).includes(lifespan)) {
      throw ValidationError.fromFieldErrors([{ path: ['lifespanDays'], message: 'lifespanDays must be one of 7, 30, 90 or null', name: 'ValidationError', value: lifespan }]);
    }
    let permissions: PermissionMap = {};
    if (input.type === 'custom') permissions = validatePermissions(input.permissions ?? {}, model, ['permissions'], TOKEN_CONTENT_TYPE_ACTIONS);
    else if (input.permissions !== undefined && Object.keys(input.permissions as object).length) {
      throw ValidationError.fromFieldErrors([{ path: ['permissions'], message: 'permissions are only accepted for custom tokens', name: 'ValidationError' }]);
    }
    const accessKey = randomBytes(128).toString('hex');
    const row = await this.db.maybeOne(compiledQuery({
      text: `INSERT INTO platform.api_tokens (project_id, name, description, type, permissions, key_hash, expires_at)
             VALUES ($1, $2, $3, $4, $5::jsonb, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(days => $7::int) END)
             ON CONFLICT (project_id, name) DO NOTHING RETURNING ${COLUMNS}`,
      values: [projectId, input.name, input.description ?? '', input.type, JSON.stringify(permissions), this.hash(accessKey), lifespan],
    }));
    if (!row) throw new ApplicationError(`An API token named "${input.name}" already exists`, {}, 409);
    return { apiToken: row as unknown as ApiToken, accessKey };
  }

  async list(projectId: number): Promise<ApiToken[]> {
    return (await this.db.any(compiledQuery({ text: `SELECT ${COLUMNS} FROM platform.api_tokens WHERE project_id = $1 ORDER BY id`, values: [projectId] }))) as unknown as ApiToken[];
  }

  async find(projectId: number, id: number): Promise<ApiToken | null> {
    return (await this.db.maybeOne(compiledQuery({ text: `SELECT ${COLUMNS} FROM platform.api_tokens WHERE project_id = $1 AND id = $2`, values: [projectId, id] }))) as ApiToken | null;
  }

  /** The names of these tokens of the project (content history's authors); deleted ones are absent. */
  async names(projectId: number, ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const found = (await this.db.any(compiledQuery({ text: 'SELECT id, name FROM platform.api_tokens WHERE project_id = $1 AND id = ANY($2::bigint[])', values: [projectId, [...ids]] }))) as unknown as Array<{ id: number | string; name: string }>;
    return new Map(found.map((r) => [Number(r.id), r.name]));
  }

  async remove(projectId: number, id: number): Promise<void> {
    const row = await this.db.maybeOne(compiledQuery({ text: 'DELETE FROM platform.api_tokens WHERE project_id = $1 AND id = $2 RETURNING key_hash', values: [projectId, id] }));
    if (!row) throw new NotFoundError();
    this.cache.delete((row as { key_hash: string }).key_hash);
  }

  /**
   * Drop cached lookups of one project's tokens (every project's when no id is given). Wired to
   * the registry's invalidations, so a revocation on one instance reaches every instance.
   * Cached misses stay: a key unknown a second ago cannot have been issued since.
   */
  forget(projectId?: number): void {
    if (projectId === undefined) return this.cache.clear();
    for (const [keyHash, token] of this.cache.entries()) if (token && token.projectId === projectId) this.cache.delete(keyHash);
  }

  /** Look up a presented key. Lookups are by hash (never by the key), cached for a second. */
  async check(accessKey: string): Promise<TokenCheck> {
    if (accessKey.length !== 256 || !/^[0-9a-f]+$/.test(accessKey)) return { status: 'unknown' };
    const keyHash = this.hash(accessKey);
    let token = this.cache.get(keyHash);
    if (token === undefined) {
      const row = (await this.db.maybeOne(compiledQuery({
        text: `SELECT id, project_id AS "projectId", type, permissions, expires_at AS "expiresAt" FROM platform.api_tokens WHERE key_hash = $1`,
        values: [keyHash],
      }))) as AuthenticatedToken | null;
      token = row ?? false;
      this.cache.set(keyHash, token);
    }
    if (!token) return { status: 'unknown' };
    if (token.expiresAt && Date.parse(token.expiresAt) <= Date.now()) return { status: 'expired', projectId: token.projectId };
    this.used.add(token.id);
    return { status: 'valid', token };
  }
}
