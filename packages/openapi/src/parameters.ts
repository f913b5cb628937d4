// The content API's query parameters (Strapi v5's `fields`, `populate`, `filters`, `sort`,
// `pagination[…]`, `status`, `locale`, `publicationFilter`, `_q`; ours: `release`) and the reusable error answers.
import { PUBLICATION_FILTERS } from '@cms/query';
import { ref, type JsonObject } from './json-schema.ts';
import { FIXED_SCHEMAS } from './names.ts';

export interface PageLimits {
  defaultLimit: number;
  maxLimit: number;
}

/** A reference to a shared parameter. */
export const param = (name: string): JsonObject => ({ $ref: `#/components/parameters/${name}` });
const R = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });

/** Shared parameters, by component name. */
export function sharedParameters(limits: PageLimits): Record<string, JsonObject> {
  const pageParam = (key: string, description: string, schema: JsonObject = { type: 'integer' }) =>
    ({ name: `pagination[${key}]`, in: 'query', required: false, description, schema });
  return {
    page: pageParam('page', 'Page number (from 1); not with start/limit'),
    pageSize: pageParam('pageSize', `Documents per page (default ${limits.defaultLimit}, at most ${limits.maxLimit})`),
    start: pageParam('start', 'Documents to skip; not with page/pageSize'),
    limit: pageParam('limit', `Documents to return (at most ${limits.maxLimit})`),
    withCount: pageParam('withCount', 'Count the total (default true)', { type: 'boolean' }),
    filters: {
      name: 'filters', in: 'query', required: false, style: 'deepObject', explode: true,
      description: 'Conditions on fields, relations and components: `filters[title][$containsi]=x`, `filters[$or][0][rating][$gte]=4`, `filters[chef][name][$eq]=Ann`. Operators: $eq $eqi $ne $nei $lt $lte $gt $gte $in $notIn $contains $notContains $containsi $notContainsi $null $notNull $between $startsWith $startsWithi $endsWith $endsWithi, $and $or $not.',
      schema: { type: 'object' },
    },
    status: {
      name: 'status', in: 'query', required: false,
      description: 'Which version of each document: `published` (default) or `draft`. Writes: `draft` saves without publishing.',
      schema: { type: 'string', enum: ['published', 'draft'] },
    },
    locale: {
      name: 'locale', in: 'query', required: false,
      description: 'A locale code of the project (default: its default locale); `*` lists every locale',
      schema: { type: 'string' },
    },
    publicationFilter: {
      name: 'publicationFilter', in: 'query', required: false,
      description: 'Which documents, by how their draft and published versions relate',
      schema: { type: 'string', enum: [...PUBLICATION_FILTERS] },
    },
    hasPublishedVersion: {
      name: 'hasPublishedVersion', in: 'query', required: false, deprecated: true,
      description: '`true`: has-published-version-document; `false`: never-published-document (publicationFilter wins)',
      schema: { type: 'boolean' },
    },
    release: {
      name: 'release', in: 'query', required: false,
      description: 'A release preview: the documents as they will be once this release (its id) is published. Needs draft access (docs/preview.md); not with status=draft or publicationFilter',
      schema: { type: 'string', pattern: '^[1-9][0-9]{0,14}$' },
    },
    search: { name: '_q', in: 'query', required: false, description: 'Search: documents whose text fields contain the term (case-insensitive), or whose numeric fields equal it', schema: { type: 'string' } },
    documentId: { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } },
    id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
  };
}

/** `fields` of a type: a comma-separated list (or `fields[0]=…`) of its printable fields. */
export function fieldsParameter(names: string[]): JsonObject {
  return {
    name: 'fields', in: 'query', required: false, style: 'form', explode: false,
    description: 'Fields to print (id and documentId always are)',
    schema: { type: 'array', items: { type: 'string', enum: names } },
  };
}

/** `sort` of a type: `name`, `name:desc`, several comma-separated, or through relations (`chef.name:asc`). */
export function sortParameter(names: string[]): JsonObject {
  return {
    name: 'sort', in: 'query', required: false, style: 'form', explode: false,
    description: `\`field\`, \`field:asc\` or \`field:desc\`; several are applied in order; relation and component fields as \`chef.name:asc\`. Fields: ${names.join(', ')}`,
    schema: { type: 'array', items: { type: 'string' } },
  };
}

/** `populate` of a type: `*`, a comma-separated list of its links, or the object form. */
export function populateParameter(names: string[]): JsonObject {
  return {
    name: 'populate', in: 'query', required: false, style: 'deepObject', explode: true,
    description: `Links to print: \`*\`, a list (\`populate=${names.slice(0, 2).join(',') || 'a,b'}\`), or objects with \`fields\`, \`filters\`, \`sort\`, \`populate\`, \`count\` and (dynamic zones) \`on\`: \`populate[x][fields][0]=name\`. Links: ${names.join(', ') || 'none'}`,
    schema: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }] },
  };
}

export const PAGINATION_PARAMETERS = ['page', 'pageSize', 'start', 'limit', 'withCount'].map(param);

/** Reusable error answers, by status. */
const ERROR_RESPONSES: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  413: 'PayloadTooLarge', 429: 'TooManyRequests', 503: 'ServiceUnavailable',
};

const ERROR_DESCRIPTIONS: Record<string, string> = {
  BadRequest: 'Invalid query or body (`ValidationError`, every failing field in `details.errors`)',
  Unauthorized: 'Unknown, expired or revoked token or JWT',
  Forbidden: 'The role or token lacks the permission (or a plan limit is reached)',
  NotFound: 'No such document or file',
  MethodNotAllowed: 'The method is not served on this path (see `Allow`)',
  PayloadTooLarge: 'The body is too large',
  TooManyRequests: 'Rate or plan limit reached (see `Retry-After`)',
  ServiceUnavailable: 'The query took too long and was cancelled, or the project is running too many queries at once',
};

export function errorResponses(): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(ERROR_DESCRIPTIONS).map(([name, description]) =>
    [name, { description, content: { 'application/json': { schema: ref(FIXED_SCHEMAS.error) } } }]));
}

/** References to the error answers of these statuses (with 429 and 503, which any request may meet). */
export function errorsFor(...statuses: number[]): Record<string, JsonObject> {
  return Object.fromEntries([...new Set([...statuses, 429, 503])].sort((a, b) => a - b).map((s) => [String(s), R(ERROR_RESPONSES[s]!)]));
}
