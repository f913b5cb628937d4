// A project's GraphQL settings (`settings.graphql` of the project): Strapi's `defaultLimit` and
// `maxLimit`, and our limits against abusive operations.
import { ValidationError } from '@cms/errors';

export interface GraphqlSettings {
  /** Rows of a list without pagination (Strapi `defaultLimit`, 10). */
  defaultLimit: number;
  /** Largest page (-1 = unbounded, Strapi's default). */
  maxLimit: number;
  /** Deepest field nesting accepted (0 = no limit). */
  depthLimit: number;
  /** Largest estimated cost (see cost.ts; 0 = no limit). */
  costLimit: number;
  /** Schema introspection (GraphiQL needs it). */
  introspection: boolean;
  /** GraphiQL served on `GET /graphql` to browsers. */
  playground: boolean;
}

export const DEFAULT_GRAPHQL_SETTINGS: Readonly<GraphqlSettings> = Object.freeze({
  defaultLimit: 10, maxLimit: -1, depthLimit: 10, costLimit: 50_000, introspection: true, playground: true,
});

const BOUNDS: Record<'defaultLimit' | 'maxLimit' | 'depthLimit' | 'costLimit', [number, number]> = {
  defaultLimit: [1, 10_000],
  maxLimit: [-1, 100_000],
  depthLimit: [0, 100],
  costLimit: [0, 100_000_000],
};

// Effective settings per stored settings object: a project record is reused across requests
// until its invalidation, so each request does not merge them again.
const effective = new WeakMap<object, Readonly<GraphqlSettings>>();

/** Stored settings → effective settings (stored values were validated by `parseGraphqlSettings`). */
export function graphqlSettingsOf(projectSettings: Record<string, unknown> | undefined): Readonly<GraphqlSettings> {
  if (!projectSettings) return DEFAULT_GRAPHQL_SETTINGS;
  let settings = effective.get(projectSettings);
  if (!settings) {
    const stored = projectSettings.graphql;
    settings = Object.freeze(stored && typeof stored === 'object' ? { ...DEFAULT_GRAPHQL_SETTINGS, ...(stored as Partial<GraphqlSettings>) } : DEFAULT_GRAPHQL_SETTINGS);
    effective.set(projectSettings, settings);
  }
  return settings;
}

/** A settings update (any subset of the keys) merged over `current`, or a ValidationError naming every bad key. */
export function parseGraphqlSettings(body: unknown, current: GraphqlSettings): GraphqlSettings {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('GraphQL settings must be an object');
  const next: GraphqlSettings = { ...current };
  const errors: Array<{ path: string[]; message: string; name: 'ValidationError' }> = [];
  const fail = (key: string, message: string) => errors.push({ path: [key], message, name: 'ValidationError' });
  for (const [key, value] of Object.entries(body)) {
    if (key === 'introspection' || key === 'playground') {
      if (typeof value === 'boolean') next[key] = value;
      else fail(key, `${key} must be a boolean`);
    } else if (Object.hasOwn(BOUNDS, key)) {
      const [min, max] = BOUNDS[key as keyof typeof BOUNDS];
      if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max && !(key === 'maxLimit' && value === 0)) {
        next[key as keyof typeof BOUNDS] = value as number;
      } else {
        fail(key, key === 'maxLimit' ? `maxLimit must be -1 (no maximum) or an integer from 1 to ${max}` : `${key} must be an integer from ${min} to ${max}`);
      }
    } else {
      fail(key, `${key} is not a valid key`);
    }
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return next;
}
