// Edits of a working copy of the model, as pure functions (each returns a new model). Relations
// are kept two-sided the way Strapi's builder writes them: the owning side names its inverse
// with `inversedBy`, the inverse side points back with `mappedBy`.
import { sectionOf, type AttributeSchema, type ComponentSchema, type ContentTypeSchema, type Model } from './schema.ts';

/** The relation shapes the builder offers, as Strapi's builder does. */
export type RelationShape = 'oneWay' | 'manyWay' | 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany';

export const RELATION_SHAPES: Array<{ value: RelationShape; label: string; bidirectional: boolean }> = [
  { value: 'oneWay', label: 'Has one (one-way)', bidirectional: false },
  { value: 'manyWay', label: 'Has many (one-way)', bidirectional: false },
  { value: 'oneToOne', label: 'One to one', bidirectional: true },
  { value: 'oneToMany', label: 'One to many', bidirectional: true },
  { value: 'manyToOne', label: 'Many to one', bidirectional: true },
  { value: 'manyToMany', label: 'Many to many', bidirectional: true },
];

const MIRROR: Record<string, string> = { oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany' };

export function relationShapeOf(attr: AttributeSchema): { shape: RelationShape; inverse: string } {
  const inverse = attr.inversedBy ?? attr.mappedBy ?? '';
  const relation = attr.relation ?? 'oneToOne';
  if (relation === 'oneWay' || (!inverse && relation === 'oneToOne')) return { shape: 'oneWay', inverse: '' };
  if (relation === 'manyWay' || (!inverse && relation === 'oneToMany')) return { shape: 'manyWay', inverse: '' };
  return { shape: relation as RelationShape, inverse };
}

/** The attribute of a relation shape (this side only). */
export function relationAttribute(shape: RelationShape, target: string, inverse: string, rest: Partial<AttributeSchema> = {}): AttributeSchema {
  const base: AttributeSchema = { ...rest, type: 'relation', relation: shape, target };
  delete base.inversedBy;
  delete base.mappedBy;
  if (shape === 'oneWay') return { ...base, relation: 'oneToOne' };
  if (shape === 'manyWay') return { ...base, relation: 'oneToMany' };
  // oneToMany is owned by its manyToOne side, as in Strapi.
  return shape === 'oneToMany' ? { ...base, mappedBy: inverse } : { ...base, inversedBy: inverse };
}

function entryOf(model: Model, uid: string): ContentTypeSchema | ComponentSchema | undefined {
  return model[sectionOf(uid)][uid];
}

/** The other side of a two-sided relation, when it points back at this attribute. */
function counterpart(model: Model, uid: string, name: string): { uid: string; name: string } | null {
  const attr = entryOf(model, uid)?.attributes[name];
  if (attr?.type !== 'relation' || !attr.target) return null;
  const other = attr.inversedBy ?? attr.mappedBy;
  if (!other) return null;
  const back = entryOf(model, attr.target)?.attributes[other];
  if (back?.type !== 'relation' || back.target !== uid || (back.inversedBy ?? back.mappedBy) !== name) return null;
  return { uid: attr.target, name: other };
}

function withAttributes(model: Model, uid: string, edit: (attributes: Record<string, AttributeSchema>) => Record<string, AttributeSchema>): Model {
  const section = sectionOf(uid);
  const entry = model[section][uid];
  if (!entry) return model;
  return { ...model, [section]: { ...model[section], [uid]: { ...entry, attributes: edit(entry.attributes) } } };
}

/** Remove an attribute (and the other side of its relation). */
export function removeAttribute(model: Model, uid: string, name: string): Model {
  const other = counterpart(model, uid, name);
  let next = withAttributes(model, uid, (attrs) => Object.fromEntries(Object.entries(attrs).filter(([n]) => n !== name)));
  if (other) next = withAttributes(next, other.uid, (attrs) => Object.fromEntries(Object.entries(attrs).filter(([n]) => n !== other.name)));
  return next;
}

/**
 * Set an attribute, replacing `previousName` in place (declaration order is the API's field
 * order). A two-sided relation also writes its inverse on the target.
 */
export function setAttribute(model: Model, uid: string, name: string, attr: AttributeSchema, previousName?: string): Model {
  let next = previousName !== undefined ? removeCounterpartOnly(model, uid, previousName) : model;
  next = withAttributes(next, uid, (attrs) => {
    const out: Record<string, AttributeSchema> = {};
    let placed = false;
    for (const [n, a] of Object.entries(attrs)) {
      if (n === previousName) {
        out[name] = attr;
        placed = true;
      } else if (n !== name) out[n] = a;
    }
    if (!placed) out[name] = attr;
    return out;
  });
  const inverse = attr.type === 'relation' ? (attr.inversedBy ?? attr.mappedBy) : undefined;
  if (attr.type === 'relation' && inverse && attr.target && entryOf(next, attr.target)) {
    const back: AttributeSchema = { type: 'relation', relation: MIRROR[attr.relation ?? ''] ?? attr.relation, target: uid, ...(attr.inversedBy ? { mappedBy: name } : { inversedBy: name }) };
    next = withAttributes(next, attr.target, (attrs) => ({ ...attrs, [inverse]: { ...attrs[inverse], ...back } }));
  }
  return next;
}

function removeCounterpartOnly(model: Model, uid: string, name: string): Model {
  const other = counterpart(model, uid, name);
  return other ? withAttributes(model, other.uid, (attrs) => Object.fromEntries(Object.entries(attrs).filter(([n]) => n !== other.name))) : model;
}

/** Delete a type or component, and every attribute elsewhere that points at it. */
export function removeEntry(model: Model, uid: string): Model {
  const section = sectionOf(uid);
  let next: Model = { ...model, [section]: Object.fromEntries(Object.entries(model[section]).filter(([u]) => u !== uid)) };
  for (const s of ['contentTypes', 'components'] as const) {
    const entries: Array<[string, ContentTypeSchema | ComponentSchema]> = Object.entries(next[s]);
    for (const [owner, entry] of entries) {
      for (const [name, attr] of Object.entries(entry.attributes)) {
        if ((attr.type === 'relation' && attr.target === uid) || (attr.type === 'component' && attr.component === uid)) {
          next = withAttributes(next, owner, (attrs) => Object.fromEntries(Object.entries(attrs).filter(([n]) => n !== name)));
        } else if (attr.type === 'dynamiczone' && attr.components?.includes(uid)) {
          const components = attr.components.filter((c) => c !== uid);
          next = withAttributes(next, owner, (attrs) => components.length
            ? { ...attrs, [name]: { ...attr, components } }
            : Object.fromEntries(Object.entries(attrs).filter(([n]) => n !== name)));
        }
      }
    }
  }
  return next;
}

export function setEntry(model: Model, uid: string, entry: ContentTypeSchema | ComponentSchema): Model {
  const section = sectionOf(uid);
  return { ...model, [section]: { ...model[section], [uid]: entry } };
}

/** Record a rename of a stored attribute so the push keeps its data (`{uid: {old: new}}`). */
export function trackRename(renames: Record<string, Record<string, string>>, stored: Model, uid: string, from: string, to: string): Record<string, Record<string, string>> {
  if (from === to) return renames;
  const forType = { ...(renames[uid] ?? {}) };
  // `from` may itself be the new name of a stored attribute renamed earlier in this session.
  const original = Object.entries(forType).find(([, now]) => now === from)?.[0] ?? from;
  if (!entryOf(stored, uid)?.attributes[original]) return renames;
  if (original === to) delete forType[original];
  else forType[original] = to;
  const next = { ...renames, [uid]: forType };
  if (!Object.keys(forType).length) delete next[uid];
  return next;
}

/** Types and components whose declaration differs from the stored model. */
export function changedEntries(stored: Model, working: Model): Set<string> {
  const out = new Set<string>();
  for (const s of ['contentTypes', 'components'] as const) {
    const uids = new Set([...Object.keys(stored[s]), ...Object.keys(working[s])]);
    for (const uid of uids) if (JSON.stringify(stored[s][uid]) !== JSON.stringify(working[s][uid])) out.add(uid);
  }
  return out;
}
