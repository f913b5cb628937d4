export * from './ast.ts';
export { parseQuery, parseFilters, parseSort, parseFields, parsePagination, parsePopulate, asList, LIMITS, type ParseOptions } from './parse.ts';
export { parseQueryString } from './query-string.ts';
