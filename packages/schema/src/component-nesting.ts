// Components may embed components, but never themselves (directly or through others: the rows
// could never be written) and only up to a bounded depth (each level is one more join per read).
import type { Parsed } from './content-type.ts';
import type { Issues } from './issues.ts';
import { LIMITS } from './names.ts';
import type { Component } from './types.ts';

interface Edge {
  attribute: string;
  child: string;
}

export function checkComponentNesting(components: Parsed<Component>[], issues: Issues): void {
  const byUid = new Map(components.map((c) => [c.value.uid, c]));
  const edges = new Map<string, Edge[]>();
  for (const { value, attrs } of components) {
    // One edge per child component is enough for both checks.
    const out = new Map<string, Edge>();
    for (const attr of attrs.attributes.values()) {
      if (attr.kind === 'component' && byUid.has(attr.component) && !out.has(attr.component)) {
        out.set(attr.component, { attribute: attr.name, child: attr.component });
      }
    }
    edges.set(value.uid, [...out.values()]);
  }
  if (reportCycles(byUid, edges, issues)) return; // depth is meaningless on a cyclic graph
  reportDepth(byUid, edges, issues);
}

/** Iterative DFS (hostile models may chain hundreds of components); one error per back edge. */
function reportCycles(byUid: Map<string, Parsed<Component>>, edges: Map<string, Edge[]>, issues: Issues): boolean {
  const state = new Map<string, 'active' | 'done'>();
  let found = false;
  for (const root of byUid.keys()) {
    if (state.has(root)) continue;
    const stack: { uid: string; next: number }[] = [{ uid: root, next: 0 }];
    state.set(root, 'active');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const edge = edges.get(frame.uid)![frame.next++];
      if (!edge) {
        state.set(frame.uid, 'done');
        stack.pop();
        continue;
      }
      const seen = state.get(edge.child);
      if (seen === 'active') {
        found = true;
        if (issues.full) continue;
        const chain = [...stack.slice(stack.findIndex((f) => f.uid === edge.child)).map((f) => f.uid), edge.child];
        issues.add([...byUid.get(frame.uid)!.path, 'attributes', edge.attribute, 'component'], `component nesting cycle: ${showChain(chain)}`);
      } else if (!seen) {
        state.set(edge.child, 'active');
        stack.push({ uid: edge.child, next: 0 });
      }
    }
  }
  return found;
}

/** Depth counts components: one with no nested components has depth 1. */
function reportDepth(byUid: Map<string, Parsed<Component>>, edges: Map<string, Edge[]>, issues: Issues): void {
  const depth = new Map<string, { depth: number; via?: Edge }>();
  // Post-order without recursion: the graph is a DAG here.
  for (const root of byUid.keys()) {
    const stack = [root];
    while (stack.length > 0) {
      const uid = stack[stack.length - 1]!;
      if (depth.has(uid)) { stack.pop(); continue; }
      const pending = edges.get(uid)!.filter((e) => !depth.has(e.child));
      if (pending.length > 0) { stack.push(...pending.map((e) => e.child)); continue; }
      let best: { depth: number; via?: Edge } = { depth: 1 };
      for (const e of edges.get(uid)!) {
        const d = depth.get(e.child)!.depth + 1;
        if (d > best.depth) best = { depth: d, via: e };
      }
      depth.set(uid, best);
      stack.pop();
    }
  }
  for (const uid of byUid.keys()) {
    const { depth: d, via } = depth.get(uid)!;
    if (d <= LIMITS.nestingDepth || !via || issues.full) continue;
    const chain = [uid];
    for (let at = depth.get(uid); at?.via; at = depth.get(at.via.child)) chain.push(at.via.child);
    issues.add([...byUid.get(uid)!.path, 'attributes', via.attribute, 'component'],
      `components can be nested at most ${LIMITS.nestingDepth} levels deep: ${showChain(chain)} is ${d}`);
  }
}

/** Long chains (hundreds of components) are shortened in messages. */
function showChain(chain: string[]): string {
  const shown = chain.length > 8 ? [...chain.slice(0, 4), '…', ...chain.slice(-3)] : chain;
  return shown.join(' → ');
}
