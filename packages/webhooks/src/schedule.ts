// When a failed delivery is tried again: doubling delays from WEBHOOKS_BACKOFF_MS, the last one
// stretched so the last attempt falls WEBHOOKS_RETRY_WINDOW_MS after the first (24 h by default:
// 12 attempts, 1 min, 2 min, … 8.5 h, then ~7 h).
import type { WebhooksConfig } from '@cms/config';

/** The delay before attempt `made + 1`, after `made` failed attempts (1 ≤ made < maxAttempts), ms. */
export function retryDelay(made: number, config: Pick<WebhooksConfig, 'backoffMs' | 'maxAttempts' | 'retryWindowMs'>): number {
  const exp = (i: number) => config.backoffMs * 2 ** (i - 1);
  if (made === config.maxAttempts - 1 && config.retryWindowMs > 0) {
    let before = 0;
    for (let i = 1; i < made; i++) before += exp(i);
    if (config.retryWindowMs > before) return config.retryWindowMs - before;
  }
  return exp(made);
}
