// What every management route module is registered with (its own module: the routes import it,
// index.ts imports the routes).
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';

export interface ManagementOptions {
  platform: Platform;
  services: Services;
}
