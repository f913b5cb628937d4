// Renames confirmed by the caller (`options.renames`), validated against both models, and the
// previous model as it looks once they are applied — the planner diffs that against the next one
// so a renamed attribute compares with its old self.
import type { FieldError } from '@cms/errors';
import type { Attribute, Component, ContentType, Model } from '@cms/schema';
import { fieldError } from './refusals.ts';

export type Renames = Record<string, Record<string, string>>;

/** Validate `renames` (uid → old → new); returns uid → new → old. */
export function resolveRenames(prev: Model, next: Model, renames: Renames, errors: FieldError[]): Renames {
  const renamedFrom: Renames = {};
  for (const [uid, pairs] of Object.entries(renames)) {
    const before = prev.contentTypes[uid] ?? prev.components[uid];
    const after = next.contentTypes[uid] ?? next.components[uid];
    if (!before || !after) {
      errors.push(fieldError(['renames', uid], `Cannot rename attributes of ${uid}: it must exist before and after the change`));
      continue;
    }
    const seenTargets = new Set<string>();
    for (const [from, to] of Object.entries(pairs)) {
      const path = ['renames', uid, from];
      if (typeof to !== 'string' || to === from) errors.push(fieldError(path, `Invalid rename of attribute "${from}" of ${uid}`));
      else if (!before.attributes[from]) errors.push(fieldError(path, `Cannot rename attribute "${from}" of ${uid}: it does not exist`));
      else if (after.attributes[from]) errors.push(fieldError(path, `Cannot rename attribute "${from}" of ${uid}: it is still present`));
      else if (!after.attributes[to]) errors.push(fieldError(path, `Cannot rename attribute "${from}" of ${uid} to "${to}": "${to}" is not in the new schema`));
      else if (before.attributes[to]) errors.push(fieldError(path, `Cannot rename attribute "${from}" of ${uid} to "${to}": "${to}" already exists`));
      else if (seenTargets.has(to)) errors.push(fieldError(path, `Cannot rename two attributes of ${uid} to "${to}"`));
      else {
        seenTargets.add(to);
        (renamedFrom[uid] ??= {})[to] = from;
      }
    }
  }
  return renamedFrom;
}

/** `model` with the renames applied: attributes re-keyed in place, relation partners updated. */
export function applyRenames(model: Model, renamedFrom: Renames): Model {
  if (Object.keys(renamedFrom).length === 0) return model;
  const newName = (uid: string, old: string | undefined): string | undefined => {
    if (old === undefined) return undefined;
    const entry = Object.entries(renamedFrom[uid] ?? {}).find(([, from]) => from === old);
    return entry ? entry[0] : old;
  };
  const renameAttrs = (uid: string, attributes: Record<string, Attribute>): Record<string, Attribute> => {
    const out: Record<string, Attribute> = {};
    for (const [name, attr] of Object.entries(attributes)) {
      const key = newName(uid, name)!;
      let renamed: Attribute = { ...attr, name: key };
      if (renamed.kind === 'relation') {
        renamed = { ...renamed, inversedBy: newName(renamed.target, renamed.inversedBy), mappedBy: newName(renamed.target, renamed.mappedBy) };
        if (renamed.inversedBy === undefined) delete renamed.inversedBy;
        if (renamed.mappedBy === undefined) delete renamed.mappedBy;
      }
      out[key] = renamed;
    }
    return out;
  };
  const contentTypes: Record<string, ContentType> = {};
  for (const [uid, ct] of Object.entries(model.contentTypes)) contentTypes[uid] = { ...ct, attributes: renameAttrs(uid, ct.attributes) };
  const components: Record<string, Component> = {};
  for (const [uid, c] of Object.entries(model.components)) components[uid] = { ...c, attributes: renameAttrs(uid, c.attributes) };
  return { contentTypes, components };
}
