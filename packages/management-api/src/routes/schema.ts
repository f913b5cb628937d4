// The content-type builder (`/v1/projects/{slug}/schema`, `…/content-types/{uid}`,
// `…/components/{uid}`; apps/gateway/src/management/schema.ts). Content types and components are
// Strapi v5 `schema.json` objects: open (options the platform does not act on are kept as given).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent } from '../route.ts';
import { nullableString } from '../shapes.ts';

const schemaJson = (what: string) => ({ type: 'object', additionalProperties: true, description: what }) as const;

const contentTypes = {
  type: 'object', additionalProperties: { type: 'object', additionalProperties: true },
  description: 'Content types by uid (`api::{singularName}.{singularName}`), each a Strapi v5 `schema.json`',
} as const;
const components = {
  type: 'object', additionalProperties: { type: 'object', additionalProperties: true },
  description: 'Components by uid (`{category}.{name}`), each a Strapi v5 `schema.json`',
} as const;

const articleExample = {
  kind: 'collectionType', collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string', required: true }, body: { type: 'richtext' } },
};

/** The body of `PUT …/schema` and of its dry run `POST …/schema/plan`. */
const ModelBody = {
  type: 'object',
  additionalProperties: false,
  required: ['contentTypes'],
  properties: {
    contentTypes: { type: 'object', description: contentTypes.description },
    components: { type: 'object', description: components.description },
    renames: {
      type: 'object',
      description: '`{uid: {oldAttribute: newAttribute}}`: keeps the data of renamed attributes',
      additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
    },
    expectedVersion: { type: 'integer', minimum: 0, description: 'The model version this change was made against (409 when another change came first)' },
  },
  examples: [{ contentTypes: { 'api::article.article': articleExample }, components: {} }],
} as const;

/** One content type's or component's `schema.json` (`PUT …/content-types/{uid}`, `PUT …/components/{uid}`). */
const SchemaJsonBody = { ...schemaJson('A Strapi v5 `schema.json`'), examples: [articleExample] } as const;

const UidParams = {
  type: 'object',
  properties: { slug: { type: 'string' }, uid: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

const model = (description: string) => ({
  description,
  type: 'object', required: ['contentTypes', 'components', 'version'],
  properties: {
    contentTypes, components,
    version: { type: 'integer', description: 'The model\'s version, one more at each change' },
  },
  examples: [{ contentTypes: { 'api::article.article': articleExample }, components: {}, version: 3 }],
}) as const;

const ModelPlan = {
  description: 'What the change would do (nothing was changed)',
  type: 'object', required: ['changed', 'destructive', 'changes'],
  properties: {
    changed: { type: 'boolean', description: 'The change would change the model' },
    destructive: { type: 'boolean', description: 'Applying it deletes stored data (a backup is taken first)' },
    changes: {
      type: 'array',
      items: {
        type: 'object', required: ['op', 'type', 'attribute', 'description', 'destructive'],
        properties: {
          op: { type: 'string', description: 'The kind of migration step' },
          type: { type: 'string', description: 'The content type\'s or component\'s uid' },
          attribute: nullableString,
          description: { type: 'string' },
          destructive: { type: 'boolean' },
        },
      },
    },
  },
  examples: [{
    changed: true, destructive: true,
    changes: [
      { op: 'addAttribute', type: 'api::article.article', attribute: 'subtitle', description: 'add the attribute subtitle', destructive: false },
      { op: 'dropAttribute', type: 'api::article.article', attribute: 'legacy', description: 'drop the attribute legacy and its data', destructive: true },
    ],
  }],
} as const;

const ContentTypeAnswer = {
  description: 'The content type as stored, and the model\'s new version',
  type: 'object', required: ['contentType', 'version'],
  properties: { contentType: schemaJson('The content type as stored'), version: { type: 'integer' } },
  examples: [{ contentType: articleExample, version: 4 }],
} as const;

const ComponentAnswer = {
  description: 'The component as stored, and the model\'s new version',
  type: 'object', required: ['component', 'version'],
  properties: { component: schemaJson('The component as stored'), version: { type: 'integer' } },
} as const;

const WRITERS = 'Viewers cannot change the model';
const INVALID_MODEL = 'An invalid model (unknown attribute type, relation to an unknown target, a reserved attribute name, a changed `singularName`…; named in `details.errors`), or a change that would lose data it cannot keep';
const CHANGED_MEANWHILE = '`expectedVersion` is not the current version: someone else changed the model meanwhile';
const BACKUP_FAILED = 'The backup taken before a change that deletes data failed: nothing was changed';

export const schemaRoutes = {
  get: defineRoute({
    tags: ['Schema'],
    summary: 'Get the model',
    description: 'The content types and components (Strapi v5 `schema.json` objects) and the model\'s version, to send back as `expectedVersion` with a change. Any member.',
    response: withErrors({ 200: model('The content types and components, and the model\'s version') }, { 404: NO_PROJECT }),
  }),

  put: defineRoute({
    tags: ['Schema'],
    summary: 'Replace the model',
    description: 'Declarative: the model becomes the body in one transaction (types absent from it are dropped), keeping the data of unchanged attributes. A change that deletes data is preceded by a backup. The new model serves requests as soon as this answers. Owners and editors.',
    body: ModelBody,
    response: withErrors({ 200: model('The model as stored') }, { 400: INVALID_MODEL, 403: WRITERS, 404: NO_PROJECT, 409: CHANGED_MEANWHILE, 503: BACKUP_FAILED }),
  }),

  plan: defineRoute({
    tags: ['Schema'],
    summary: 'Plan a model change (dry run)',
    description: 'What `PUT /v1/projects/{slug}/schema` would do with the same body, without doing it: its migration is run and rolled back, so a change refused for the data it would lose is refused here too.',
    body: ModelBody,
    response: withErrors({ 200: ModelPlan }, { 400: INVALID_MODEL, 403: WRITERS, 404: NO_PROJECT, 409: CHANGED_MEANWHILE }),
  }),

  putContentType: defineRoute({
    tags: ['Schema'],
    summary: 'Create or replace a content type',
    description: 'Keeps the others (and its place among them). Owners and editors.',
    params: UidParams,
    body: SchemaJsonBody,
    response: withErrors({ 200: ContentTypeAnswer }, { 400: INVALID_MODEL, 403: WRITERS, 404: NO_PROJECT, 409: CHANGED_MEANWHILE, 503: BACKUP_FAILED }),
  }),

  deleteContentType: defineRoute({
    tags: ['Schema'],
    summary: 'Delete a content type',
    description: 'With its documents (a backup is taken first). Owners and editors.',
    response: withErrors({ 204: noContent('Deleted') }, { 400: 'Another type or component still refers to it', 403: WRITERS, 404: `${NO_PROJECT}, or no such content type`, 503: BACKUP_FAILED }),
  }),

  putComponent: defineRoute({
    tags: ['Schema'],
    summary: 'Create or replace a component',
    description: 'Keeps the others. Owners and editors.',
    params: UidParams,
    body: SchemaJsonBody,
    response: withErrors({ 200: ComponentAnswer }, { 400: INVALID_MODEL, 403: WRITERS, 404: NO_PROJECT, 409: CHANGED_MEANWHILE, 503: BACKUP_FAILED }),
  }),
};
