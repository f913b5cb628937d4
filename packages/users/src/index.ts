// @cms/users: each project's end users (Strapi's users-permissions plugin).
export { EndUsers, type AuthResult, type EndUser, type UsersProject } from './end-users.ts';
export { UserTokens, looksLikeJwt } from './jwt.ts';
export { DEFAULT_USERS_SETTINGS, parseUsersSettings, usersSettingsOf, type UsersSettings } from './settings.ts';
export { USER_PASSWORD_MIN } from './body-checks.ts';
export { rolesOfUsers, type UserRole } from './user-roles.ts';
