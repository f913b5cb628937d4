// Diff two models into an ordered list of migration steps. Pure: refusals that need no data
// (never-allowed changes, bad rename hints, reserved column names) are thrown here; the ones that
// depend on existing rows are decided by applyMigration.
import { ValidationError, type FieldError } from '@cms/errors';
import type { Attribute, Component, ContentType, Model } from '@cms/schema';
import type { AttributeKind, ComponentStorage, MigrationPlan, MigrationStep } from './migration-steps.ts';
import { COMPONENT_SYSTEM_COLUMNS, CONTENT_TYPE_SYSTEM_COLUMNS, physicalModel, type PhysicalAttribute, type PhysicalModel } from '@cms/tables';
import { fieldError } from './refusals.ts';
import { applyRenames, resolveRenames, type Renames } from './rename-attributes.ts';

export interface PlanOptions {
  /** uid → old attribute name → new attribute name: keep the data of renamed attributes. */
  renames?: Renames;
}

const EMPTY_MODEL: Model = { contentTypes: {}, components: {} };

export function planMigration(prev: Model | null, next: Model, options: PlanOptions = {}): MigrationPlan {
  const before = prev ?? EMPTY_MODEL;
  const errors: FieldError[] = [];
  checkColumnNames(next, errors);
  checkTypeIdentity(before, next, errors);
  const renamedFrom = resolveRenames(before, next, options.renames ?? {}, errors);
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);

  const renamed = applyRenames(before, renamedFrom);
  const b = physicalModel(renamed);
  const n = physicalModel(next);
  const steps: MigrationStep[] = [];

  // 1. Renames first: every later step uses the new names.
  for (const [uid, pairs] of Object.entries(renamedFrom)) {
    for (const [to, from] of Object.entries(pairs)) {
      steps.push({ op: 'renameAttribute', type: uid, attribute: to, from, description: `rename attribute ${from} of ${uid} to ${to}` });
    }
  }
  // 2. New tables (link tables only reference their own source table and files).
  for (const uid of Object.keys(next.components)) {
    if (!before.components[uid]) steps.push({ op: 'createComponent', type: uid, description: `create component ${uid}` });
  }
  for (const uid of Object.keys(next.contentTypes)) {
    if (!before.contentTypes[uid]) steps.push({ op: 'createContentType', type: uid, description: `create content type ${uid}` });
  }
  // 3. Dropped content types (before attribute changes: a relation retargeted away from a
  //    dropped type finds its links already cleaned).
  for (const uid of Object.keys(before.contentTypes)) {
    if (!next.contentTypes[uid]) steps.push({ op: 'dropContentType', type: uid, description: `drop content type ${uid}` });
  }
  // 4. Attribute changes of surviving components and types.
  for (const [uid, component] of Object.entries(next.components)) {
    const old = renamed.components[uid];
    if (old) diffAttributes(uid, old, component, b, n, steps);
  }
  for (const [uid, ct] of Object.entries(next.contentTypes)) {
    const old = renamed.contentTypes[uid];
    if (old) diffAttributes(uid, old, ct, b, n, steps);
  }
  // 5. Dropped components (their rows' owners were dropped or changed in 3–4).
  for (const uid of Object.keys(before.components)) {
    if (!next.components[uid]) steps.push({ op: 'dropComponent', type: uid, description: `drop component ${uid}` });
  }
  // 6. Type settings, on the final table layout.
  for (const [uid, ct] of Object.entries(next.contentTypes)) {
    const old = before.contentTypes[uid];
    if (!old) continue;
    if (old.kind !== ct.kind) {
      steps.push({ op: 'changeKind', type: uid, from: old.kind, to: ct.kind, description: `change ${uid} from ${old.kind} to ${ct.kind}` });
    }
    if (old.localized !== ct.localized) {
      steps.push(ct.localized
        ? { op: 'enableI18n', type: uid, description: `enable localization of ${uid}` }
        : { op: 'disableI18n', type: uid, description: `disable localization of ${uid}` });
    }
    if (old.draftAndPublish !== ct.draftAndPublish) {
      steps.push(ct.draftAndPublish
        ? { op: 'enableDraftAndPublish', type: uid, description: `enable draft & publish on ${uid}` }
        : { op: 'disableDraftAndPublish', type: uid, description: `disable draft & publish on ${uid}` });
    }
  }
  return { prev, next, renamedFrom, steps };
}

