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
export { seal, unseal } from './sealed.ts';
export {
  TwoFactorService, TOTP_ISSUER, RECOVERY_CODE_COUNT, normaliseRecoveryCode, totpStep, type SecondFactor, type TotpSetup, type TwoFactorStatus,
} from './two-factor.ts';
export { deviceLabel, UNKNOWN_DEVICE } from './device-label.ts';
export { KnownDevices, isDeviceCookie, type DeviceRecord, type DeviceSighting } from './known-devices.ts';
export {
  SsoService, SsoLoginError, SSO_LOGIN_ERRORS, PENDING_LOGIN_SECONDS, domainProof, type ConnectionInput, type FinishedLogin, type SsoLoginErrorCode, type SsoOptions,
} from './sso/sso-service.ts';
export { SSO_ROLES, DOMAIN_TAKEN_MESSAGE, type SsoConnection, type SsoConnectionOfDomain, type SsoRole } from './sso/sso-store.ts';
