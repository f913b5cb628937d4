// Request values, from where a query shape holds them to the parameters its SQL binds.
//
// A shape's template (query-shape.ts) holds a `ValueRef` wherever the request had a value the SQL
// only binds; the request's values sit in a list beside it. Planning asks a `Binder` for each one:
// the binder casts this request's value now (a bad value fails exactly as it always did) and
// records where it came from and how it was cast, as a slot; the plan holds a `Param` naming the
// slot. A later request of the same shape has its own values cast by the recorded slots
// (`castValues`), in the order planning met them, and bound to the same SQL (`bindParams`).

/** Where a template holds one of the request's values: its index in the values list. */
export class ValueRef {
  /** `shape`: what of the value the SQL's shape depends on (`null`, `empty`…; see value-classes.ts). */
  constructor(readonly index: number, readonly shape: string) {}
}

/** A value as the planner sees it: the request's own, or a template's reference to it. */
export type Leaf<T> = T | ValueRef;

/** A parameter of the plan: the value of one slot, or a part of it (`pick`: a page's LIMIT…). */
export class Param {
  constructor(readonly slot: number, private readonly pick?: (value: unknown) => unknown) {}

  /** A parameter computed from this one's value. */
  map<T>(pick: (value: T) => unknown): Param {
    const own = this.pick;
    const next = pick as (value: unknown) => unknown;
    return new Param(this.slot, own ? (value) => next(own(value)) : next);
  }

  valueIn(values: readonly unknown[]): unknown {
    const value = values[this.slot];
    return this.pick ? this.pick(value) : value;
  }
}

/** How one slot gets its value: cast from the request's value(s) behind a leaf, or a constant of the shape. */
export type Slot =
  | { kind: 'request'; leaf: unknown; cast(raw: unknown): unknown }
  | { kind: 'constant'; value: unknown };

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null && !(v instanceof ValueRef);

const holdsRef = (v: unknown): boolean =>
  v instanceof ValueRef || (isContainer(v) && (Array.isArray(v) ? v.some(holdsRef) : Object.values(v).some(holdsRef)));

/**
 * The request's value behind a leaf. An object or array leaf of a template may hold references
 * (a GraphQL filter object where a value was expected): its raw form is rebuilt, so a value error
 * quotes what the request sent.
 */
function rawOf(leaf: unknown, raw: readonly unknown[]): unknown {
  if (leaf instanceof ValueRef) return raw[leaf.index];
  if (!isContainer(leaf) || !holdsRef(leaf)) return leaf;
  if (Array.isArray(leaf)) return leaf.map((item) => rawOf(item, raw));
  return Object.fromEntries(Object.entries(leaf).map(([key, value]) => [key, rawOf(value, raw)]));
}

export class Binder {
  /** This request's value of every slot, in slot order. */
  readonly values: unknown[] = [];
  readonly slots: Slot[] = [];

  /** `raw`: the request's values a template refers to (none when planning a plain AST). */
  constructor(private readonly raw: readonly unknown[] = []) {}

  rawOf(leaf: unknown): unknown {
    return rawOf(leaf, this.raw);
  }

  /** A parameter for `leaf`, cast by `cast` now (errors are the request's) and recorded for later requests. */
  bind<T>(leaf: unknown, cast: (raw: never) => T): Param {
    const recast = cast as (raw: unknown) => T;
    const value = recast(this.rawOf(leaf));
    // A leaf without references is part of the shape (the caller's constant): keep its value.
    this.slots.push(holdsRef(leaf) ? { kind: 'request', leaf, cast: recast } : { kind: 'constant', value });
    return new Param(this.values.push(value) - 1);
  }

  valueOf(param: Param): unknown {
    return param.valueIn(this.values);
  }
}

/** The slot values of a later request of the same shape: its values cast as the first one's were. */
export function castValues(slots: readonly Slot[], raw: readonly unknown[]): unknown[] {
  return slots.map((slot) => (slot.kind === 'constant' ? slot.value : slot.cast(rawOf(slot.leaf, raw))));
}

/** A statement's parameters with every `Param` replaced by its value. */
export function bindParams(params: readonly unknown[], values: readonly unknown[]): unknown[] {
  return params.map((p) => (p instanceof Param ? p.valueIn(values) : p));
}