/** A uid names one table for ever: its singular and plural names cannot change. */
function checkTypeIdentity(before: Model, next: Model, errors: FieldError[]): void {
  for (const [uid, ct] of Object.entries(next.contentTypes)) {
    const old = before.contentTypes[uid];
    if (!old) continue;
    if (old.pluralName !== ct.pluralName) errors.push(fieldError(['contentTypes', uid, 'info', 'pluralName'], `pluralName of ${uid} cannot change`));
    if (old.singularName !== ct.singularName) errors.push(fieldError(['contentTypes', uid, 'info', 'singularName'], `singularName of ${uid} cannot change`));
  }
  for (const uid of Object.keys(next.contentTypes)) {
    if (before.components[uid] && !before.contentTypes[uid]) errors.push(fieldError(['contentTypes', uid], `${uid} is a component`));
  }
}

/** Scalar attributes become columns next to the system columns; their names must not clash. */
function checkColumnNames(next: Model, errors: FieldError[]): void {
  const check = (section: 'contentTypes' | 'components', owner: ContentType | Component, reserved: readonly string[]) => {
    for (const [name, attr] of Object.entries(owner.attributes)) {
      if (attr.kind === 'scalar' && reserved.includes(name)) {
        errors.push(fieldError([section, owner.uid, 'attributes', name], `Attribute name "${name}" of ${owner.uid} is reserved`));
      }
    }
  };
  for (const ct of Object.values(next.contentTypes)) check('contentTypes', ct, CONTENT_TYPE_SYSTEM_COLUMNS);
  for (const c of Object.values(next.components)) check('components', c, COMPONENT_SYSTEM_COLUMNS);
}

function kindOf(attr: Attribute): AttributeKind {
  return attr.kind;
}

/** Scalars by type, the rest by kind: what "change attribute x from A to B" names. */
function shapeOf(attr: Attribute): string {
  return attr.kind === 'scalar' ? attr.type : attr.kind;
}

function componentStorage(attr: Attribute): ComponentStorage | null {
  if (attr.kind === 'component') return { kind: 'component', components: [attr.component], single: !attr.repeatable };
  if (attr.kind === 'dynamiczone') return { kind: 'dynamiczone', components: [...attr.components], single: false };
  return null;
}

function diffAttributes(
  uid: string, old: ContentType | Component, cur: ContentType | Component,
  b: PhysicalModel, n: PhysicalModel, steps: MigrationStep[],
): void {
  const dropped = Object.keys(old.attributes).filter((name) => !cur.attributes[name]);
  const added = Object.keys(cur.attributes).filter((name) => !old.attributes[name]);
  for (const name of dropped) {
    steps.push({ op: 'dropAttribute', type: uid, attribute: name, kind: kindOf(old.attributes[name]!), description: `drop attribute ${name} of ${uid}` });
  }
  for (const [name, attr] of Object.entries(cur.attributes)) {
    const was = old.attributes[name];
    if (!was) continue;
    const bAttr = (b.contentTypes[uid] ?? b.components[uid])!.attributes[name]!;
    const nAttr = (n.contentTypes[uid] ?? n.components[uid])!.attributes[name]!;
    diffAttribute(uid, name, was, attr, bAttr, nAttr, steps);
  }
  for (const name of added) {
    steps.push({ op: 'addAttribute', type: uid, attribute: name, kind: kindOf(cur.attributes[name]!), description: `add attribute ${name} to ${uid}` });
    const nAttr = (n.contentTypes[uid] ?? n.components[uid])!.attributes[name]!;
    if (nAttr.kind === 'scalar' && nAttr.index) {
      steps.push({ op: 'addIndex', type: uid, attribute: name, index: nAttr.index, description: `index ${name} of ${uid} (built concurrently, writes go on)` });
    }
  }
}

