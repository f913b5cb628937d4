// Control-plane services shared by the management API and the content API.
import type { Platform } from './platform.ts';

export interface Services {}

export function createServices(_platform: Platform): Services {
  return {};
}
