// A root field's text, for the read cache's exact tier: the field as written (every node merged
// under its response key) with the fragments it spreads. With the operation's variables it
// determines the field's resolve tree, so a repeated operation finds its read without even
// parsing the selection — as the per-field-node cache did, and across documents too (a document
// parsed again, or another operation holding the same field). Each node's text is printed once:
// nodes belong to a parsed document, which mercurius keeps while it is in use.
import { Kind, print, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

const printed = new WeakMap<FieldNode, string>();

export function fieldSignature(info: { fieldNodes: readonly FieldNode[]; fragments: Record<string, FragmentDefinitionNode> }): string {
  let out = '';
  for (const node of info.fieldNodes) {
    let text = printed.get(node);
    if (text === undefined) printed.set(node, (text = printField(node, info.fragments)));
    out += `${text}\n`;
  }
  return out;
}

function printField(node: FieldNode, fragments: Record<string, FragmentDefinitionNode>): string {
  const spread = new Set<string>();
  collectSpreads(node.selectionSet, fragments, spread);
  return [print(node), ...[...spread].sort().map((name) => print(fragments[name]!))].join('\n');
}

function collectSpreads(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, into: Set<string>): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      if (into.has(name) || !fragments[name]) continue;
      into.add(name);
      collectSpreads(fragments[name].selectionSet, fragments, into);
    } else {
      collectSpreads(selection.selectionSet, fragments, into);
    }
  }
}
