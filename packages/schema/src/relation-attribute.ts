// Relation attributes, checked on their own; whether two sides agree needs the whole model
// and lives in relation-pairs.ts.
import { withBase, type BaseFields, type OwnerContext } from './attribute-base.ts';
import { describeType, show } from './guards.ts';
import { ATTRIBUTE_NAME, LIMITS } from './names.ts';
import type { OptionReader } from './options.ts';
import { RELATION_KINDS, USERS_UID, type RelationAttribute, type RelationKind } from './types.ts';

/** Strapi's one-way spellings. */
const ALIASES: Record<string, RelationKind> = { oneWay: 'oneToOne', manyWay: 'oneToMany' };
const POLYMORPHIC = new Set(['morphToOne', 'morphToMany', 'morphOne', 'morphMany']);
/** Plugin types customers reach another way than a relation. */
const OTHER_WAY: Record<string, string> = { 'plugin::upload.file': 'use a media attribute for files' };

export function parseRelation(ctx: OwnerContext, base: BaseFields, opts: OptionReader): RelationAttribute | undefined {
  const declared = readKind(opts);
  const target = readTarget(ctx, opts);
  const inversedBy = readSideName(opts, 'inversedBy');
  const mappedBy = readSideName(opts, 'mappedBy');
  const sideProblem = checkSides(ctx, opts, declared?.given, target, inversedBy, mappedBy);
  // An invalid relation is left out, so relation-pairs.ts does not report it again.
  if (!declared || target === undefined || sideProblem) return undefined;
  const relation = declared.kind;
  const attr = withBase<RelationAttribute>(base, {
    kind: 'relation', relation, target,
    owner: mappedBy === undefined,
    many: relation === 'oneToMany' || relation === 'manyToMany',
  });
  if (inversedBy !== undefined) attr.inversedBy = inversedBy;
  if (mappedBy !== undefined) attr.mappedBy = mappedBy;
  return attr;
}

/** At most one of inversedBy/mappedBy, and none on one-way spellings, inside components or toward end users. */
function checkSides(
  ctx: OwnerContext, opts: OptionReader, given: string | undefined, target: string | undefined, inversedBy?: string, mappedBy?: string,
): boolean {
  const sides = [inversedBy !== undefined && 'inversedBy', mappedBy !== undefined && 'mappedBy'].filter(Boolean) as string[];
  if (sides.length === 2) {
    opts.fail('mappedBy', 'inversedBy and mappedBy cannot both be set');
  } else if (sides.length === 1 && ctx.kind === 'component') {
    opts.fail(sides[0]!, `relations in components must be one-way (${sides[0]} is not allowed)`);
  } else if (sides.length === 1 && given !== undefined && Object.hasOwn(ALIASES, given)) {
    opts.fail(sides[0]!, `${given} relations are one-way (${sides[0]} is not allowed)`);
  } else if (sides.length === 1 && target === USERS_UID) {
    // The user type's schema is the platform's: it cannot hold the other side.
    opts.fail(sides[0]!, `relations to ${USERS_UID} must be one-way (${sides[0]} is not allowed: the user type cannot be edited)`);
  } else {
    return false;
  }
  return true;
}

function readKind(opts: OptionReader): { given: string; kind: RelationKind } | undefined {
  if (!opts.has('relation')) return opts.fail('relation', 'relation is required');
  const given = opts.value('relation');
  if (typeof given !== 'string') return opts.fail('relation', `relation must be a string, got ${describeType(given)}`);
  if (POLYMORPHIC.has(given)) return opts.fail('relation', `polymorphic relations are not supported (${given})`);
  if (Object.hasOwn(ALIASES, given)) return { given, kind: ALIASES[given]! };
  if ((RELATION_KINDS as readonly string[]).includes(given)) return { given, kind: given as RelationKind };
  return opts.fail('relation', `relation ${show(given)} is not one of ${[...RELATION_KINDS, ...Object.keys(ALIASES)].join(', ')}`);
}

function readTarget(ctx: OwnerContext, opts: OptionReader): string | undefined {
  if (!opts.has('target')) return opts.fail('target', 'target is required');
  const target = opts.value('target');
  if (typeof target !== 'string') return opts.fail('target', `target must be a string, got ${describeType(target)}`);
  if (target === USERS_UID || ctx.contentTypeUids.has(target)) return target;
  const hint = Object.hasOwn(OTHER_WAY, target) ? ` (${OTHER_WAY[target]})` : '';
  return opts.fail('target', `target ${show(target)} is not a content type of this model${hint}`);
}

function readSideName(opts: OptionReader, key: 'inversedBy' | 'mappedBy'): string | undefined {
  const name = opts.string(key, LIMITS.attributeName);
  if (name === undefined) return undefined;
  return ATTRIBUTE_NAME.test(name) ? name : opts.fail(key, `${key} ${show(name)} is not a valid attribute name`);
}
