// The GraphQL types of a plugin list filtered in memory (locales, roles): its `…FiltersInput`
// over the listed fields, its `…EntityResponseCollection`, and the list arguments.
import { GraphQLID, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLInputType } from 'graphql';
import type { SchemaParts } from './context.ts';
import { DateTimeScalar } from './scalars.ts';

/** `documentId` is an ID, the `…At` fields are dates, every other listed field is text. */
const scalarOf = (field: string) => (field === 'documentId' ? GraphQLID : field.endsWith('At') ? DateTimeScalar : GraphQLString);

/** `name`: the Strapi type name (`I18NLocale`); `fields`: the filterable fields, in order. */
export function inMemoryListTypes(name: string, fields: readonly string[], node: GraphQLObjectType, parts: SchemaParts) {
  const filters: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${name}FiltersInput`,
    fields: () => ({
      ...Object.fromEntries(fields.map((field) => [field, { type: parts.filterOf(scalarOf(field)) }])),
      and: { type: new GraphQLList(filters) as GraphQLInputType },
      or: { type: new GraphQLList(filters) as GraphQLInputType },
      not: { type: filters },
    }),
  });
  const collection = new GraphQLObjectType({
    name: `${name}EntityResponseCollection`,
    fields: { nodes: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(node))) }, pageInfo: { type: new GraphQLNonNull(parts.pagination) } },
  });
  const listArgs = { filters: { type: filters }, pagination: { type: parts.paginationArg }, sort: { type: new GraphQLList(GraphQLString), defaultValue: [] } };
  return { collection, listArgs };
}