function diffAttribute(
  uid: string, name: string, was: Attribute, attr: Attribute,
  bAttr: PhysicalAttribute, nAttr: PhysicalAttribute, steps: MigrationStep[],
): void {
  const base = { type: uid, attribute: name };
  if (was.kind === 'scalar' && attr.kind === 'scalar' && bAttr.kind === 'scalar' && nAttr.kind === 'scalar') {
    const hadIndex = bAttr.uniqueIndex !== null;
    const hasIndex = nAttr.uniqueIndex !== null;
    // Drop a unique index before converting, create one after.
    if (hadIndex && !hasIndex) steps.push({ op: 'dropUnique', ...base, description: `drop unique constraint of ${name} on ${uid}` });
    if (was.type !== attr.type) {
      steps.push({ op: 'changeScalarType', ...base, from: was.type, to: attr.type, description: `change type of ${name} on ${uid} from ${was.type} to ${attr.type}` });
    } else if (attr.type === 'enumeration' && !sameSet(was.enum ?? [], attr.enum ?? [])) {
      steps.push({ op: 'changeEnumeration', ...base, values: [...(attr.enum ?? [])], description: `change values of enumeration ${name} on ${uid}` });
    }
    if (!hadIndex && hasIndex) steps.push({ op: 'addUnique', ...base, description: `make ${name} on ${uid} unique` });
    // `index: true`: the column keeps its name here (renames run first and rename the index too).
    if (bAttr.index && !nAttr.index) steps.push({ op: 'dropIndex', ...base, index: bAttr.index, description: `drop the index on ${name} of ${uid} (concurrently)` });
    if (!bAttr.index && nAttr.index) steps.push({ op: 'addIndex', ...base, index: nAttr.index, description: `index ${name} of ${uid} (built concurrently, writes go on)` });
    return;
  }
  if (bAttr.kind === 'relation' && nAttr.kind === 'relation') {
    if (bAttr.side === 'owner' && nAttr.side === 'owner') {
      if (bAttr.target !== nAttr.target) {
        steps.push({ op: 'changeRelationTarget', ...base, from: bAttr.target, to: nAttr.target, description: `change target of relation ${name} on ${uid} from ${bAttr.target} to ${nAttr.target}` });
      } else if (bAttr.relation !== nAttr.relation) {
        steps.push({ op: 'changeRelationKind', ...base, from: bAttr.relation, to: nAttr.relation, description: `change relation ${name} on ${uid} from ${bAttr.relation} to ${nAttr.relation}` });
      }
    } else if (bAttr.side !== nAttr.side) {
      steps.push({
        op: 'changeRelationOwner', ...base, owner: nAttr.side === 'owner',
        description: nAttr.side === 'owner'
          ? `store the links of relation ${name} on ${uid} (it becomes the owning side)`
          : `drop the links of relation ${name} on ${uid} (the owning side moves to ${nAttr.ownerUid}.${nAttr.ownerAttribute})`,
      });
    }
    // Inverse on both sides: the owning side's steps cover it.
    return;
  }
  if (bAttr.kind === 'media' && nAttr.kind === 'media') {
    if (bAttr.multiple !== nAttr.multiple) {
      steps.push({ op: 'changeMediaMultiple', ...base, multiple: nAttr.multiple, description: `make media ${name} on ${uid} ${nAttr.multiple ? 'multiple' : 'single'}` });
    }
    return;
  }
  const from = componentStorage(was);
  const to = componentStorage(attr);
  if (from && to) {
    if (from.kind !== to.kind || from.single !== to.single || !sameSet(from.components, to.components)) {
      steps.push({ op: 'changeComponentStorage', ...base, from, to, description: `change ${from.kind} ${name} on ${uid} (${describeStorage(from)} → ${describeStorage(to)})` });
    }
    return;
  }
  steps.push({ op: 'replaceAttribute', ...base, from: shapeOf(was), to: shapeOf(attr), description: `change attribute ${name} of ${uid} from ${shapeOf(was)} to ${shapeOf(attr)}` });
}

function describeStorage(s: ComponentStorage): string {
  const list = s.components.join(', ');
  return s.kind === 'dynamiczone' ? `[${list}]` : `${list}${s.single ? '' : ' (repeatable)'}`;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}
