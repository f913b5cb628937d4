// The model must be plain JSON data before anything deep-copies or stores it: structuredClone and
// JSON.stringify recurse, so a body nested thousands of levels deep (which JSON.parse accepts)
// would otherwise throw RangeError far from here; functions and cycles only come from JS callers.
import { LIMITS } from './names.ts';

/** The first problem that makes `value` not plain JSON data, or null. */
export function jsonProblem(value: unknown): string | null {
  return walk(value, 0, new Set(), new WeakSet());
}

function walk(value: unknown, depth: number, ancestors: Set<object>, checked: WeakSet<object>): string | null {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    return `the model must be plain JSON data (found a ${typeof value})`;
  }
  if (value === null || typeof value !== 'object') return null;
  if (ancestors.has(value)) return 'the model must be plain JSON data (found a circular reference)';
  if (checked.has(value)) return null; // the same object reused in two places is fine
  if (depth >= LIMITS.jsonDepth) return `the model is nested too deeply (more than ${LIMITS.jsonDepth} levels)`;
  ancestors.add(value);
  for (const key of Object.keys(value)) {
    const problem = walk((value as Record<string, unknown>)[key], depth + 1, ancestors, checked);
    if (problem) return problem;
  }
  ancestors.delete(value);
  checked.add(value);
  return null;
}
