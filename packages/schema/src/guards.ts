// Type guards for untrusted JSON. Lookups go through `own` so that inherited properties
// (`constructor`, `toString`, a forged `__proto__`) are never mistaken for data.

export type JsonObject = Record<string, unknown>;

/** A plain object (not null, not an array, not a Date/Map/class instance). */
export function isObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An own property, or undefined. */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** An optional option: absent and `null` both mean "not given" (Strapi writes `null` for unset options). */
export function given(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key) && obj[key] !== undefined && obj[key] !== null;
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** A short, safe rendering of a user-supplied value for error messages (10k-char names stay readable). */
export function show(value: unknown, max = 60): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? describeType(value));
  } catch {
    text = describeType(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Deep copy for `raw`; input that is not plain data (functions, symbols) yields undefined. */
export function cloneJson<T>(value: T): T | undefined {
  try {
    return structuredClone(value);
  } catch {
    return undefined;
  }
}
