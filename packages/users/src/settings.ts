// A project's users-permissions settings (`settings.usersPermissions`): Strapi's advanced
// settings of the plugin (registration, e-mail confirmation, default role, JWT lifetime, URLs).
import { ValidationError } from '@cms/errors';

export interface UsersSettings {
  /** `POST /api/auth/local/register` is open. */
  allowRegister: boolean;
  /** New users must confirm their e-mail before they can log in. */
  emailConfirmation: boolean;
  /** Role type given to registered users. */
  defaultRole: string;
  /** Lifetime of end-user JWTs, seconds (Strapi: 30 days). */
  jwtExpiresIn: number;
  /** Page of the customer's front end that receives `?code=` for a password reset. */
  resetPasswordUrl: string | null;
  /** Where `GET /api/auth/email-confirmation` redirects after confirming. */
  emailConfirmationRedirect: string;
}

export const DEFAULT_USERS_SETTINGS: Readonly<UsersSettings> = Object.freeze({
  allowRegister: true,
  emailConfirmation: false,
  defaultRole: 'authenticated',
  jwtExpiresIn: 30 * 24 * 3600,
  resetPasswordUrl: null,
  emailConfirmationRedirect: '/',
});

const effective = new WeakMap<object, Readonly<UsersSettings>>();

/** Stored settings → effective settings, cached per project settings object. */
export function usersSettingsOf(projectSettings: Record<string, unknown> | undefined): Readonly<UsersSettings> {
  if (!projectSettings) return DEFAULT_USERS_SETTINGS;
  let settings = effective.get(projectSettings);
  if (!settings) {
    const stored = projectSettings.usersPermissions;
    settings = Object.freeze(stored && typeof stored === 'object' ? { ...DEFAULT_USERS_SETTINGS, ...(stored as Partial<UsersSettings>) } : DEFAULT_USERS_SETTINGS);
    effective.set(projectSettings, settings);
  }
  return settings;
}

const isHttpUrl = (v: unknown) => {
  if (typeof v !== 'string' || v.length > 2000) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/** A settings update (any subset of keys) over `current`; `roleTypes` are the project's roles. */
export function parseUsersSettings(body: unknown, current: UsersSettings, roleTypes: readonly string[]): UsersSettings {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Users settings must be an object');
  const next: UsersSettings = { ...current };
  const errors: Array<{ path: string[]; message: string; name: 'ValidationError' }> = [];
  const fail = (key: string, message: string) => errors.push({ path: [key], message, name: 'ValidationError' });
  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'allowRegister':
      case 'emailConfirmation':
        if (typeof value === 'boolean') next[key] = value;
        else fail(key, `${key} must be a boolean`);
        break;
      case 'defaultRole':
        if (typeof value === 'string' && roleTypes.includes(value) && value !== 'public') next.defaultRole = value;
        else fail(key, `defaultRole must be one of: ${roleTypes.filter((r) => r !== 'public').join(', ')}`);
        break;
      case 'jwtExpiresIn':
        if (Number.isInteger(value) && (value as number) >= 60 && (value as number) <= 365 * 24 * 3600) next.jwtExpiresIn = value as number;
        else fail(key, 'jwtExpiresIn must be a number of seconds from 60 to 31536000');
        break;
      case 'resetPasswordUrl':
        if (value === null || isHttpUrl(value)) next.resetPasswordUrl = value as string | null;
        else fail(key, 'resetPasswordUrl must be an http(s) URL or null');
        break;
      case 'emailConfirmationRedirect':
        if (isHttpUrl(value) || (typeof value === 'string' && /^\/(?!\/)[^\s\\]{0,500}$/.test(value))) next.emailConfirmationRedirect = value as string;
        else fail(key, 'emailConfirmationRedirect must be an http(s) URL or a path starting with /');
        break;
      default:
        fail(key, `${key} is not a valid key`.slice(0, 200));
    }
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return next;
}
