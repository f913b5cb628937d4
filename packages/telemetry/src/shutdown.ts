// Graceful stop on SIGINT/SIGTERM, once, for every long-running process (gateway, worker).
import type { Logger } from 'pino';

export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, 'shutting down');
      try {
        await close();
      } catch (err) {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      }
      process.exit(0);
    });
  }
}
