// Custom scalars of the generated schemas. Output values arrive already formatted by Postgres
// (ISO timestamps, bigintegers as strings), so serialising is the identity. Inputs are checked for
// their GraphQL shape, and dates and times for their format as Strapi's scalars do: a bad literal
// fails validation (400 GRAPHQL_VALIDATION_FAILED), a bad variable its coercion (400 BAD_USER_INPUT),
// both with the write validator's message.
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';
import { temporalInputError } from '@cms/query';

const identity = (value: unknown): unknown => value;

function stringScalar(name: string, description: string, format?: 'date' | 'time' | 'datetime'): GraphQLScalarType {
  const check = (value: string, ast?: ValueNode): string => {
    const message = format ? temporalInputError(format, value) : null;
    if (message !== null) throw new GraphQLError(message, ast ? { nodes: ast } : undefined);
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: identity,
    parseValue(value) {
      if (typeof value !== 'string') throw new GraphQLError(`${name} cannot represent a non-string value: ${JSON.stringify(value) ?? String(value)}`);
      return check(value);
    },
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} cannot represent a non-string value`, { nodes: ast });
      return check(ast.value, ast);
    },
  });
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'The `JSON` scalar type represents JSON values as specified by ECMA-404.',
  serialize: identity,
  parseValue: identity,
  parseLiteral: (ast: ValueNode, variables?: Record<string, unknown> | null) => valueFromASTUntyped(ast, variables ?? undefined),
});

export const DateTimeScalar = stringScalar('DateTime', 'A date-time string at UTC, such as 2007-12-03T10:15:30Z.', 'datetime');
export const DateScalar = stringScalar('Date', 'A date string, such as 2007-12-03.', 'date');
export const TimeScalar = stringScalar('Time', 'A time string with format HH:mm:ss.SSS', 'time');
export const LocaleScalar = stringScalar('I18NLocaleCode', 'A string used to identify an i18n locale');

const INTEGER = /^-?\d+$/;

/** 64-bit integers travel as strings (they do not fit a JS number); integer literals are accepted too. */
export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize: identity,
  parseValue(value) {
    if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && INTEGER.test(value))) return String(value);
    throw new GraphQLError(`Long cannot represent a non-integer value: ${JSON.stringify(value) ?? String(value)}`);
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || (ast.kind === Kind.STRING && INTEGER.test(ast.value))) return ast.value;
    throw new GraphQLError('Long cannot represent a non-integer value', { nodes: ast });
  },
});

export const CUSTOM_SCALARS = [JSONScalar, DateTimeScalar, DateScalar, TimeScalar, LongScalar, LocaleScalar];
