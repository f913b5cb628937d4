import qs from 'qs';

// Strapi parses query strings with `qs`: brackets, numeric indexes, depth ≥ 20; arrays over 100
// items arrive as numeric-keyed objects (the query parser treats those as arrays).
export function parseQueryString(input: string): Record<string, unknown> {
  return qs.parse(input, { depth: 20, arrayLimit: 100, parameterLimit: 2000, allowPrototypes: false, strictDepth: false });
}
