// One GraphQL subscription field (`articleChanged`, docs/graphql.md § Subscriptions) as a stream
// of the live hub (live-hub.ts): given the project's events in position order like an SSE stream,
// it keeps those its type, locale, status and filters let through and hands them, one at a time,
// to graphql-js, which runs the subscription's selection on each (its document read as the
// subscriber reads it, shared across the subscriptions of one delivery). It is the async iterator
// the subscription field's `subscribe` answers: returning it (the client completes, the socket
// closes) takes it off the hub.
import type { ChangeMemo, ChangeSource, FollowRequest } from '@cms/graphql';
import type { LiveEvent } from '@cms/live';
import type { LiveProject, LiveSubscriber } from './live-hub.ts';

/** The WebSocket a subscription runs on, as its subscriber needs it. */
export interface SubscriptionSocket {
  /** Bytes waiting to be sent. */
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
  /** Keep-alive: a WebSocket ping (at most one per socket per hub round). */
  ping(): void;
}

/** Bytes a socket may have waiting before its client is dropped (it reconnects and resumes). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Events a subscription may have waiting for its client (a resume's catch-up included). */
export const MAX_QUEUED_EVENTS = 50_000;
/** Close codes: the gateway stops; the client reads too slowly. Both are retried by graphql-ws clients. */
export const GOING_AWAY = 1001;
export const TRY_AGAIN_LATER = 1013;

type Queued = { restart: number } | { event: LiveEvent; memo: ChangeMemo; check: boolean };

export class GraphqlSubscriber implements LiveSubscriber, AsyncIterableIterator<ChangeSource> {
  private readonly queue: Queued[] = [];
  private wake: (() => void) | null = null;
  private done = false;

  constructor(
    readonly project: LiveProject,
    public position: number,
    private readonly accepts: (event: LiveEvent) => boolean,
    private readonly request: FollowRequest,
    private readonly socket: SubscriptionSocket,
    /** Off the hub; `dropped`: for reading too slowly. */
    private readonly onStop: (subscriber: GraphqlSubscriber, dropped: boolean) => void,
  ) {}

  /** Only queues: the filters' reads and the selections run as the client takes the events. */
  async deliver(events: readonly LiveEvent[], memo: ChangeMemo = new Map()): Promise<void> {
    for (const event of events) {
      if (this.done) return;
      if (event.position <= this.position) continue;
      this.position = event.position;
      if (!this.accepts(event)) continue;
      const decided = this.request.decide(event);
      if (decided !== false) this.push({ event, memo, check: decided === null });
    }
  }

  /** The position is older than the log keeps: an event `restart`, then on from the log's head. */
  restart(head: number): void {
    this.position = head;
    this.push({ restart: head });
  }

  ping(): void {
    if (!this.done) this.socket.ping();
  }

  /** The gateway shuts down: the socket closes (its client reconnects elsewhere and resumes with `after`). */
  end(): void {
    this.stop();
    this.socket.close(GOING_AWAY, 'The server is shutting down: reconnect and resume');
  }

  async next(): Promise<IteratorResult<ChangeSource>> {
    try {
      return await this.take();
    } catch (err) {
      // A filter's read failed: the subscription ends with an error (nobody returns the iterator then).
      this.stop();
      throw err;
    }
  }

  private async take(): Promise<IteratorResult<ChangeSource>> {
    for (;;) {
      if (this.done) return { done: true, value: undefined };
      const item = this.queue.shift();
      if (!item) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const { status } = this.request;
      if ('restart' in item) {
        return { done: false, value: { event: 'restart', documentId: null, locale: null, position: String(item.restart), status, memo: new Map() } };
      }
      const { event, memo } = item;
      if (item.check && !(await this.request.matches(event, memo))) continue;
      if (this.done) return { done: true, value: undefined };
      return { done: false, value: { event: event.event, documentId: event.documentId, locale: event.locale, position: String(event.position), status, memo } };
    }
  }

  async return(): Promise<IteratorResult<ChangeSource>> {
    this.stop();
    return { done: true, value: undefined };
  }

  async throw(err?: unknown): Promise<IteratorResult<ChangeSource>> {
    this.stop();
    throw err;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private push(item: Queued): void {
    if (this.done) return;
    if (this.queue.length >= MAX_QUEUED_EVENTS || this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A slow consumer: dropped, so it costs the others nothing; it resumes with `after`.
      this.stop(true);
      this.socket.close(TRY_AGAIN_LATER, 'Too slow to follow the changes: reconnect and resume');
      return;
    }
    this.queue.push(item);
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Off the hub; a pending `next` ends. */
  private stop(dropped = false): void {
    if (this.done) return;
    this.done = true;
    this.queue.length = 0;
    this.onStop(this, dropped);
    this.wakeUp();
  }
}
