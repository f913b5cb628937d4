// A project's locales (apps/gateway/src/management/locales.ts).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent } from '../route.ts';
import { answerWith, listOf } from '../shapes.ts';

const EDITORS = 'Viewers may not change locales';
const localeName = { type: 'string', maxLength: 100 } as const;

const localeAnswer = (description: string) => answerWith('locale', { $ref: 'Locale#' }, description);

export const localeRoutes = {
  list: defineRoute({
    tags: ['Locales'],
    summary: 'List the locales',
    description: 'Every locale of the project; `isDefault` marks its default locale. Any member.',
    response: withErrors({ 200: listOf('locales', { $ref: 'Locale#' }, 'The locales') }, { 404: NO_PROJECT }),
  }),

  add: defineRoute({
    tags: ['Locales'],
    summary: 'Add a locale',
    description: 'Codes are BCP-47-like (`en`, `fr`, `pt-BR`). `isDefault: true` makes it the project\'s default locale.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['code'],
      properties: { code: { type: 'string', maxLength: 50 }, name: localeName, isDefault: { type: 'boolean' } },
      examples: [{ code: 'fr', name: 'French' }],
    },
    response: withErrors({ 201: localeAnswer('The new locale') }, { 400: 'An unknown, malformed or existing code', 403: EDITORS, 404: NO_PROJECT }),
  }),

  update: defineRoute({
    tags: ['Locales'],
    summary: 'Rename a locale or make it the default',
    description: 'The project\'s `defaultLocale` follows `isDefault: true`; `isDefault: false` is 400 (choose another default instead).',
    body: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { name: localeName, isDefault: { type: 'boolean' } },
      examples: [{ isDefault: true }],
    },
    response: withErrors({ 200: localeAnswer('The locale') }, { 400: 'An empty body or `isDefault: false`', 403: EDITORS, 404: 'No such project or locale' }),
  }),

  remove: defineRoute({
    tags: ['Locales'],
    summary: 'Delete a locale',
    description: 'With its content. The default locale cannot be deleted (400).',
    response: withErrors({ 204: noContent('Deleted') }, { 400: 'The default locale', 403: EDITORS, 404: 'No such project or locale' }),
  }),
};
