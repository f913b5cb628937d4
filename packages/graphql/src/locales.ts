// The i18n plugin's GraphQL queries: `i18NLocale(documentId)`, `i18NLocales` and
// `i18NLocales_connection` over the project's locales (Strapi v5 names and types). A project has a
// handful of locales, held in memory by the registry: filters, sort and pagination run in memory.
import { GraphQLID, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { selectInMemory, type InMemoryListArgs } from './in-memory-list.ts';
import { inMemoryListTypes } from './in-memory-list-types.ts';
import { DateTimeScalar } from './scalars.ts';
import type { GraphqlContext, SchemaParts } from './context.ts';

const FIELDS = ['documentId', 'name', 'code', 'createdAt', 'updatedAt', 'publishedAt'] as const;

const select = (ctx: GraphqlContext, args: InMemoryListArgs) => selectInMemory(ctx.locales, FIELDS, args, ctx.limits);

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
  const { collection, listArgs: baseArgs } = inMemoryListTypes('I18NLocale', FIELDS, locale, parts);
  const listArgs = { ...baseArgs, status: { type: parts.publicationStatus } };
  const fields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {
    i18NLocale: {
      type: locale,
      args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, status: { type: parts.publicationStatus } },
      resolve: (_source, args: { documentId: string }, ctx) => ctx.locales.find((l) => l.documentId === args.documentId) ?? null,
    },
    i18NLocales: { type: new GraphQLNonNull(new GraphQLList(locale)), args: listArgs, resolve: (_source, args: InMemoryListArgs, ctx) => select(ctx, args).nodes },
    i18NLocales_connection: { type: collection, args: listArgs, resolve: (_source, args: InMemoryListArgs, ctx) => select(ctx, args) },
  };
  for (const [name, config] of Object.entries(fields)) {
    // A content type generating one of these names would silently lose its field: refuse instead.
    if (Object.hasOwn(query, name)) throw new Error(`The root field "${name}" is reserved for the i18n plugin`);
    query[name] = config;
  }
}
