// What every management route module (a fastify plugin) is registered with (its own module: the
// routes import it, index.ts imports the routes). Never the management plugin's own options: they
// carry its `/v1` prefix, which a nested plugin would add once more.
import type { FastifyRequest } from 'fastify';
import type { Platform } from '../platform.ts';

export interface ManagementOptions {
  platform: Platform;
}

/** The account routes outside the session's plugin, some of which check the session themselves. */
export interface SessionRouteOptions extends ManagementOptions {
  authenticate: (request: FastifyRequest) => Promise<void>;
}
