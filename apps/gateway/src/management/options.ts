// What every management route module is registered with (its own module: the routes import it,
// index.ts imports the routes).
import type { Platform } from '../platform.ts';

export interface ManagementOptions {
  platform: Platform;
}
