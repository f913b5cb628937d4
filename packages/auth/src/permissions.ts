// Permission maps `{uid: [action]}` as the management contract defines them, validated against
// the project's model.
import { ValidationError, type FieldError } from '@cms/errors';
import type { Model } from '@cms/schema';

export type PermissionMap = Record<string, string[]>;

export const CONTENT_TYPE_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete', 'createLocalization'] as const;
/**
 * API tokens also take `preview`: reading the type's drafts (`status=draft`, release previews) when
 * the project's `draftAccess` is `preview` (docs/preview.md). Roles never get it: end users and
 * the public read no drafts under that rule.
 */
export const TOKEN_CONTENT_TYPE_ACTIONS = [...CONTENT_TYPE_ACTIONS, 'preview'] as const;
export const PLUGIN_ACTIONS: Record<string, readonly string[]> = {
  'plugin::upload': ['find', 'findOne', 'upload', 'update', 'destroy'],
  'plugin::users-permissions': ['me', 'find', 'findOne', 'count', 'create', 'update', 'destroy'],
  // The project's roles through the content API (GraphQL `usersPermissionsRole(s)` and role mutations).
  'plugin::users-permissions.role': ['find', 'findOne', 'create', 'update', 'delete'],
};

/**
 * Validate and normalise (deduplicated, in the contract's action order). Throws ValidationError with
 * paths. `contentTypeActions`: what a content type takes (roles: CONTENT_TYPE_ACTIONS; tokens: TOKEN_CONTENT_TYPE_ACTIONS).
 */
export function validatePermissions(
  input: unknown, model: Model, path: string[] = ['permissions'], contentTypeActions: readonly string[] = CONTENT_TYPE_ACTIONS,
): PermissionMap {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw ValidationError.fromFieldErrors([{ path, message: `${path.join('.')} must be an object of uid → actions`, name: 'ValidationError' }]);
  }
  const errors: FieldError[] = [];
  const result: PermissionMap = {};
  for (const [uid, actions] of Object.entries(input as Record<string, unknown>)) {
    const allowed: readonly string[] | undefined = Object.hasOwn(model.contentTypes, uid) ? contentTypeActions : Object.hasOwn(PLUGIN_ACTIONS, uid) ? PLUGIN_ACTIONS[uid] : undefined;
    if (!allowed) {
      errors.push({ path: [...path, uid], message: `${uid.slice(0, 200)} is not a content type or plugin of this project`, name: 'ValidationError' });
      continue;
    }
    if (!Array.isArray(actions)) {
      errors.push({ path: [...path, uid], message: `${uid} must be an array of actions`, name: 'ValidationError' });
      continue;
    }
    const seen = new Set<string>();
    actions.forEach((action, i) => {
      if (typeof action !== 'string' || !allowed.includes(action)) {
        errors.push({ path: [...path, uid, String(i)], message: `${String(action).slice(0, 100)} is not an action of ${uid} (allowed: ${allowed.join(', ')})`, name: 'ValidationError', value: action });
      } else seen.add(action);
    });
    result[uid] = allowed.filter((a) => seen.has(a));
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors.slice(0, 100));
  return result;
}
