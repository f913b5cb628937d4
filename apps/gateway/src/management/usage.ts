// A project's usage in the current month, against its plan's limits.
import type { FastifyInstance } from 'fastify';
import { usageReport } from '@cms/billing';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

export function registerUsageRoutes(app: FastifyInstance, { platform, services }: ManagementOptions): void {
  app.get('/projects/:slug/usage', async (request) => {
    const p = projectOf(request);
    const { physical } = await platform.runtimes.get(p);
    const contentTables = Object.values(physical.contentTypes).map((t) => t.table);
    return usageReport(platform.db.pool, services.usage, p, contentTables);
  });
}
