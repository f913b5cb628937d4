// A release's actions as the page shows them: grouped by content type and locale, each entry
// named by its main field, and why a blocked one cannot be applied.
import type { Locale } from '../../locales/api/get-locales.ts';
import type { Model } from '../../../model/schema.ts';
import { hasDraftAndPublish, mainFieldOf, typeLabel } from '../../content/components/content-model.ts';
import { localeName } from '../../content/components/LocaleSelect.tsx';
import type { ReleaseAction } from '../api/get-release-actions.ts';

export interface ActionGroup {
  key: string;
  title: string;
  actions: ReleaseAction[];
}

export const typeName = (model: Model, uid: string) => (model.contentTypes[uid] ? typeLabel(model.contentTypes[uid]) : uid);

/** Groups in the order of their type's name, then locale; actions keep the order they were added in. */
export function groupActions(actions: ReleaseAction[], model: Model, locales: Locale[]): ActionGroup[] {
  const groups = new Map<string, ActionGroup>();
  for (const action of actions) {
    const key = `${action.contentType}\u0000${action.locale ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      const type = typeName(model, action.contentType);
      group = { key, title: action.locale ? `${type} · ${localeName(locales, action.locale)}` : type, actions: [] };
      groups.set(key, group);
    }
    group.actions.push(action);
  }
  return [...groups.values()].sort((a, b) => a.title.localeCompare(b.title));
}

/** The entry's main field (its title), `Untitled`, or that it was deleted. */
export function entryLabel(action: ReleaseAction, model: Model): string {
  if (!action.entry) return `Deleted entry ${action.entryDocumentId}`;
  const main = mainFieldOf(model.contentTypes[action.contentType]);
  const value = main ? String(action.entry[main] ?? '').trim() : '';
  return value || 'Untitled';
}

/**
 * Why a blocked action cannot be applied: the failed publish's message for it when there was one,
 * else what the model and the entry tell (the API answers only whether it is valid).
 */
export function blockedReason(action: ReleaseAction, model: Model, failure: string | undefined): string {
  if (failure) return failure;
  const type = model.contentTypes[action.contentType];
  if (!type) return 'This content type no longer exists';
  if (!hasDraftAndPublish(type)) return 'This content type no longer has draft & publish';
  if (!action.entry) return 'This entry no longer exists';
  if (action.entryError) return action.entryError;
  return 'Its draft does not pass the checks of publishing (a required field is empty, or a value is out of its limits): open it to fix it';
}
