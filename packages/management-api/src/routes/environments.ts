// Environments (apps/gateway/src/management/environments.ts): copies of a project linked to it,
// slug `{parent}--{name}`; create, list, delete, promote (the environment's model onto the parent).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent } from '../route.ts';
import { answerWith, dateTime, listOf, nullableString } from '../shapes.ts';

const OWNERS = 'Only owners create, delete and promote environments';
const NOT_A_PARENT = 'The project is itself an environment (use its parent)';

const Environment = {
  type: 'object',
  description: 'An environment of a project',
  required: ['name', 'slug', 'status', 'error', 'apiUrl', 'graphqlUrl', 'createdAt'],
  properties: {
    name: { type: 'string', description: '`^[a-z][a-z0-9-]{0,19}$`' },
    slug: { type: 'string', description: '`{parent}--{name}`: every project route and the content API work on it' },
    status: { type: 'string', enum: ['copying', 'ready', 'failed'], description: 'Its copy of the parent; one whose process stopped reads `failed` 60 s after its last heartbeat' },
    error: { ...nullableString, description: 'Why the copy failed' },
    apiUrl: { type: 'string', description: 'Its content API base, ending in `/api`' },
    graphqlUrl: { type: 'string' },
    createdAt: dateTime,
  },
  examples: [{
    name: 'staging', slug: 'my-blog--staging', status: 'ready', error: null, apiUrl: 'https://cms.example.com/p/my-blog--staging/api',
    graphqlUrl: 'https://cms.example.com/p/my-blog--staging/graphql', createdAt: '2026-11-23T06:00:00.000Z',
  }],
} as const;

const Step = {
  type: 'object',
  required: ['kind', 'uid', 'attribute', 'description', 'destructive'],
  properties: {
    kind: { type: 'string', description: 'The migration step (as `POST …/schema/plan` plans it)' },
    uid: { type: 'string', description: 'The content type or component' },
    attribute: nullableString,
    description: { type: 'string' },
    destructive: { type: 'boolean', description: 'Applying it deletes stored data' },
  },
} as const;

export const environmentRoutes = {
  create: defineRoute({
    tags: ['Environments'],
    summary: 'Create an environment',
    description: 'A copy of the project (model, content, media, locales, end-user roles, settings; not its API tokens, webhooks, billing, history, releases or audit log), made in the background: `status` is `copying` until it is `ready`. Environments per project by plan: `free` 1, `pro` 3, `enterprise` 20 (any status counted). Owners only.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 100, description: '`^[a-z][a-z0-9-]{0,19}$`' } },
      examples: [{ name: 'staging' }],
    },
    response: withErrors({
      202: answerWith('environment', Environment, 'The environment, being copied'),
    }, {
      400: `A malformed name, or ${NOT_A_PARENT.toLowerCase()}`,
      403: `${OWNERS}; past the plan's limit: \`details: {limit: "environments", plan, max}\``,
      404: NO_PROJECT,
      409: 'The name is taken',
    }),
  }),

  list: defineRoute({
    tags: ['Environments'],
    summary: 'List the environments',
    description: 'Oldest first. Any member.',
    response: withErrors({
      200: listOf('environments', Environment, 'The environments'),
    }, { 400: NOT_A_PARENT, 404: NO_PROJECT }),
  }),

  remove: defineRoute({
    tags: ['Environments'],
    summary: 'Delete an environment',
    description: 'Dropped at once (schema, control rows, its own media), without a restore window. Owners only.',
    response: withErrors({ 204: noContent('Deleted') }, { 400: NOT_A_PARENT, 403: OWNERS, 404: 'No such project or environment' }),
  }),

  promote: defineRoute({
    tags: ['Environments'],
    summary: 'Promote an environment\'s model',
    description: [
      'Makes the parent\'s model the environment\'s (the migration `PUT …/schema` runs); content never moves. The body is optional:',
      '`{dryRun?: boolean, confirm?: boolean}` (checked by the route; no body: `{dryRun: false}`). `dryRun: true`: the plan only, nothing',
      'changes. Otherwise a plan with a destructive step needs `confirm: true` (400 listing the steps in `details.steps`); then a manual',
      'backup of the parent is taken and waited for (`backup`), and the model is applied at the version it was planned against.',
      '`changed: false`: the models are equal. Owners only.',
    ].join(' '),
    // Shown, not validated: the route's own checks answer (promoteOptions), so its messages stay.
    docBody: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        dryRun: { type: 'boolean', description: 'The plan only: nothing changes' },
        confirm: { type: 'boolean', description: 'Apply a plan with destructive steps' },
      },
    },
    response: withErrors({
      200: {
        description: 'The plan, and whether it was applied',
        type: 'object',
        required: ['plan', 'applied', 'backup'],
        properties: {
          plan: {
            type: 'object',
            required: ['steps', 'changed'],
            properties: {
              steps: { type: 'array', items: Step },
              changed: { type: 'boolean', description: 'The models differ (with no steps: only in names and options, which move no column)' },
            },
          },
          applied: { type: 'boolean' },
          backup: {
            type: ['object', 'null'],
            description: 'The parent\'s backup taken before applying; null when nothing was applied',
            required: ['id'],
            properties: { id: { type: 'string' } },
          },
        },
        examples: [{ plan: { steps: [{ kind: 'addAttribute', uid: 'api::article.article', attribute: 'subtitle', description: 'add the attribute subtitle', destructive: false }], changed: true }, applied: true, backup: { id: '0b1f6c1e-8d2a-4c55-9d3e-2f4a7b9c1d2e' } }],
      },
    }, {
      400: `A bad body, an unconfirmed destructive step (\`details.steps\`), or ${NOT_A_PARENT.toLowerCase()}`,
      403: OWNERS,
      404: 'No such project or environment',
      409: 'The environment is not ready, or the parent\'s model changed meanwhile',
      503: 'The backup taken before promoting failed: nothing was changed',
    }),
  }),
};
