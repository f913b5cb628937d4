// Filters, sort and pagination of a plugin's small in-memory lists (a project's locales and
// roles) with the operators and messages of every generated `…FiltersInput`: a handful of items
// the registry already holds need no SQL.
import { ValidationError } from '@cms/errors';
import { pageInfo, rowWindow, type GraphqlLimits } from './pagination.ts';

type Filter = Record<string, unknown>;
type Item = Readonly<Record<string, string | null>>;

export interface InMemoryListArgs {
  filters?: Filter | null;
  sort?: unknown;
  pagination?: Parameters<typeof rowWindow>[0];
}

const lower = (v: unknown) => String(v).toLowerCase();

/** One scalar filter input (`{eq: …, containsi: …, not: {…}}`) against one value. */
function matchesValue(value: string | null, filter: Filter): boolean {
  return Object.entries(filter).every(([op, arg]) => {
    if (arg === undefined) return true;
    const text = value ?? '';
    switch (op) {
      case 'eq': return value === arg;
      case 'eqi': return value !== null && lower(value) === lower(arg);
      case 'ne': return value !== arg;
      case 'nei': return value === null || lower(value) !== lower(arg);
      case 'startsWith': return value !== null && text.startsWith(String(arg));
      case 'endsWith': return value !== null && text.endsWith(String(arg));
      case 'contains': return value !== null && text.includes(String(arg));
      case 'notContains': return value === null || !text.includes(String(arg));
      case 'containsi': return value !== null && lower(text).includes(lower(arg));
      case 'notContainsi': return value === null || !lower(text).includes(lower(arg));
      case 'gt': return value !== null && text > String(arg);
      case 'gte': return value !== null && text >= String(arg);
      case 'lt': return value !== null && text < String(arg);
      case 'lte': return value !== null && text <= String(arg);
      case 'null': return arg === null || (value === null) === arg;
      case 'notNull': return arg === null || (value !== null) === arg;
      case 'in': return (arg as unknown[]).includes(value);
      case 'notIn': return !(arg as unknown[]).includes(value);
      case 'between': {
        const [from, to] = arg as unknown[];
        return value !== null && text >= String(from) && text <= String(to);
      }
      case 'and': return (arg as unknown[]).every((v) => value === v);
      case 'or': return (arg as unknown[]).some((v) => value === v);
      case 'not': return arg === null || !matchesValue(value, arg as Filter);
      default: return true;
    }
  });
}

/** A `…FiltersInput` against one item. */
function matches(item: Item, fields: readonly string[], filter: Filter | null | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, arg]) => {
    if (arg === undefined || arg === null) return true;
    if (key === 'and') return (arg as Filter[]).every((f) => matches(item, fields, f));
    if (key === 'or') return (arg as Filter[]).some((f) => matches(item, fields, f));
    if (key === 'not') return !matches(item, fields, arg as Filter);
    return fields.includes(key) ? matchesValue(item[key] ?? null, arg as Filter) : true;
  });
}

/** `sort: ["code:desc", "name"]` as one comparator; an unknown key is Strapi's 400. */
function comparator(sort: unknown, fields: readonly string[]): (a: Item, b: Item) => number {
  const items = (Array.isArray(sort) ? sort : sort ? [sort] : []).flatMap((s) => String(s).split(','));
  const keys = items.map((item) => {
    const [key = '', direction = 'asc'] = item.trim().split(':');
    if (!fields.includes(key)) throw ValidationError.invalidKey(key, { source: 'query', param: 'sort' });
    if (!/^(asc|desc)$/i.test(direction)) throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
    return { key, sign: direction.toLowerCase() === 'desc' ? -1 : 1 };
  });
  return (a, b) => {
    for (const { key, sign } of keys) {
      const x = a[key] ?? '';
      const y = b[key] ?? '';
      if (x !== y) return x < y ? -sign : sign;
    }
    return 0;
  };
}

/** The page of `items` that `args` asks for, in connection form. */
export function selectInMemory<T extends object>(items: readonly T[], fields: readonly string[], args: InMemoryListArgs, limits: GraphqlLimits) {
  const all = (items as unknown as Item[]).filter((item) => matches(item, fields, args.filters)).sort(comparator(args.sort, fields)) as unknown as T[];
  const window = rowWindow(args.pagination, limits);
  const nodes = window.limit === -1 ? all.slice(window.start) : all.slice(window.start, window.start + window.limit);
  return { nodes, pageInfo: pageInfo(window, all.length) };
}
