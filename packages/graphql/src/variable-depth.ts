// How deep an operation's variables may nest (HTTP operations and subscriptions alike): past this
// they are refused before coercion, which would recurse through them.
export const MAX_VARIABLE_DEPTH = 100;

/** Is any value nested deeper than `limit` (arrays and objects)? Iterative: the input may be hostile. */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
