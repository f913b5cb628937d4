// A project's usage (apps/gateway/src/management/usage.ts): the month against the plan's limits,
// and its last days. Any member.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { MonthlyUsage, PlanLimits } from '../shapes.ts';

const BAD_QUERY = 'Another query key, or a value that is not such an integer (`1.5`, `-1`, a repeated key): one entry per bad key in `details.errors`';
const date = { type: 'string', format: 'date', description: 'A UTC day, `YYYY-MM-DD`' } as const;
// Shown by the document only (`docQuery`): the handler checks them (an integer in range, each key
// once) and names each bad key.
const days = { type: 'integer', minimum: 1, maximum: 90, default: 30, description: 'The window: today and the `days - 1` days before', examples: [7] } as const;
const limit = { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'How many routes', examples: [10] } as const;

const Rejections = {
  type: 'object',
  required: ['perSecond', 'monthly', 'auth'],
  properties: {
    perSecond: { type: 'integer', description: 'Refused by the plan\'s requests per second' },
    monthly: { type: 'integer', description: 'Refused by the plan\'s monthly quota' },
    auth: { type: 'integer', description: 'Refused by the brute-force limits of the end users\' auth routes' },
  },
} as const;

export const usageRoutes = {
  get: defineRoute({
    tags: ['Usage'],
    summary: 'Get the month\'s usage',
    description: 'Requests, storage and documents this month, against the plan\'s limits. A parent project\'s `documents` include its environments\' (their requests are metered as the parent\'s already).',
    response: withErrors({
      200: {
        description: 'The month\'s usage',
        type: 'object',
        required: [...MonthlyUsage.required, 'limits'],
        properties: { ...MonthlyUsage.properties, limits: PlanLimits },
        examples: [{
          period: '2026-11', requests: 1234, storageBytes: 52000, historyBytes: 16384, documents: 42,
          limits: { requestsPerMonth: 100000, requestsPerSecond: 50, storageBytes: 1073741824, documents: 10000, maxUploadBytes: 52428800 },
        }],
      },
    }, { 404: NO_PROJECT }),
  }),

  daily: defineRoute({
    tags: ['Usage'],
    summary: 'Get the requests per day',
    description: 'Every day of the window, oldest first, zeros included. The answering gateway writes its pending counts first; other gateways\' arrive within 5 s.',
    docQuery: { days },
    response: withErrors({
      200: {
        description: 'Requests and rejections per day',
        type: 'object',
        required: ['days'],
        properties: {
          days: {
            type: 'array',
            items: {
              type: 'object',
              required: ['date', 'requests', 'rejected'],
              properties: {
                date,
                requests: { type: 'integer', description: 'Metered requests' },
                rejected: { type: 'integer', description: 'Requests refused with 429, whatever the limit' },
              },
            },
          },
        },
        examples: [{ days: [{ date: '2026-11-28', requests: 120, rejected: 0 }, { date: '2026-11-29', requests: 87, rejected: 2 }] }],
      },
    }, { 400: BAD_QUERY, 404: NO_PROJECT }),
  }),

  rejections: defineRoute({
    tags: ['Usage'],
    summary: 'Get the rejections per day',
    description: 'Requests refused with 429, by the limit that refused them, for every day of the window (oldest first), and their totals.',
    docQuery: { days },
    response: withErrors({
      200: {
        description: 'Rejections per day and in total',
        type: 'object',
        required: ['days', 'total'],
        properties: {
          days: {
            type: 'array',
            items: { type: 'object', required: ['date', ...Rejections.required], properties: { date, ...Rejections.properties } },
          },
          total: Rejections,
        },
      },
    }, { 400: BAD_QUERY, 404: NO_PROJECT }),
  }),

  routes: defineRoute({
    tags: ['Usage'],
    summary: 'Get the busiest routes',
    description: 'The window\'s busiest routes, by requests then by name. `route` is the method and the pattern with the content type\'s name filled in (`GET /api/articles`); errors count under the bare pattern, unmatched paths and routes past 200 a day under `other`.',
    docQuery: { days, limit },
    response: withErrors({
      200: {
        description: 'The busiest routes',
        type: 'object',
        required: ['routes'],
        properties: {
          routes: {
            type: 'array',
            items: { type: 'object', required: ['route', 'requests'], properties: { route: { type: 'string' }, requests: { type: 'integer' } } },
          },
        },
        examples: [{ routes: [{ route: 'GET /api/articles', requests: 812 }, { route: 'POST /graphql', requests: 97 }] }],
      },
    }, { 400: BAD_QUERY, 404: NO_PROJECT }),
  }),
};
