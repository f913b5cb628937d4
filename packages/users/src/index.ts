// @cms/users: each project's end users (Strapi's users-permissions plugin).
export { EndUsers, type AuthResult, type EndUser, type UsersProject } from './end-users.ts';
export { UserTokens, looksLikeJwt } from './jwt.ts';
export { DEFAULT_USERS_SETTINGS, parseUsersSettings, usersSettingsOf, type UsersSettings } from './settings.ts';
export {
  DEFAULT_EMAIL_TEMPLATES, EMAIL_TEMPLATE_VARIABLES, emailTemplatesOf, parseEmailTemplates,
  type EmailTemplate, type EmailTemplateName, type EmailTemplates,
} from './email-templates.ts';
export { USER_PASSWORD_MIN } from './body-checks.ts';
export { rolesOfUsers, type UserRole } from './user-roles.ts';
export { importUsers, parseImportedUsers, MAX_IMPORT_USERS, type ImportedUser } from './import-users.ts';
export { exportUsers, type ExportedUser } from './export-users.ts';
export { usernamesOf } from './user-rows.ts';
