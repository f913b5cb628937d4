// The validated form of a write body (`{"data":{…}}` of POST/PUT, GraphQL `data` input): what
// `parseDocumentData` produces and the writer applies. Values are already cast; names are
// attributes of the model; nothing here has touched the database yet.

/** A relation target as the body names it. */
export type TargetRef =
  /** `locale`/`status` pick the target version; absent → the source's locale, published. */
  | { kind: 'document'; documentId: string; locale?: string; status?: 'draft' | 'published' }
  /** Numeric row id (`{"id":12}`), still accepted by Strapi v5. Decimal text. */
  | { kind: 'id'; id: string };

/** Where `connect` puts a target in an ordered to-many relation (default: end). */
export type Position =
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'before'; ref: TargetRef }
  | { kind: 'after'; ref: TargetRef };

export interface ConnectItem {
  ref: TargetRef;
  position: Position;
}

/**
 * What to do with one relation attribute. The shorthand (`"chef":"<docId>"`, an array, `null`)
 * and `{set:[…]}` are `set` (null / [] = clear); `{connect, disconnect}` is `change`. With `set`
 * present, connect/disconnect are ignored (Strapi).
 */
export type RelationWrite =
  | { kind: 'set'; refs: TargetRef[] }
  | { kind: 'change'; connect: ConnectItem[]; disconnect: TargetRef[] };

/**
 * Scalar value ready to bind as `$n::<column sqlType>`: the canonical text of the value
 * (numbers, booleans, dates as Postgres parses them; json/blocks as JSON text), or null.
 * Password attributes carry the plain text; the writer hashes it.
 */
export type ScalarWrite = string | null;

/** One component row to write (a single component, a repeatable item, a dynamic-zone item). */
export interface ComponentItemWrite {
  /** component uid, e.g. `shared.seo` */
  component: string;
  /** `id` of an existing row of this owner/field to update in place (decimal text), or null to insert. */
  id: string | null;
  row: RowWrite;
}

/**
 * The attributes of one row (a document version or a component row) present in the body, in
 * schema order, plus schema defaults on create. Absent attributes are left untouched on update.
 */
export interface RowWrite {
  scalars: Map<string, ScalarWrite>;
  /** single component: [] (null in the body) or [item]; repeatable: the items in order */
  components: Map<string, ComponentItemWrite[]>;
  /** items in order; [] clears */
  dynamicZones: Map<string, ComponentItemWrite[]>;
  relations: Map<string, RelationWrite>;
  /** media attribute → file ids (decimal text) in order; [] clears */
  media: Map<string, string[]>;
}

export function emptyRowWrite(): RowWrite {
  return { scalars: new Map(), components: new Map(), dynamicZones: new Map(), relations: new Map(), media: new Map() };
}
