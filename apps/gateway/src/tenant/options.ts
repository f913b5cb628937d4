// What every content API route module (a fastify plugin) is registered with. Never the tenant
// plugin's own options: they carry its `/p/:slug` prefix, which a nested plugin would add once more.
import type { Platform } from '../platform.ts';

export interface TenantOptions {
  platform: Platform;
}
