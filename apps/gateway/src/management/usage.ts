// A project's usage: the current month against its plan's limits, and its last days (requests
// and rate-limit rejections per day, the busiest routes). Any member may read them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dailyRejections, dailyUsage, topRoutes, usageReport, USAGE_HISTORY_DAYS } from '@cms/billing';
import { ValidationError, type FieldError } from '@cms/errors';
import { usageRoutes as schemas } from '@cms/management-api';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';
import { withEnvironmentsUsage } from './environments.ts';

interface IntParam {
  min: number;
  max: number;
  fallback: number;
}

const DAYS: IntParam = { min: 1, max: USAGE_HISTORY_DAYS, fallback: 30 };
const LIMIT: IntParam = { min: 1, max: 100, fallback: 10 };
const INTEGER = /^[0-9]{1,9}$/;

/** The request's integer query parameters: each absent one its fallback; anything else (an unknown key, a non-integer, out of range) is 400 naming the key. */
function intQuery<K extends string>(request: FastifyRequest, params: Record<K, IntParam>): Record<K, number> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(query)) {
    if (!Object.hasOwn(params, key)) errors.push({ path: [key], message: `${key} is not a valid key`, name: 'ValidationError' });
  }
  const values = {} as Record<K, number>;
  for (const key of Object.keys(params) as K[]) {
    const { min, max, fallback } = params[key];
    const given = query[key];
    const n = typeof given === 'string' && INTEGER.test(given) ? Number(given) : NaN;
    if (given === undefined) values[key] = fallback;
    else if (n >= min && n <= max) values[key] = n;
    else errors.push({ path: [key], message: `${key} must be an integer from ${min} to ${max}`, name: 'ValidationError', value: given });
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return values;
}

export async function usageRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const db = platform.db.pool;
  app.get('/projects/:slug/usage', { schema: schemas.get }, async (request) => {
    const p = projectOf(request);
    const { physical } = await platform.runtimes.get(p);
    const contentTables = Object.values(physical.contentTypes).map((t) => t.table);
    // A parent's documents include its environments' (management-api.md § Environments).
    return withEnvironmentsUsage(platform, p, await usageReport(db, platform.usage, p, contentTables, platform.db.tenantPool));
  });
  app.get('/projects/:slug/usage/daily', { schema: schemas.daily }, async (request) => {
    const { days } = intQuery(request, { days: DAYS });
    return { days: await dailyUsage(db, platform.usage, projectOf(request).id, days) };
  });
  app.get('/projects/:slug/usage/rejections', { schema: schemas.rejections }, async (request) => {
    const { days } = intQuery(request, { days: DAYS });
    return dailyRejections(db, platform.usage, projectOf(request).id, days);
  });
  app.get('/projects/:slug/usage/routes', { schema: schemas.routes }, async (request) => {
    const { days, limit } = intQuery(request, { days: DAYS, limit: LIMIT });
    return { routes: await topRoutes(db, platform.usage, projectOf(request).id, days, limit) };
  });
}
