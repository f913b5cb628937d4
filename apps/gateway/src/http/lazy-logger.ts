// Request loggers made when a request logs, not when it arrives. A pino child serialises its
// bindings (`reqId`, then `projectId`) as it is made, and at the usual levels almost no request
// ever logs: two children per request were a few per cent of a content read. This one holds the
// bindings and makes the real child on its first log call; a child of it (the tenant plugin's
// `projectId`) merges bindings without making anything either.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

export class LazyChildLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bound: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bound, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return ((this.made ?? this.parent) as unknown as Logger).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return (this.logger as unknown as Logger).bindings();
  }

  fatal(...args: unknown[]): void {
    (this.logger.fatal as (...a: unknown[]) => void)(...args);
  }

  error(...args: unknown[]): void {
    (this.logger.error as (...a: unknown[]) => void)(...args);
  }

  warn(...args: unknown[]): void {
    (this.logger.warn as (...a: unknown[]) => void)(...args);
  }

  info(...args: unknown[]): void {
    (this.logger.info as (...a: unknown[]) => void)(...args);
  }

  debug(...args: unknown[]): void {
    (this.logger.debug as (...a: unknown[]) => void)(...args);
  }

  trace(...args: unknown[]): void {
    (this.logger.trace as (...a: unknown[]) => void)(...args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    if (this.made) return this.made.child(bindings, options);
    // Same output as a child of a child: the parent's bindings, then these.
    return lazyChild(this.parent, { ...this.bound, ...bindings }, options ? { ...this.options, ...options } : this.options);
  }
}

export function lazyChild(parent: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
