// The i18n plugin's GraphQL queries: `i18NLocale(documentId)`, `i18NLocales` and
// `i18NLocales_connection` over the project's locales (Strapi v5 names and types). A project has a
// handful of locales, held in memory by the registry: filters, sort and pagination run here, with
// the operators of every other `…FiltersInput`.
import {
  GraphQLID, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  type GraphQLEnumType, type GraphQLFieldConfigMap, type GraphQLInputType, type GraphQLScalarType,
} from 'graphql';
import { ValidationError } from '@cms/errors';
import { pageInfo, rowWindow } from './pagination.ts';
import type { GraphqlContext } from './resolvers.ts';
import { DateTimeScalar } from './scalars.ts';

/** A locale as the queries answer it (the gateway supplies them with the context). */
export interface LocaleView {
  documentId: string;
  name: string;
  code: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/** Shared schema pieces of the generated schema. */
export interface SchemaParts {
  pagination: GraphQLObjectType;
  paginationArg: GraphQLInputObjectType;
  publicationStatus: GraphQLEnumType;
  filterOf(scalar: GraphQLScalarType): GraphQLInputObjectType;
}

const FIELDS = ['documentId', 'name', 'code', 'createdAt', 'updatedAt', 'publishedAt'] as const;
type Field = (typeof FIELDS)[number];
const isField = (key: string): key is Field => (FIELDS as readonly string[]).includes(key);

type Filter = Record<string, unknown>;

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

/** An `I18NLocaleFiltersInput` against one locale. */
function matches(locale: LocaleView, filter: Filter | null | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, arg]) => {
    if (arg === undefined || arg === null) return true;
    if (key === 'and') return (arg as Filter[]).every((f) => matches(locale, f));
    if (key === 'or') return (arg as Filter[]).some((f) => matches(locale, f));
    if (key === 'not') return !matches(locale, arg as Filter);
    return isField(key) ? matchesValue(locale[key], arg as Filter) : true;
  });
}

/** `sort: ["code:desc", "name"]` as one comparator; an unknown key is Strapi's 400. */
function comparator(sort: unknown): (a: LocaleView, b: LocaleView) => number {
  const items = (Array.isArray(sort) ? sort : sort ? [sort] : []).flatMap((s) => String(s).split(','));
  const keys = items.map((item) => {
    const [key = '', direction = 'asc'] = item.trim().split(':');
    if (!isField(key)) throw ValidationError.invalidKey(key, { source: 'query', param: 'sort' });
    if (!/^(asc|desc)$/i.test(direction)) throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
    return { key, sign: direction.toLowerCase() === 'desc' ? -1 : 1 };
  });
  return (a, b) => {
    for (const { key, sign } of keys) {
      if (a[key] !== b[key]) return a[key] < b[key] ? -sign : sign;
    }
    return 0;
  };
}

interface ListArgs {
  filters?: Filter | null;
  sort?: unknown;
  pagination?: Parameters<typeof rowWindow>[0];
}

function select(ctx: GraphqlContext, args: ListArgs) {
  const all = ctx.locales.filter((l) => matches(l, args.filters)).sort(comparator(args.sort));
  const window = rowWindow(args.pagination, ctx.limits);
  const nodes = window.limit === -1 ? all.slice(window.start) : all.slice(window.start, window.start + window.limit);
  return { nodes, pageInfo: pageInfo(window, all.length) };
}

export const LOCALE_ROOT_FIELDS = ['i18NLocale', 'i18NLocales', 'i18NLocales_connection'];

/** The locale types and root fields, added to `query`. */
export function addLocaleQueries(query: GraphQLFieldConfigMap<unknown, GraphqlContext>, parts: SchemaParts): void {
  const str = { type: GraphQLString };
  const locale = new GraphQLObjectType({
    name: 'I18NLocale',
    fields: {
      documentId: { type: new GraphQLNonNull(GraphQLID) }, name: str, code: str,
      createdAt: { type: DateTimeScalar }, updatedAt: { type: DateTimeScalar }, publishedAt: { type: DateTimeScalar },
    },
  });
  const filters: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: 'I18NLocaleFiltersInput',
    fields: () => ({
      documentId: { type: parts.filterOf(GraphQLID) },
      name: { type: parts.filterOf(GraphQLString) },
      code: { type: parts.filterOf(GraphQLString) },
      createdAt: { type: parts.filterOf(DateTimeScalar) },
      updatedAt: { type: parts.filterOf(DateTimeScalar) },
      publishedAt: { type: parts.filterOf(DateTimeScalar) },
      and: { type: new GraphQLList(filters) as GraphQLInputType },
      or: { type: new GraphQLList(filters) as GraphQLInputType },
      not: { type: filters },
    }),
  });
  const collection = new GraphQLObjectType({
    name: 'I18NLocaleEntityResponseCollection',
    fields: { nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(locale))) }, pageInfo: { type: new GraphQLNonNull(parts.pagination) } },
  });
  const listArgs = {
    filters: { type: filters }, pagination: { type: parts.paginationArg }, sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
    status: { type: parts.publicationStatus },
  };
  const fields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {
    i18NLocale: {
      type: locale,
      args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, status: { type: parts.publicationStatus } },
      resolve: (_source, args: { documentId: string }, ctx) => ctx.locales.find((l) => l.documentId === args.documentId) ?? null,
    },
    i18NLocales: { type: new GraphQLNonNull(new GraphQLList(locale)), args: listArgs, resolve: (_source, args: ListArgs, ctx) => select(ctx, args).nodes },
    i18NLocales_connection: { type: collection, args: listArgs, resolve: (_source, args: ListArgs, ctx) => select(ctx, args) },
  };
  for (const [name, config] of Object.entries(fields)) {
    // A content type generating one of these names would silently lose its field: refuse instead.
    if (Object.hasOwn(query, name)) throw new Error(`The root field "${name}" is reserved for the i18n plugin`);
    query[name] = config;
  }
}
