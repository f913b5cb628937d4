// Dynamic-zone items in mutation inputs are a scalar per zone (Strapi: `ArticleBlocksDynamicZoneInput`):
// each item names its component by GraphQL type name in `__typename` (verified). Parsing turns it
// into the REST body's `__component` uid; the write validator checks the rest of the item.
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';

export function dynamicZoneInputScalar(name: string, choices: Map<string, string>): GraphQLScalarType {
  const expected = [...choices.keys()].join(', ');
  const toItem = (value: unknown): Record<string, unknown> => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new GraphQLError(`${name} must be an object with a __typename`);
    }
    const { __typename, ...rest } = value as Record<string, unknown>;
    const uid = typeof __typename === 'string' && choices.has(__typename) ? choices.get(__typename)! : undefined;
    if (!uid) throw new GraphQLError(`${typeof __typename === 'string' ? __typename : 'undefined'} Component not found. expected one of: ${expected}`);
    return { __component: uid, ...rest };
  };
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: toItem,
    parseLiteral: (ast: ValueNode, variables?: Record<string, unknown> | null) => {
      if (ast.kind !== Kind.OBJECT) throw new GraphQLError(`${name} must be an object with a __typename`, { nodes: ast });
      return toItem(valueFromASTUntyped(ast, variables ?? undefined));
    },
  });
}
