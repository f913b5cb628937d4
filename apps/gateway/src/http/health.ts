import type { FastifyInstance } from 'fastify';
import { reachable } from '@cms/db';
import type { Platform } from '../platform.ts';

/** `/healthz`: the process answers. `/readyz`: Postgres and the bus backend are reachable. */
export function registerHealth(app: FastifyInstance, platform: Platform): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const postgres = (await reachable(platform.db.pool)) ? 'ok' : 'unreachable';
    const redis = platform.bus.kind === 'local' ? 'embedded' : (await platform.bus.ping()) ? 'ok' : 'unreachable';
    const ready = postgres === 'ok' && redis !== 'unreachable';
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', postgres, redis });
  });
}
