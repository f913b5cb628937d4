// Bidirectional relations: the `inversedBy` side and the `mappedBy` side must name each other,
// target each other, and have mirrored kinds, or the two ends would disagree about the link table.
import type { Parsed } from './content-type.ts';
import type { Issues } from './issues.ts';
import type { ContentType, RelationAttribute, RelationKind } from './types.ts';

const MIRROR: Record<RelationKind, RelationKind> = {
  oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany',
};

export function checkRelationPairs(types: Parsed<ContentType>[], issues: Issues): void {
  const byUid = new Map(types.map((t) => [t.value.uid, t]));
  for (const { value: type, path, attrs } of types) {
    for (const attr of attrs.attributes.values()) {
      if (attr.kind !== 'relation') continue;
      const key = attr.inversedBy !== undefined ? 'inversedBy' : attr.mappedBy !== undefined ? 'mappedBy' : null;
      if (!key) continue; // one-way
      const other = byUid.get(attr.target);
      const problem = other ? pairProblem(type.uid, attr, key, other) : null;
      if (problem) issues.add([...path, 'attributes', attr.name, problem.at], problem.message);
    }
  }
}

function pairProblem(uid: string, attr: RelationAttribute, key: 'inversedBy' | 'mappedBy', other: Parsed<ContentType>): { at: string; message: string } | null {
  const otherName = attr[key]!;
  const back = key === 'inversedBy' ? 'mappedBy' : 'inversedBy';
  const where = `${attr.target}.${otherName}`;
  // Attributes that were not parsed (too many, or invalid) already carry their own error.
  if (!other.attrs.complete || (other.attrs.declared.has(otherName) && !other.attrs.attributes.has(otherName))) return null;
  const peer = other.attrs.attributes.get(otherName);
  if (!peer) return { at: key, message: `${key} "${otherName}": ${attr.target} has no attribute "${otherName}"` };
  if (peer.kind !== 'relation') return { at: key, message: `${key} "${otherName}": ${where} is not a relation` };
  if (peer.target !== uid || peer[back] !== attr.name) {
    return { at: key, message: `${key} "${otherName}": ${where} must be a relation to ${uid} with ${back} "${attr.name}"` };
  }
  // Kinds are compared once, from the inversedBy (owning) side.
  if (key === 'inversedBy' && MIRROR[attr.relation] !== peer.relation) {
    return { at: 'relation', message: `relation ${attr.relation} must be paired with ${MIRROR[attr.relation]}, but ${where} is ${peer.relation}` };
  }
  return null;
}
