// The `populate` an editor reads a document with: every relation (with its label field), media,
// component and dynamic zone, at every depth, so the form holds the whole document.
import { USER_TARGET, type AttributeSchema, type Model } from '../../../model/schema.ts';
import { mainFieldOf } from './content-model.ts';

type PopulateEntry = true | { fields?: string[]; populate?: Record<string, PopulateEntry>; on?: Record<string, PopulateEntry> };

/** The label field of a relation's target (end users are named by their username). */
export function relationLabelField(model: Model, target: string | undefined): string | null {
  if (target === USER_TARGET) return 'username';
  return mainFieldOf(target ? model.contentTypes[target] : undefined);
}

export function populateFor(model: Model, attributes: Record<string, AttributeSchema>): Record<string, PopulateEntry> {
  const out: Record<string, PopulateEntry> = {};
  for (const [name, attr] of Object.entries(attributes)) {
    if (attr.private) continue;
    const entry = entryFor(model, attr);
    if (entry) out[name] = entry;
  }
  return out;
}

function entryFor(model: Model, attr: AttributeSchema): PopulateEntry | null {
  switch (attr.type) {
    case 'relation': {
      const label = relationLabelField(model, attr.target);
      // documentId and id always come; the label field names the item.
      return label ? { fields: [label] } : { fields: ['documentId'] };
    }
    case 'media':
      return true;
    case 'component':
      return componentEntry(model, attr.component);
    case 'dynamiczone': {
      const on: Record<string, PopulateEntry> = {};
      for (const uid of attr.components ?? []) on[uid] = componentEntry(model, uid);
      return { on };
    }
    default:
      return null;
  }
}

function componentEntry(model: Model, uid: string | undefined): PopulateEntry {
  const component = uid ? model.components[uid] : undefined;
  const inner = component ? populateFor(model, component.attributes) : {};
  return Object.keys(inner).length ? { populate: inner } : true;
}
