export { AccountService, isEmail, INVALID_LINK_MESSAGE, type Account } from './accounts.ts';
export { AccountTokenService, type AccountTokenPurpose } from './account-tokens.ts';
export {
  ContentAccessKeys, isContentAccessKey, CONTENT_ACCESS_KEY_TTL_MS, type ContentAccessGrant, type ContentAccessLevel,
} from './content-access-keys.ts';
export { ApiTokenService, TOKEN_TYPES, LIFESPAN_DAYS, type ApiToken, type AuthenticatedToken, type TokenCheck, type TokenType } from './api-tokens.ts';
export { hashPassword, verifyPassword, PASSWORD_MIN, PASSWORD_MAX, isBcryptHash, needsRehash } from './passwords.ts';
export { validatePermissions, CONTENT_TYPE_ACTIONS, TOKEN_CONTENT_TYPE_ACTIONS, PLUGIN_ACTIONS, type PermissionMap } from './permissions.ts';
export { RoleService, BUILTIN_ROLES, type Role, type StoredRole } from './roles.ts';
export { deriveKey, keyedHash, randomToken, type KeyPurpose } from './secrets.ts';
export { SessionService, type SessionInfo, type VerifiedSession } from './sessions.ts';
