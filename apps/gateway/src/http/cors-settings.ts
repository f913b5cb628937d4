// A project's CORS settings (`settings.cors` of the project), as Strapi's `strapi::cors` middleware
// takes them: which origins' pages may call the project's APIs, whether credentials are allowed, and
// how long browsers may cache a preflight. Strapi's defaults: any origin (reflected), credentials,
// one year.
import { isWebOrigin } from '@cms/config';
import { ValidationError, type FieldError } from '@cms/errors';

export interface CorsSettings {
  /** `["*"]` (any origin, reflected) or exact origins such as `https://app.example.com`. */
  origins: string[];
  /** Send `Access-Control-Allow-Credentials: true` (fetch with `credentials: 'include'`). */
  credentials: boolean;
  /** `Access-Control-Max-Age` of preflight answers, seconds. */
  maxAge: number;
}

export const DEFAULT_CORS_SETTINGS: Readonly<CorsSettings> = Object.freeze({ origins: ['*'], credentials: true, maxAge: 31_536_000 });

const MAX_ORIGINS = 100;
const MAX_AGE = 31_536_000;

/** Effective settings with a fast origin test, per stored settings object (one per registry entry). */
export interface EffectiveCors extends Readonly<CorsSettings> {
  allows(origin: string): boolean;
}

const effective = new WeakMap<object, EffectiveCors>();
const withTest = (settings: CorsSettings): EffectiveCors => {
  const any = settings.origins.includes('*');
  const listed = new Set(settings.origins);
  return Object.freeze({ ...settings, allows: (origin: string) => any || listed.has(origin) });
};
const DEFAULT_EFFECTIVE = withTest(DEFAULT_CORS_SETTINGS);

/** Stored project settings → effective CORS settings (stored values were validated by `parseCorsSettings`). */
export function corsSettingsOf(projectSettings: Record<string, unknown> | undefined): EffectiveCors {
  if (!projectSettings) return DEFAULT_EFFECTIVE;
  let settings = effective.get(projectSettings);
  if (!settings) {
    const stored = projectSettings.cors;
    settings = stored && typeof stored === 'object' ? withTest({ ...DEFAULT_CORS_SETTINGS, ...(stored as Partial<CorsSettings>) }) : DEFAULT_EFFECTIVE;
    effective.set(projectSettings, settings);
  }
  return settings;
}

/** The stored form of settings (without the origin test). */
export function storedCors({ origins, credentials, maxAge }: CorsSettings): CorsSettings {
  return { origins, credentials, maxAge };
}

/** An update (any subset of the keys) merged over `current`, or a ValidationError naming every bad key and origin. */
export function parseCorsSettings(body: unknown, current: CorsSettings): CorsSettings {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('CORS settings must be an object');
  const next = storedCors(current);
  const errors: FieldError[] = [];
  const fail = (path: string[], message: string) => errors.push({ path, message, name: 'ValidationError' });
  for (const [key, value] of Object.entries(body)) {
    if (key === 'origins') {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ORIGINS) {
        fail([key], `origins must be ["*"] or a list of 1 to ${MAX_ORIGINS} origins`);
        continue;
      }
      const bad = value.map((o, i) => [o, i] as const).filter(([o]) => typeof o !== 'string' || (o !== '*' && !isWebOrigin(o)));
      for (const [origin, i] of bad) {
        fail([key, String(i)], `${JSON.stringify(origin)?.slice(0, 100)} is not an origin (scheme://host[:port], no path or trailing slash)`);
      }
      if (bad.length === 0) next.origins = [...new Set(value as string[])];
    } else if (key === 'credentials') {
      if (typeof value === 'boolean') next.credentials = value;
      else fail([key], 'credentials must be a boolean');
    } else if (key === 'maxAge') {
      if (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_AGE) next.maxAge = value as number;
      else fail([key], `maxAge must be an integer from 0 to ${MAX_AGE}`);
    } else {
      fail([key], `${key} is not a valid key`);
    }
  }
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);
  return next;
}
