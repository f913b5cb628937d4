// Work started by a request that its answer must not wait for (e.g. a mail whose sending time
// would tell whether an address has an account). Failures are logged; closing waits for the rest.
import type { Logger } from '@cms/telemetry';

export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    // Started on the next turn of the event loop: after the answer has been written.
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err) => this.logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves once every task started so far has ended. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
